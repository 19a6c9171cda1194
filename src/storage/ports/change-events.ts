import type { Json } from './aspects.ts';
import type { TaskRecord } from './tasks.ts';

/**
 * The change log and its webhook deliveries. The adapter appends entries from a write's outcome, inside the write's
 * transaction, as the rules it was opened with say (`ChangeEventRules`, the catalog's catalog/events/change-event-rules.ts):
 * every aspect change, and every end of a truncation or retention task. Each new entry webhooks take (its
 * `webhookCategory`) is fanned out, in the same transaction, to the subscriptions whose filters it matches: one pending
 * delivery per subscription. Deliveries are claimed with a lease, so with several processes each is attempted by one
 * at a time, and finished by the claimant only.
 */

/**
 * Which changes become entries, given to the adapter when it opens (as the indexer is). The adapter applies them to
 * the outcomes of its writes in the write's transaction, on every path that changes an aspect's latest value (a batch,
 * a rollback, a delete) or ends a task.
 */
export interface ChangeEventRules {
  /**
   * What the change log records of an aspect change: its MetadataChangeLog, marked `derivesEvents` when the aspect is
   * one DataHub derives Entity Change Events from. Those events are not stored: they are derived from the entry when
   * PlatformEvent_v1 is read (`entryEvents`), so a schema of 50 fields is one entry, not 51.
   */
  changeLog(change: AspectChange): NewLogEntry[];
  /**
   * What the change log records of the timeseries events one write batch writes: one entry served as their
   * MetadataChangeLogs, in order (a row per event would cost a row insert as dear as the event's own).
   */
  timeseriesLog(changes: readonly AspectChange[]): NewLogEntry[];
  /**
   * The Entity Change Events of a change as entries webhooks deliver (topic WEBHOOK_TOPIC, never served by the events
   * API): the adapter asks for them only when a webhook subscription exists, and fans each out to the subscriptions
   * whose filters it matches.
   */
  webhookEvents(change: AspectChange): NewLogEntry[];
  /** The entries of a task that left `running`: its RUN event, if its kind has one. */
  taskEnded(task: TaskRecord): NewLogEntry[];
  /**
   * What a stored entry is served as on `topic`, in order (Avro's JSON encoding of each record, made from the compact
   * text the write stored): its MetadataChangeLog on its own topic; on PlatformEvent_v1, its event, or the Entity
   * Change Events derived from its change (none, one or many). `entry` is the entity the entry was stored under.
   */
  entryEvents(stored: string, topic: string, entry: Omit<ServedEvent, 'value'>): ServedEvent[];
}

/** One event as the events API serves it: the entity it is about and its value. */
export interface ServedEvent {
  readonly entityType: string;
  readonly entityUrn: string;
  readonly value: string;
}

/** Where the entries webhooks deliver are kept: a topic of the log the events API does not serve. */
export const WEBHOOK_TOPIC = 'AlmanacWebhookEvent';

export interface WebhookSubscriptionRecord {
  readonly id: string;
  readonly url: string;
  /** The signing secret, sealed (tasks/webhooks/webhook-secrets.ts): never stored or returned in the clear. */
  readonly sealedSecret: string;
  /** Only events of these categories; null for all. */
  readonly categories: readonly string[] | null;
  /** Only events on these entity types; null for all. */
  readonly entityTypes: readonly string[] | null;
  readonly createdBy: string;
  readonly createdAt: number;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveryRecord {
  readonly subscriptionId: string;
  readonly eventId: number;
  readonly state: WebhookDeliveryState;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: number | null;
  readonly entityUrn: string;
  readonly category: string;
}

/** A delivery claimed for one attempt, with what the attempt needs. */
/** The log entry a delivery sends: its offset, and its PlatformEvent_v1 value (the body is the event inside). */
export interface DeliveredEntry {
  readonly id: number;
  readonly entityType: string;
  readonly entityUrn: string;
  readonly category: string;
  readonly value: string;
}

export interface ClaimedDelivery {
  readonly subscription: WebhookSubscriptionRecord;
  readonly event: DeliveredEntry;
  /** Attempts made before this one. */
  readonly attempts: number;
}

/** How an attempt ended: delivered, retried at `nextAttemptAt`, or failed for good. */
export interface DeliveryOutcome {
  readonly state: WebhookDeliveryState;
  readonly status: number | null;
  readonly error: string | null;
  readonly at: number;
  readonly nextAttemptAt: number;
}

/** What ChangeEventPort only reads: a composition root may answer these from another handle (a read replica). */
export interface ChangeEventReads {
  listWebhookSubscriptions(): Promise<WebhookSubscriptionRecord[]>;
  /**
   * Up to `limit` events of one topic from `fromOffset` on (skipping the first `fromIndex` events of the entry at
   * `fromOffset`), oldest first, each value as DataHub's events API serves it.
   */
  readEventLog(topic: string, fromOffset: number, limit: number, fromIndex?: number): Promise<LogEntry[]>;
  /** The oldest kept offset (null when the log is empty) and the offset the next entry will have at the least. */
  eventLogBounds(): Promise<{ readonly oldest: number | null; readonly next: number }>;
  /** The first offset of an entry created at or after `time`, if there is one. */
  eventLogOffsetSince(time: number): Promise<number | null>;
  /** This process's count of wakes of the log (storage/log-signal.ts): taken before a read that may wait after it. */
  eventLogGeneration(): Promise<number>;
  /**
   * Resolves once an entry may have been committed (in any process) since the generation was `since`, or after
   * `timeoutMs`: a long poll waits on this instead of reading again and again.
   */
  waitForEventLog(since: number, timeoutMs: number): Promise<number>;
  /** The delivery log, newest event first. */
  listWebhookDeliveries(filter: {
    readonly subscriptionId?: string;
    readonly state?: WebhookDeliveryState;
    readonly start: number;
    readonly count: number;
  }): Promise<{ readonly total: number; readonly deliveries: WebhookDeliveryRecord[] }>;
}

/** What ChangeEventPort changes: always the primary database. */
export interface ChangeEventWrites {
  createWebhookSubscription(subscription: WebhookSubscriptionRecord): Promise<void>;
  /** Deletes the subscription and its deliveries; false when there was none. */
  deleteWebhookSubscription(id: string): Promise<boolean>;
  /**
   * Claims up to `limit` pending deliveries due at `now` whose lease (if any) has run out, for `claimant` until
   * `leaseUntil`; a delivery claimed by one process is not claimed by another before then.
   */
  claimWebhookDeliveries(claimant: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt's outcome, if the delivery is still claimed by `claimant`; false otherwise. */
  finishWebhookDelivery(subscriptionId: string, eventId: number, claimant: string, outcome: DeliveryOutcome): Promise<boolean>;
  /**
   * Deletes log entries created before `before` and their finished deliveries; an entry with a delivery still pending
   * stays until it is done. Returns how many entries.
   */
  pruneEventLog(before: number): Promise<number>;
}

export interface ChangeEventPort extends ChangeEventReads, ChangeEventWrites {}

/**
 * One aspect change as the log records it: a latest value created, replaced or restored (UPSERT), a timeseries event
 * written (UPSERT, no value before), or a latest value deleted (DELETE, no value after).
 */
export interface AspectChange {
  readonly entityType: string;
  readonly urn: string;
  readonly aspect: string;
  readonly changeType: 'UPSERT' | 'DELETE';
  readonly before: Json | null;
  readonly after: Json | null;
  readonly systemMetadata: Json | null;
  readonly previousSystemMetadata: Json | null;
  readonly actor: string;
  readonly at: number;
}

/** An entry of the change log as a write makes it: the store gives it its offset. */
export interface NewLogEntry {
  /** DataHub's topic name (MetadataChangeLog_Versioned_v1, MetadataChangeLog_Timeseries_v1, PlatformEvent_v1). */
  readonly topic: string;
  readonly entityType: string;
  readonly entityUrn: string;
  readonly createdAt: number;
  /** The record in the compact form the write stores (ChangeEventRules.entryEvents makes what is served of it). */
  readonly value: string;
  /** The category webhook subscriptions filter this entry by, when webhooks deliver it; null when they do not. */
  readonly webhookCategory: string | null;
  /** A change log whose Entity Change Events PlatformEvent_v1 serves, derived from it when read. */
  readonly derivesEvents: boolean;
}

/**
 * An event as read: the offset of the entry it is (or is derived from), and its place among that entry's events.
 * Offsets grow in commit order and are never reused, with no gap a committed entry could fill later.
 */
export interface LogEntry extends ServedEvent {
  readonly offset: number;
  readonly index: number;
  /** How many events the entry at `offset` is served as on this topic. */
  readonly of: number;
  readonly topic: string;
  readonly createdAt: number;
  readonly webhookCategory: string | null;
}
