/**
 * The SQL both adapters share for the change log and webhook deliveries (`:name` parameters), and the mapping of
 * their rows. Lists of filter values are stored delimited (`,a,b,`) so the fan-out matches them by substring.
 */
import type { StoredAspect } from './ports/aspects.ts';
import type {
  AspectChange,
  ChangeEventRules,
  ClaimedDelivery,
  LogEntry,
  WebhookDeliveryRecord,
  WebhookDeliveryState,
  WebhookSubscriptionRecord,
  DeliveryOutcome,
} from './ports/change-events.ts';

export interface SubscriptionRow {
  id: string;
  url: string;
  sealed_secret: string;
  categories: string | null;
  entity_types: string | null;
  created_by: string;
  created_at: number;
}

export interface DeliveryRow {
  subscription_id: string;
  event_id: number;
  state: string;
  attempts: number;
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
  entity_urn: string;
  category: string;
}

/** A delivered entry's columns (DeliveredEntry). */
export const ENTRY_COLUMNS = 'e.log_offset, e.entity_type, e.entity_urn, e.webhook_category, e.value';
export const SUBSCRIPTION_COLUMNS = 'id, url, sealed_secret, categories, entity_types, created_by, created_at';

/** A claim's columns: the event's, then the subscription's prefixed `s_`, so one row holds both (claimFromRow). */
export const CLAIM_COLUMNS = `${ENTRY_COLUMNS}, ${SUBSCRIPTION_COLUMNS.split(', ')
  .map((c) => `s.${c} AS s_${c}`)
  .join(', ')}`;

/** Who the log names for a deletion the store is not told the author of (a delete, a rollback's removal). */
export const DELETION_ACTOR = 'urn:li:corpuser:__datahub_system';

/** The change a deleted latest value is: a DELETE with the value and system metadata it had. */
export const deletion = (a: StoredAspect, actor = DELETION_ACTOR, at = Date.now()): AspectChange => ({
  entityType: a.entityType,
  urn: a.urn,
  aspect: a.aspect,
  changeType: 'DELETE',
  before: a.value,
  after: null,
  systemMetadata: null,
  previousSystemMetadata: a.systemMetadata,
  actor,
  at,
});

export interface LogRow {
  log_offset: number | string;
  entity_type: string;
  entity_urn: string;
  created_at: number | string;
  value: string;
  webhook_category: string | null;
}

const LOG_COLUMNS = 'log_offset, entity_type, entity_urn, created_at, value, webhook_category';
export const READ_LOG_SQL = `SELECT ${LOG_COLUMNS} FROM event_log
 WHERE topic = :topic AND log_offset >= :fromOffset ORDER BY log_offset LIMIT :limit`;
/** PlatformEvent_v1's entries: its own, and the change logs it derives Entity Change Events from (index event_log_platform). */
export const READ_PLATFORM_LOG_SQL = `SELECT ${LOG_COLUMNS} FROM event_log
 WHERE (topic = 'PlatformEvent_v1' OR derives_events = 1) AND log_offset >= :fromOffset ORDER BY log_offset LIMIT :limit`;
const readLogSql = (topic: string): string => (topic === 'PlatformEvent_v1' ? READ_PLATFORM_LOG_SQL : READ_LOG_SQL);

/**
 * Up to `limit` events of `topic` from the entry at `fromOffset` (its first `fromIndex` events left out), oldest first,
 * each as the rules serve it; `read` runs READ_LOG_SQL or READ_PLATFORM_LOG_SQL (`:name` parameters) and returns its
 * rows. Entries that derive no event leave a page short of `limit` events: pages are read until it is full or the log
 * ends.
 */
export async function readLogEvents(
  read: (sql: string, params: Record<string, unknown>) => LogRow[] | Promise<LogRow[]>,
  rules: Pick<ChangeEventRules, 'entryEvents'>,
  topic: string,
  fromOffset: number,
  limit: number,
  fromIndex: number,
): Promise<LogEntry[]> {
  const sql = readLogSql(topic);
  const events: LogEntry[] = [];
  for (let from = fromOffset; ;) {
    const rows = await read(sql, topic === 'PlatformEvent_v1' ? { fromOffset: from, limit } : { topic, fromOffset: from, limit });
    for (const r of rows) {
      const offset = Number(r.log_offset);
      const served = rules.entryEvents(r.value, topic, { entityType: r.entity_type, entityUrn: r.entity_urn });
      for (let i = offset === fromOffset ? fromIndex : 0; i < served.length; i++) {
        if (events.length === limit) return events;
        const { entityType, entityUrn, value } = served[i]!;
        events.push({
          offset,
          index: i,
          of: served.length,
          topic,
          entityType,
          entityUrn,
          value,
          createdAt: Number(r.created_at),
          webhookCategory: r.webhook_category,
        });
      }
    }
    if (rows.length < limit || events.length === limit) return events;
    from = Number(rows[rows.length - 1]!.log_offset) + 1;
  }
}

export const OLDEST_LOG_OFFSET_SQL = 'SELECT MIN(log_offset) AS o FROM event_log';
/** In offset order from the oldest end, so the walk stops at the first entry of the window (entries are made in time order, give or take). */
export const LOG_OFFSET_SINCE_SQL = 'SELECT log_offset AS o FROM event_log WHERE created_at >= :time ORDER BY log_offset LIMIT 1';

export const INSERT_SUBSCRIPTION_SQL = `INSERT INTO webhook_subscriptions (${SUBSCRIPTION_COLUMNS})
  VALUES (:id, :url, :sealedSecret, :categories, :entityTypes, :createdBy, :createdAt)`;
export const LIST_SUBSCRIPTIONS_SQL = `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions ORDER BY created_at, id`;
export const DELETE_DELIVERIES_OF_SQL = 'DELETE FROM webhook_deliveries WHERE subscription_id = :id';
export const DELETE_SUBSCRIPTION_SQL = 'DELETE FROM webhook_subscriptions WHERE id = :id';
/** Only the claimant records an outcome: a process whose lease ran out and was overtaken changes nothing. */
export const FINISH_DELIVERY_SQL = `UPDATE webhook_deliveries
   SET state = :state, attempts = attempts + 1, last_status = :status, last_error = :error,
       delivered_at = CASE WHEN :state = 'delivered' THEN CAST(:at AS BIGINT) ELSE NULL END, next_attempt_at = :nextAttemptAt,
       claimed_by = NULL, claimed_until = NULL
 WHERE subscription_id = :subscriptionId AND event_id = :eventId AND claimed_by = :claimant`;
const DELIVERY_FILTER = `(CAST(:subscriptionId AS TEXT) IS NULL OR d.subscription_id = :subscriptionId) AND (CAST(:state AS TEXT) IS NULL OR d.state = :state)`;
export const COUNT_DELIVERIES_SQL = `SELECT COUNT(*) AS n FROM webhook_deliveries d WHERE ${DELIVERY_FILTER}`;
export const LIST_DELIVERIES_SQL = `SELECT d.subscription_id, d.event_id, d.state, d.attempts, d.next_attempt_at, d.last_status, d.last_error,
       d.delivered_at, e.entity_urn, e.webhook_category AS category
  FROM webhook_deliveries d JOIN event_log e ON e.log_offset = d.event_id
 WHERE ${DELIVERY_FILTER}
 ORDER BY d.event_id DESC, d.subscription_id LIMIT :count OFFSET :start`;
/**
 * The first offset kept when pruning entries created before `before`: the first entry at or after it, found by walking
 * the log from its oldest end (entries are made in time order, give or take a transaction's length, so the walk is
 * short and needs no index on time); past the newest entry when every entry is older.
 */
const PRUNE_BOUND = `COALESCE((SELECT log_offset FROM event_log WHERE created_at >= :before ORDER BY log_offset LIMIT 1),
                             (SELECT MAX(log_offset) + 1 FROM event_log))`;
/** The finished deliveries of the entries pruned, then the entries left with no delivery pending. */
export const PRUNE_LOG_DELIVERIES_SQL = `DELETE FROM webhook_deliveries WHERE state <> 'pending' AND event_id < ${PRUNE_BOUND}`;
export const PRUNE_LOG_SQL = `DELETE FROM event_log WHERE log_offset < ${PRUNE_BOUND}
   AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = event_log.log_offset)`;

const delimited = (values: readonly string[] | null): string | null => (values === null ? null : `,${values.join(',')},`);
const undelimited = (text: string | null): string[] | null => (text === null ? null : text.split(',').filter((v) => v !== ''));

export const subscriptionParams = (s: WebhookSubscriptionRecord) => ({
  id: s.id,
  url: s.url,
  sealedSecret: s.sealedSecret,
  categories: delimited(s.categories),
  entityTypes: delimited(s.entityTypes),
  createdBy: s.createdBy,
  createdAt: s.createdAt,
});

export const finishParams = (subscriptionId: string, eventId: number, claimant: string, o: DeliveryOutcome) => ({
  subscriptionId,
  eventId,
  claimant,
  state: o.state,
  status: o.status,
  error: o.error,
  at: o.at,
  nextAttemptAt: o.nextAttemptAt,
});

export const toSubscription = (r: SubscriptionRow): WebhookSubscriptionRecord => ({
  id: r.id,
  url: r.url,
  sealedSecret: r.sealed_secret,
  categories: undelimited(r.categories),
  entityTypes: undelimited(r.entity_types),
  createdBy: r.created_by,
  createdAt: Number(r.created_at),
});

export type ClaimRow = {
  subscription_id: string;
  event_id: number;
  attempts: number;
  log_offset: number | string;
  entity_type: string;
  entity_urn: string;
  webhook_category: string;
  value: string;
} & Record<string, unknown>;

/** One claimed delivery from a row of CLAIM_COLUMNS and its attempts. */
export function claimFromRow(row: ClaimRow): ClaimedDelivery {
  const s = Object.fromEntries(SUBSCRIPTION_COLUMNS.split(', ').map((c) => [c, row[`s_${c}`]])) as unknown as SubscriptionRow;
  const event = {
    id: Number(row.log_offset),
    entityType: row.entity_type,
    entityUrn: row.entity_urn,
    category: row.webhook_category,
    value: row.value,
  };
  return { subscription: toSubscription(s), event, attempts: row.attempts };
}

export const toDelivery = (r: DeliveryRow): WebhookDeliveryRecord => ({
  subscriptionId: r.subscription_id,
  eventId: Number(r.event_id),
  state: r.state as WebhookDeliveryState,
  attempts: r.attempts,
  nextAttemptAt: Number(r.next_attempt_at),
  lastStatus: r.last_status,
  lastError: r.last_error,
  deliveredAt: r.delivered_at === null ? null : Number(r.delivered_at),
  entityUrn: r.entity_urn,
  category: r.category,
});
