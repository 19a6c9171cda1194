import schemas from './generated/event-schemas.json' with { type: 'json' };
import type { AspectChange, NewLogEntry } from '../../storage/store.ts';
import { ASPECTS } from '../registry/aspects.ts';
import { EMITTED_CATEGORIES, entityChangeEvents, type EntityChangeEventV1 } from './entity-changes.ts';
import { toEntityChangeEvent, type ChangeRecord } from './entity-change-event.ts';
import { AvroJsonEncoder } from './avro-json.ts';

/** DataHub's topics, by the names its events API takes (ExternalEventsService). */
export const TOPICS = ['PlatformEvent_v1', 'MetadataChangeLog_Versioned_v1', 'MetadataChangeLog_Timeseries_v1'] as const;
export type Topic = (typeof TOPICS)[number];
export const isTopic = (name: string): name is Topic => (TOPICS as readonly string[]).includes(name);

type AvroSchema = ConstructorParameters<typeof AvroJsonEncoder>[0];
const MCL = new AvroJsonEncoder(schemas.MetadataChangeLog as unknown as AvroSchema);
const PLATFORM_EVENT = new AvroJsonEncoder(schemas.PlatformEvent as unknown as AvroSchema);

/** A GenericAspect / GenericPayload: the value as JSON text. */
const generic = (value: unknown) => ({ value: JSON.stringify(value), contentType: 'application/json' });

/** The MetadataChangeLog DataHub publishes for the change, in the pegasus shape (before Avro's encoding). */
export function metadataChangeLog(c: AspectChange): Record<string, unknown> {
  return {
    entityType: c.entityType,
    entityUrn: c.urn,
    changeType: c.changeType,
    aspectName: c.aspect,
    aspect: c.after === null ? null : generic(c.after),
    systemMetadata: c.systemMetadata,
    previousAspectValue: c.before === null ? null : generic(c.before),
    previousSystemMetadata: c.previousSystemMetadata,
    created: { time: c.at, actor: c.actor },
  };
}

/**
 * A MetadataChangeLog's Avro JSON text. System metadata the schema does not take (stored before a field's type was
 * checked) is left out rather than failing the read that serves it.
 */
function encodeChangeLog(c: AspectChange): string {
  const mcl = metadataChangeLog(c);
  try {
    return MCL.encode(mcl);
  } catch {
    return MCL.encode({ ...mcl, systemMetadata: null, previousSystemMetadata: null });
  }
}

/** The Avro JSON text of the PlatformEvent_v1 wrapping an Entity Change Event given as its JSON text. */
const encodePlatformEvent = (time: number, eceText: string): string =>
  PLATFORM_EVENT.encode({
    header: { timestampMillis: time },
    name: 'entityChangeEvent',
    payload: { value: eceText, contentType: 'application/json' },
  });

/**
 * What an entry stores is compact, made cheaply at the write (one JSON.stringify, no Avro): `{"mcl":<change>}` for a
 * change log, `{"ece":<event>}` for an Entity Change Event, `{"change":<ChangeRecord>}` for a webhook event carried
 * over from the outbox by the migration. The Avro JSON value DataHub's events API serves is made from it when read
 * (`eventLogValue`), the webhook body when delivered (`entityChangeEventText`).
 */
const MCL_PREFIX = '{"mcl":';
const ECE_PREFIX = '{"ece":';
const CHANGE_PREFIX = '{"change":';

/** The Entity Change Event of a stored entry as its JSON text, or undefined for a change log. */
function storedEventText(stored: string): string | undefined {
  if (stored.startsWith(ECE_PREFIX)) return stored.slice(ECE_PREFIX.length, -1);
  if (stored.startsWith(CHANGE_PREFIX)) return JSON.stringify(toEntityChangeEvent((JSON.parse(stored) as { change: ChangeRecord }).change));
  return undefined;
}

/** The value the events API serves for a stored entry: Avro's JSON encoding of its record. */
export function eventLogValue(stored: string): string {
  if (stored.startsWith(MCL_PREFIX)) return encodeChangeLog((JSON.parse(stored) as { mcl: AspectChange }).mcl);
  const text = storedEventText(stored);
  if (text === undefined) return stored;
  return encodePlatformEvent((JSON.parse(text) as EntityChangeEventV1).auditStamp.time, text);
}

/** Which topic DataHub routes an aspect's change log to (EntityServiceImpl: timeseries aspects to their own). */
const changeLogTopic = (aspect: string): Topic =>
  ASPECTS.get(aspect)?.kind === 'timeseries' ? 'MetadataChangeLog_Timeseries_v1' : 'MetadataChangeLog_Versioned_v1';

/**
 * An Entity Change Event's entry on PlatformEvent_v1, as DataHub's EntityChangeEventGeneratorHook.buildPlatformEvent
 * wraps it (when read). Webhooks deliver the entries of the categories they take (EMITTED_CATEGORIES), with the event
 * as body.
 */
export const platformEntry = (ece: EntityChangeEventV1): NewLogEntry => ({
  topic: 'PlatformEvent_v1',
  entityType: ece.entityType,
  entityUrn: ece.entityUrn,
  createdAt: ece.auditStamp.time,
  value: `${ECE_PREFIX}${JSON.stringify(ece)}}`,
  webhookCategory: EMITTED_CATEGORIES.includes(ece.category) ? ece.category : null,
});

/** The Entity Change Event of a PlatformEvent_v1 entry, as the JSON text it was made from (a webhook's body). */
export function entityChangeEventText(stored: string): string {
  const text = storedEventText(stored);
  if (text !== undefined) return text;
  const payload = (JSON.parse(stored) as { payload: { value: string } }).payload;
  return Buffer.from(payload.value, 'latin1').toString('utf8');
}

/**
 * What the log records of one aspect change, in order: its MetadataChangeLog on the versioned or timeseries topic,
 * then the Entity Change Events DataHub's hook derives from it, on PlatformEvent_v1. Each value is stored compact
 * (the change itself, one JSON.stringify); Avro's JSON encoding is made when the entry is read (eventLogValue).
 */
export function changeLogEntries(c: AspectChange): NewLogEntry[] {
  const log: NewLogEntry = {
    topic: changeLogTopic(c.aspect),
    entityType: c.entityType,
    entityUrn: c.urn,
    createdAt: c.at,
    value: `${MCL_PREFIX}${JSON.stringify(c)}}`,
    webhookCategory: null,
  };
  return [log, ...entityChangeEvents(c).map(platformEntry)];
}
