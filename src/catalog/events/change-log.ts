import schemas from './generated/event-schemas.json' with { type: 'json' };
import { WEBHOOK_TOPIC, type AspectChange, type NewLogEntry, type ServedEvent } from '../../storage/store.ts';
import { ASPECTS } from '../registry/aspects.ts';
import { derivesEntityChangeEvents, EMITTED_CATEGORIES, entityChangeEvents, type EntityChangeEventV1 } from './entity-changes.ts';
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
 * change log, `{"ece":<event>}` for an Entity Change Event (a task's RUN, an event webhooks deliver, and, before
 * events were derived when read, every event), `{"change":<ChangeRecord>}` for a webhook event carried over from the
 * outbox by the migration. What DataHub's events API serves is made from it when read (`entryEvents`), the webhook
 * body when delivered (`entityChangeEventText`).
 */
const MCL_PREFIX = '{"mcl":';
const MCLS_PREFIX = '{"mcls":';
const ECE_PREFIX = '{"ece":';
const CHANGE_PREFIX = '{"change":';

/** The Entity Change Event of a stored entry as its JSON text, or undefined for a change log. */
function storedEventText(stored: string): string | undefined {
  if (stored.startsWith(ECE_PREFIX)) return stored.slice(ECE_PREFIX.length, -1);
  if (stored.startsWith(CHANGE_PREFIX)) return JSON.stringify(toEntityChangeEvent((JSON.parse(stored) as { change: ChangeRecord }).change));
  return undefined;
}

/** An Entity Change Event as PlatformEvent_v1 serves it, from its JSON text. */
function platformEvent(text: string): ServedEvent {
  const ece = JSON.parse(text) as EntityChangeEventV1;
  return { entityType: ece.entityType, entityUrn: ece.entityUrn, value: encodePlatformEvent(ece.auditStamp.time, text) };
}

/**
 * What a stored entry is served as on `topic`: a change log is its MetadataChangeLog on its own topic, and on
 * PlatformEvent_v1 the Entity Change Events DataHub's hook derives from it (EntityChangeEventGeneratorHook), made
 * now from the change it stored; an event is itself (a value stored as served, by an earlier form of the log, as is).
 */
export function entryEvents(stored: string, topic: string, entry: Omit<ServedEvent, 'value'>): ServedEvent[] {
  const changes = stored.startsWith(MCL_PREFIX)
    ? [(JSON.parse(stored) as { mcl: AspectChange }).mcl]
    : stored.startsWith(MCLS_PREFIX)
      ? (JSON.parse(stored) as { mcls: AspectChange[] }).mcls
      : undefined;
  if (changes !== undefined) {
    if (topic === 'PlatformEvent_v1') return changes.flatMap((c) => entityChangeEvents(c).map((ece) => platformEvent(JSON.stringify(ece))));
    return changes.map((c) => ({ entityType: c.entityType, entityUrn: c.urn, value: encodeChangeLog(c) }));
  }
  const text = storedEventText(stored);
  return [text === undefined ? { ...entry, value: stored } : platformEvent(text)];
}

/** Which topic DataHub routes an aspect's change log to (EntityServiceImpl: timeseries aspects to their own). */
const changeLogTopic = (aspect: string): Topic =>
  ASPECTS.get(aspect)?.kind === 'timeseries' ? 'MetadataChangeLog_Timeseries_v1' : 'MetadataChangeLog_Versioned_v1';

/**
 * An Entity Change Event's entry: on PlatformEvent_v1 (a task's RUN), or on WEBHOOK_TOPIC for webhooks to deliver.
 * Webhooks deliver the entries of the categories they take (EMITTED_CATEGORIES), with the event as body.
 */
export const platformEntry = (ece: EntityChangeEventV1, topic: string = 'PlatformEvent_v1'): NewLogEntry => ({
  topic,
  entityType: ece.entityType,
  entityUrn: ece.entityUrn,
  createdAt: ece.auditStamp.time,
  value: `${ECE_PREFIX}${JSON.stringify(ece)}}`,
  webhookCategory: EMITTED_CATEGORIES.includes(ece.category) ? ece.category : null,
  derivesEvents: false,
});

/** The Entity Change Event of a PlatformEvent_v1 entry, as the JSON text it was made from (a webhook's body). */
export function entityChangeEventText(stored: string): string {
  const text = storedEventText(stored);
  if (text !== undefined) return text;
  const payload = (JSON.parse(stored) as { payload: { value: string } }).payload;
  return Buffer.from(payload.value, 'latin1').toString('utf8');
}

/**
 * What the log records of one aspect change: its MetadataChangeLog on the versioned or timeseries topic, stored
 * compact (the change itself, one JSON.stringify). The Entity Change Events DataHub's hook derives from it are derived
 * when PlatformEvent_v1 is read (`entryEvents`), so they cost the write nothing: `derivesEvents` marks the entries of
 * the aspects they come from.
 */
export function changeLogEntries(c: AspectChange): NewLogEntry[] {
  return [
    {
      topic: changeLogTopic(c.aspect),
      entityType: c.entityType,
      entityUrn: c.urn,
      createdAt: c.at,
      value: `${MCL_PREFIX}${JSON.stringify(c)}}`,
      webhookCategory: null,
      derivesEvents: derivesEntityChangeEvents(c.entityType, c.aspect),
    },
  ];
}

/**
 * The timeseries events of one write batch as one entry (`{"mcls":[...]}`), served as their MetadataChangeLogs in
 * order; an entry of its first event's entity.
 */
export function timeseriesLogEntries(changes: readonly AspectChange[]): NewLogEntry[] {
  const [first] = changes;
  if (first === undefined) return [];
  return [
    {
      topic: 'MetadataChangeLog_Timeseries_v1',
      entityType: first.entityType,
      entityUrn: first.urn,
      createdAt: first.at,
      value: `${MCLS_PREFIX}${JSON.stringify(changes)}}`,
      webhookCategory: null,
      derivesEvents: changes.some((c) => derivesEntityChangeEvents(c.entityType, c.aspect)),
    },
  ];
}

/** The change's Entity Change Events as entries webhooks deliver (the adapter asks only when a subscription exists). */
export const webhookEntries = (c: AspectChange): NewLogEntry[] => entityChangeEvents(c).map((ece) => platformEntry(ece, WEBHOOK_TOPIC));
