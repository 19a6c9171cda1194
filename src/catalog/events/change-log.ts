import schemas from './generated/event-schemas.json' with { type: 'json' };
import type { AspectChange, NewLogEntry } from '../../storage/store.ts';
import { ASPECTS } from '../registry/aspects.ts';
import { entityChangeEvents, type EntityChangeEventV1 } from './entity-changes.ts';
import { EMITTED_CATEGORIES } from './entity-change-event.ts';
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
 * The change log's text. System metadata the schema does not take (stored before a field's type was checked) is left
 * out rather than failing the write that logs it.
 */
function encodeChangeLog(c: AspectChange): string {
  const mcl = metadataChangeLog(c);
  try {
    return JSON.stringify(MCL.encode(mcl));
  } catch {
    return JSON.stringify(MCL.encode({ ...mcl, systemMetadata: null, previousSystemMetadata: null }));
  }
}

/** Which topic DataHub routes an aspect's change log to (EntityServiceImpl: timeseries aspects to their own). */
const changeLogTopic = (aspect: string): Topic =>
  ASPECTS.get(aspect)?.kind === 'timeseries' ? 'MetadataChangeLog_Timeseries_v1' : 'MetadataChangeLog_Versioned_v1';

/**
 * An Entity Change Event's entry on PlatformEvent_v1, as DataHub's EntityChangeEventGeneratorHook.buildPlatformEvent
 * wraps it. Webhooks deliver the entries of the categories they take (EMITTED_CATEGORIES), with the event as body.
 */
export const platformEntry = (ece: EntityChangeEventV1): NewLogEntry => ({
  topic: 'PlatformEvent_v1',
  entityType: ece.entityType,
  entityUrn: ece.entityUrn,
  createdAt: ece.auditStamp.time,
  value: JSON.stringify(
    PLATFORM_EVENT.encode({ header: { timestampMillis: ece.auditStamp.time }, name: 'entityChangeEvent', payload: generic(ece) }),
  ),
  webhookCategory: (EMITTED_CATEGORIES as readonly string[]).includes(ece.category) ? ece.category : null,
});

/** The Entity Change Event of a PlatformEvent_v1 entry, as the JSON text it was made from (a webhook's body). */
export function entityChangeEventText(platformEventValue: string): string {
  const payload = (JSON.parse(platformEventValue) as { payload: { value: string } }).payload;
  return Buffer.from(payload.value, 'latin1').toString('utf8');
}

/**
 * What the log records of one aspect change, in order: its MetadataChangeLog on the versioned or timeseries topic,
 * then the Entity Change Events DataHub's hook derives from it, on PlatformEvent_v1. Each value is the text the
 * events API serves (Avro's JSON encoding of the record), made once here at the write.
 */
export function changeLogEntries(c: AspectChange): NewLogEntry[] {
  const log: NewLogEntry = {
    topic: changeLogTopic(c.aspect),
    entityType: c.entityType,
    entityUrn: c.urn,
    createdAt: c.at,
    value: encodeChangeLog(c),
    webhookCategory: null,
  };
  return [log, ...entityChangeEvents(c).map(platformEntry)];
}
