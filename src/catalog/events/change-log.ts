import schemas from './generated/event-schemas.json' with { type: 'json' };
import { WEBHOOK_TOPIC, type AspectChange, type Json, type NewLogEntry, type ServedEvent } from '../../storage/store.ts';
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

/**
 * A change with its values before and after as their JSON text, as the MetadataChangeLog carries them
 * (GenericAspect.value): what is encoded, and what a stored MetadataChangeLog is read back as.
 */
type StoredChange = Omit<AspectChange, 'before' | 'after'> & { readonly before: string | null; readonly after: string | null };

const storedChange = (c: AspectChange): StoredChange => ({
  ...c,
  before: c.before === null ? null : JSON.stringify(c.before),
  after: c.after === null ? null : JSON.stringify(c.after),
});

/** The change with its values, for what is derived from them (Entity Change Events). */
const withValues = (c: StoredChange): AspectChange => ({
  ...c,
  before: c.before === null ? null : (JSON.parse(c.before) as Json),
  after: c.after === null ? null : (JSON.parse(c.after) as Json),
});

/** A GenericAspect: the value as JSON text. */
const generic = (text: string | null) => (text === null ? null : { value: text, contentType: 'application/json' });

/**
 * A MetadataChangeLog's Avro JSON text, from the pegasus shape DataHub publishes. System metadata the schema does not
 * take (stored before a field's type was checked) is left out rather than failing the read that serves it.
 */
function encodeChangeLog(c: StoredChange): string {
  const mcl = {
    entityType: c.entityType,
    entityUrn: c.urn,
    changeType: c.changeType,
    aspectName: c.aspect,
    aspect: generic(c.after),
    systemMetadata: c.systemMetadata,
    previousAspectValue: generic(c.before),
    previousSystemMetadata: c.previousSystemMetadata,
    created: { time: c.at, actor: c.actor },
  };
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
 * What an entry stores, made cheaply at the write (one JSON.stringify, no Avro): `{"mcl":<AspectChange>}` for one
 * aspect change (versioned or a timeseries event's), `{"tsb":<TimeseriesBatch>}` for the timeseries events of one
 * write batch, `{"ece":<event>}` for an Entity Change Event (a task's RUN, an event webhooks deliver, and, before
 * events were derived when read, every event), `{"change":<ChangeRecord>}` for a webhook event carried over from the
 * outbox by the migration; `{"mcls":[<AspectChange>...]}` was a batch's before `tsb`. `{"mcla":<Avro JSON>}`, a
 * versioned change stored as served, is read but no longer written: it made draining the versioned topic a substring
 * (58,000 events/s against 37,000 on SQLite, quiet machine) but cost each versioned write 17% with the log on
 * against 11% (issue 32's budget is 10%), and the drain is over its target either way. What DataHub's events API
 * serves is made from the entry when read (`entryEvents`), the webhook body when delivered (`entityChangeEventText`).
 */
const MCL_AVRO_PREFIX = '{"mcla":';
const TIMESERIES_BATCH_PREFIX = '{"tsb":';
const MCL_PREFIX = '{"mcl":';
const MCLS_PREFIX = '{"mcls":';
const ECE_PREFIX = '{"ece":';
const CHANGE_PREFIX = '{"change":';

/**
 * The timeseries events of one write batch, all written by `actor` at `at`: per event a tuple of its entity type and
 * aspect, urn, value and system metadata, the first and last given by their place in `kinds` and `systemMetadata` (a
 * batch's events share a few of each). The batch's entry is a row the write inserts, so it is kept small and cheap to
 * make: the values are kept as JSON, not as text (a stringify each and the escaping of every quote, at every write,
 * for a topic read far less than it is written).
 */
interface TimeseriesBatch {
  readonly actor: string;
  readonly at: number;
  readonly kinds: ReadonlyArray<readonly [entityType: string, aspect: string]>;
  readonly systemMetadata: ReadonlyArray<Json | null>;
  readonly events: ReadonlyArray<readonly [kind: number, urn: string, value: Json | null, systemMetadata: number]>;
}

/** The place of each distinct value (by `key`) in the list it builds. */
function distinct<T>(key: (value: T) => string): { readonly list: T[]; place(value: T): number } {
  const places = new Map<string, number>();
  const list: T[] = [];
  return {
    list,
    place(value) {
      const k = key(value);
      let n = places.get(k);
      if (n === undefined) {
        n = list.push(value) - 1;
        places.set(k, n);
      }
      return n;
    },
  };
}

/** A MetadataChangeLog as Avro's JSON encoding writes it: the fields the change is read back from. */
interface AvroChangeLog {
  readonly entityType: string;
  readonly entityUrn: { readonly string: string };
  readonly changeType: AspectChange['changeType'];
  readonly aspectName: { readonly string: string };
  readonly aspect: { readonly [GENERIC_ASPECT]: { readonly value: string } } | null;
  readonly previousAspectValue: { readonly [GENERIC_ASPECT]: { readonly value: string } } | null;
  readonly created: { readonly [AUDIT_STAMP]: { readonly time: number; readonly actor: string } };
}
const GENERIC_ASPECT = 'com.linkedin.pegasus2avro.mxe.GenericAspect';
const AUDIT_STAMP = 'com.linkedin.pegasus2avro.common.AuditStamp';

/** Bytes as Avro's JSON writes them (one character per byte) as the text they hold. */
const bytesText = (chars: string): string => (/[\u0080-\uffff]/.test(chars) ? Buffer.from(chars, 'latin1').toString('utf8') : chars);

/**
 * The change a MetadataChangeLog records, for what is derived from it (Entity Change Events): its system metadata is
 * left out, which they do not read.
 */
function fromChangeLog(m: AvroChangeLog): StoredChange {
  const value = (g: AvroChangeLog['aspect']) => (g === null ? null : bytesText(g[GENERIC_ASPECT].value));
  const created = m.created[AUDIT_STAMP];
  return {
    entityType: m.entityType,
    urn: m.entityUrn.string,
    aspect: m.aspectName.string,
    changeType: m.changeType,
    before: value(m.previousAspectValue),
    after: value(m.aspect),
    systemMetadata: null,
    previousSystemMetadata: null,
    actor: created.actor,
    at: created.time,
  };
}

/** The changes a stored change log records, in order; undefined for an entry that is an event. */
function storedChanges(stored: string): StoredChange[] | undefined {
  if (stored.startsWith(MCL_AVRO_PREFIX)) return [fromChangeLog(JSON.parse(stored.slice(MCL_AVRO_PREFIX.length, -1)) as AvroChangeLog)];
  if (stored.startsWith(TIMESERIES_BATCH_PREFIX)) {
    const { actor, at, kinds, systemMetadata, events } = (JSON.parse(stored) as { tsb: TimeseriesBatch }).tsb;
    return events.map(([kind, urn, after, sm]) => ({
      entityType: kinds[kind]![0],
      urn,
      aspect: kinds[kind]![1],
      changeType: 'UPSERT',
      before: null,
      after: after === null ? null : JSON.stringify(after),
      systemMetadata: systemMetadata[sm]!,
      previousSystemMetadata: null,
      actor,
      at,
    }));
  }
  if (stored.startsWith(MCL_PREFIX)) return [storedChange((JSON.parse(stored) as { mcl: AspectChange }).mcl)];
  if (stored.startsWith(MCLS_PREFIX)) return (JSON.parse(stored) as { mcls: AspectChange[] }).mcls.map(storedChange);
  return undefined;
}

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
  if (topic !== 'PlatformEvent_v1' && stored.startsWith(MCL_AVRO_PREFIX)) return [{ ...entry, value: stored.slice(MCL_AVRO_PREFIX.length, -1) }];
  const changes = storedChanges(stored);
  if (changes !== undefined) {
    if (topic === 'PlatformEvent_v1') {
      return changes.flatMap((c) => entityChangeEvents(withValues(c)).map((ece) => platformEvent(JSON.stringify(ece))));
    }
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
 * What the log records of one aspect change: its MetadataChangeLog on the versioned or timeseries topic, compact (the
 * stored forms above). The Entity Change Events
 * DataHub's hook derives from it are derived when PlatformEvent_v1 is read (`entryEvents`), so they cost the write
 * nothing: `derivesEvents` marks the entries of the aspects they come from.
 */
export function changeLogEntries(c: AspectChange): NewLogEntry[] {
  const topic = changeLogTopic(c.aspect);
  return [
    {
      topic,
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
 * The timeseries events of one write batch as one entry (`{"tsb":...}`), served as their MetadataChangeLogs in
 * order; an entry of its first event's entity. A batch's events share its actor and time: should they not, each run
 * of events that does is an entry.
 */
export function timeseriesLogEntries(changes: readonly AspectChange[]): NewLogEntry[] {
  const entries: NewLogEntry[] = [];
  for (let from = 0; from < changes.length;) {
    const first = changes[from]!;
    let to = from + 1;
    while (to < changes.length && changes[to]!.actor === first.actor && changes[to]!.at === first.at) to++;
    const run = changes.slice(from, to);
    const kinds = distinct((k: readonly [string, string]) => `${k[0]}\u0000${k[1]}`);
    const systemMetadata = distinct((sm: Json | null) => JSON.stringify(sm));
    const events = run.map((c): TimeseriesBatch['events'][number] => [
      kinds.place([c.entityType, c.aspect]),
      c.urn,
      c.after,
      systemMetadata.place(c.systemMetadata),
    ]);
    const batch: TimeseriesBatch = { actor: first.actor, at: first.at, kinds: kinds.list, systemMetadata: systemMetadata.list, events };
    entries.push({
      topic: 'MetadataChangeLog_Timeseries_v1',
      entityType: first.entityType,
      entityUrn: first.urn,
      createdAt: first.at,
      value: `${TIMESERIES_BATCH_PREFIX}${JSON.stringify(batch)}}`,
      webhookCategory: null,
      derivesEvents: run.some((c) => derivesEntityChangeEvents(c.entityType, c.aspect)),
    });
    from = to;
  }
  return entries;
}

/** The change's Entity Change Events as entries webhooks deliver (the adapter asks only when a subscription exists). */
export const webhookEntries = (c: AspectChange): NewLogEntry[] => entityChangeEvents(c).map((ece) => platformEntry(ece, WEBHOOK_TOPIC));
