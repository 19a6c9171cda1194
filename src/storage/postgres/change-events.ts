import type pg from 'pg';
import {
  COUNT_DELIVERIES_SQL,
  DELETE_DELIVERIES_OF_SQL,
  DELETE_SUBSCRIPTION_SQL,
  CLAIM_COLUMNS,
  claimFromRow,
  type ClaimRow,
  FINISH_DELIVERY_SQL,
  finishParams,
  INSERT_SUBSCRIPTION_SQL,
  LIST_DELIVERIES_SQL,
  LIST_SUBSCRIPTIONS_SQL,
  LOG_OFFSET_SINCE_SQL,
  OLDEST_LOG_OFFSET_SQL,
  PRUNE_LOG_DELIVERIES_SQL,
  PRUNE_LOG_SQL,
  readLogEvents,
  type LogRow,
  subscriptionParams,
  toDelivery,
  toSubscription,
  type DeliveryRow,
  type SubscriptionRow,
} from '../change-event-sql.ts';
import type { PortImpl } from '../compose-store.ts';
import type {
  AspectChange,
  ChangeEventPort,
  ChangeEventRules,
  ClaimedDelivery,
  DeliveryOutcome,
  LogEntry,
  NewLogEntry,
  WebhookSubscriptionRecord,
} from '../ports/change-events.ts';
import type { TaskRecord } from '../ports/tasks.ts';
import { runNamed } from './named-query.ts';
import { atCommit, inTransaction, type CommitPart } from './transaction.ts';
import { EVENT_LOG_CHANNEL, LogSignal } from '../log-signal.ts';

/**
 * A transaction's log entries, given their offsets in its last statement (atCommit's): the one row of event_log_head
 * is locked from there to the commit, so a later transaction's offsets are taken only once this one is visible.
 * Offsets are therefore handed out in commit order, and a rolled-back transaction leaves no gap. Each entry webhooks
 * take gets one pending delivery per subscription whose filters it matches. The notification reaches every listening
 * process when the transaction commits.
 */
const appendLog = (name: (local: string) => string, param: (n: number) => string, returning: string) =>
  `${name('h')} AS (UPDATE event_log_head SET next = next + ${param(1)} RETURNING next - ${param(1)} AS first),
  ${name('ins')} AS (INSERT INTO event_log (log_offset, topic, entity_type, entity_urn, created_at, value, webhook_category, derives_events)
          SELECT h.first + e.n - 1, e.topic, e.entity_type, e.urn, e.at, e.value, e.category, e.derives
            FROM ${name('h')} h, unnest(${param(2)}::text[], ${param(3)}::text[], ${param(4)}::text[], ${param(5)}::bigint[],
                                      string_to_array(${param(6)}::text, chr(30)), ${param(7)}::text[], ${param(8)}::smallint[])
                    WITH ORDINALITY AS e(topic, entity_type, urn, at, value, category, derives, n)
          RETURNING ${returning})`;
/**
 * With no entry for webhooks, no fan-out: joining the inserted rows to the subscriptions in every transaction made the
 * log's append cost several times the timeseries write it rode on (bench events, store level).
 */
const APPEND_LOG = (name: (local: string) => string, param: (n: number) => string) => appendLog(name, param, '1');
const APPEND_LOG_FAN_OUT = (name: (local: string) => string, param: (n: number) => string) =>
  `${appendLog(name, param, 'log_offset, entity_type, created_at, webhook_category')},
  ${name('d')} AS (INSERT INTO webhook_deliveries (subscription_id, event_id, state, attempts, next_attempt_at)
        SELECT s.id, ins.log_offset, 'pending', 0, ins.created_at FROM ${name('ins')} ins, webhook_subscriptions s
         WHERE ins.webhook_category IS NOT NULL
           AND (s.categories IS NULL OR strpos(s.categories, ',' || ins.webhook_category || ',') > 0)
           AND (s.entity_types IS NULL OR strpos(s.entity_types, ',' || ins.entity_type || ',') > 0))`;
const NOTIFY = () => `pg_notify('${EVENT_LOG_CHANNEL}', '')`;

/**
 * The entries' values go as one text, joined by a character no JSON text holds raw (JSON escapes every control
 * character): as a text[] parameter, every quote of a value was escaped in JavaScript and the array parsed again by the
 * server, half the append's time for the 40 kB entry of a batch of timeseries events.
 */
const VALUE_SEPARATOR = String.fromCharCode(30);

function joinedValues(entries: readonly NewLogEntry[]): string {
  for (const e of entries) if (e.value.includes(VALUE_SEPARATOR)) throw new Error('a change log value is not compact JSON text');
  return entries.map((e) => e.value).join(VALUE_SEPARATOR);
}

/** How long a long poll sleeps between reads while no listening connection tells it of commits. */
const UNHEARD_POLL_MILLIS = 500;

/** What the log needs of the process's listening connection (auth-listener.ts). */
export interface LogListener {
  /** Starts listening if it is not, and calls `wake` on every notification of EVENT_LOG_CHANNEL and every reconnection. */
  onEventLog(wake: () => void): void;
  /** Whether notifications are being heard now. */
  readonly hearing: boolean;
}

/**
 * The change log and webhook deliveries on PostgreSQL. A claim is one statement: due deliveries are locked with SKIP
 * LOCKED, so processes claiming at once take different ones, and leased until the attempt has had time to end.
 */
export class PostgresChangeEvents implements PortImpl<ChangeEventPort> {
  private readonly signal = new LogSignal();
  private listening = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly rules: ChangeEventRules,
    private readonly listener: LogListener,
  ) {}

  /** Inside the caller's transaction (inTransaction's): an aspect's latest value was created, changed, restored or deleted. */
  aspectChanged(c: pg.ClientBase, change: AspectChange): void {
    this.log(c, this.rules.changeLog(change), [change]);
  }

  /** Inside the caller's transaction: a write batch wrote these timeseries events (one entry for them all). */
  timeseriesWritten(c: pg.ClientBase, changes: readonly AspectChange[]): void {
    this.log(c, this.rules.timeseriesLog(changes), changes);
  }

  /** Inside the caller's transaction: the task's state was written, and was `previous` before. */
  taskStateWritten(c: pg.ClientBase, previous: string | undefined, task: TaskRecord): void {
    if (previous === 'running' && task.state !== 'running') this.log(c, this.rules.taskEnded(task));
  }

  /** Keeps the entries, and the changes they log, for the transaction's end (APPEND_LOG). */
  private log(c: pg.ClientBase, entries: readonly NewLogEntry[], changes: readonly AspectChange[] = []): void {
    if (entries.length > 0) atCommit(c, this, [{ entries, changes }], (client, all) => this.append(client, all));
  }

  /**
   * The transaction's entries, and, when a webhook subscription exists, the Entity Change Events of its changes as
   * entries webhooks deliver (made only then: PlatformEvent_v1 derives them from the change logs when read).
   */
  private async append(
    client: pg.ClientBase,
    logged: ReadonlyArray<{ entries: readonly NewLogEntry[]; changes: readonly AspectChange[] }>,
  ): Promise<CommitPart[]> {
    const all = logged.flatMap((l) => l.entries);
    const deriving = logged.filter((l) => l.entries.some((e) => e.derivesEvents));
    if (deriving.length > 0 && (await client.query('SELECT 1 FROM webhook_subscriptions LIMIT 1')).rowCount) {
      for (const l of deriving) for (const change of l.changes) all.push(...this.rules.webhookEvents(change));
    }
    return [
      {
        with: all.some((e) => e.webhookCategory !== null) ? APPEND_LOG_FAN_OUT : APPEND_LOG,
        select: NOTIFY,
        values: [
          all.length,
          all.map((e) => e.topic),
          all.map((e) => e.entityType),
          all.map((e) => e.entityUrn),
          all.map((e) => e.createdAt),
          joinedValues(all),
          all.map((e) => e.webhookCategory),
          all.map((e) => (e.derivesEvents ? 1 : 0)),
        ],
      },
    ];
  }

  readEventLog(topic: string, fromOffset: number, limit: number, fromIndex = 0): Promise<LogEntry[]> {
    const read = async (sql: string, params: Record<string, unknown>) => (await runNamed<LogRow>(this.pool, sql, params)).rows;
    return readLogEvents(read, this.rules, topic, fromOffset, limit, fromIndex);
  }

  async eventLogBounds(): Promise<{ oldest: number | null; next: number }> {
    const r = await this.pool.query<{ oldest: number | null; next: number }>(
      `SELECT (${OLDEST_LOG_OFFSET_SQL}) AS oldest, (SELECT next FROM event_log_head) AS next`,
    );
    return { oldest: r.rows[0]!.oldest === null ? null : Number(r.rows[0]!.oldest), next: Number(r.rows[0]!.next) };
  }

  async eventLogOffsetSince(time: number): Promise<number | null> {
    const row = (await runNamed<{ o: number }>(this.pool, LOG_OFFSET_SINCE_SQL, { time })).rows[0];
    return row ? Number(row.o) : null;
  }

  eventLogGeneration(): number {
    if (!this.listening) {
      this.listening = true;
      this.listener.onEventLog(() => this.signal.wake());
    }
    return this.signal.current();
  }

  waitForEventLog(since: number, timeoutMs: number): Promise<number> {
    // Unheard commits would go unnoticed: read again every so often until the listener is back.
    return this.signal.wait(since, this.listener.hearing ? timeoutMs : Math.min(timeoutMs, UNHEARD_POLL_MILLIS));
  }

  async pruneEventLog(before: number): Promise<number> {
    return inTransaction(this.pool, async (c) => {
      await runNamed(c, PRUNE_LOG_DELIVERIES_SQL, { before });
      return (await runNamed(c, PRUNE_LOG_SQL, { before })).rowCount ?? 0;
    });
  }

  async createWebhookSubscription(subscription: WebhookSubscriptionRecord): Promise<void> {
    await runNamed(this.pool, INSERT_SUBSCRIPTION_SQL, subscriptionParams(subscription));
  }

  async listWebhookSubscriptions(): Promise<WebhookSubscriptionRecord[]> {
    return (await runNamed<SubscriptionRow>(this.pool, LIST_SUBSCRIPTIONS_SQL)).rows.map(toSubscription);
  }

  async deleteWebhookSubscription(id: string): Promise<boolean> {
    return inTransaction(this.pool, async (c) => {
      await runNamed(c, DELETE_DELIVERIES_OF_SQL, { id });
      return ((await runNamed(c, DELETE_SUBSCRIPTION_SQL, { id })).rowCount ?? 0) > 0;
    });
  }

  async claimWebhookDeliveries(claimant: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedDelivery[]> {
    const r = await this.pool.query<ClaimRow>(
      `WITH due AS (
         SELECT subscription_id, event_id FROM webhook_deliveries
          WHERE state = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
          ORDER BY next_attempt_at, event_id LIMIT $3 FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE webhook_deliveries d SET claimed_by = $4, claimed_until = $2
           FROM due WHERE d.subscription_id = due.subscription_id AND d.event_id = due.event_id
         RETURNING d.subscription_id, d.event_id, d.attempts)
       SELECT c.subscription_id, c.event_id, c.attempts, ${CLAIM_COLUMNS}
         FROM claimed c JOIN event_log e ON e.log_offset = c.event_id JOIN webhook_subscriptions s ON s.id = c.subscription_id
        ORDER BY c.event_id`,
      [now, leaseUntil, limit, claimant],
    );
    return r.rows.map(claimFromRow);
  }

  async finishWebhookDelivery(subscriptionId: string, eventId: number, claimant: string, outcome: DeliveryOutcome): Promise<boolean> {
    return ((await runNamed(this.pool, FINISH_DELIVERY_SQL, finishParams(subscriptionId, eventId, claimant, outcome))).rowCount ?? 0) > 0;
  }

  async listWebhookDeliveries(filter: { subscriptionId?: string; state?: string; start: number; count: number }) {
    const params = { subscriptionId: filter.subscriptionId ?? null, state: filter.state ?? null };
    const total = Number((await runNamed<{ n: number }>(this.pool, COUNT_DELIVERIES_SQL, params)).rows[0]!.n);
    const rows = (await runNamed<DeliveryRow>(this.pool, LIST_DELIVERIES_SQL, { ...params, start: filter.start, count: filter.count })).rows;
    return { total, deliveries: rows.map(toDelivery) };
  }
}
