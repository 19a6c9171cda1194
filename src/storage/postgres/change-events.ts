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
  LIST_EVENTS_SQL,
  LIST_SUBSCRIPTIONS_SQL,
  LOG_OFFSET_SINCE_SQL,
  OLDEST_LOG_OFFSET_SQL,
  PRUNE_DELIVERIES_SQL,
  PRUNE_LOG_SQL,
  READ_LOG_SQL,
  toLogEntry,
  type LogRow,
  PRUNE_EVENTS_SQL,
  eventOfAspectChange,
  eventOfTaskState,
  eventParams,
  NEW_EVENT_COLUMNS,
  subscriptionParams,
  toChangeEvent,
  toDelivery,
  toSubscription,
  type ChangeEventRow,
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
  NewChangeEvent,
  NewLogEntry,
  StoredChangeEvent,
  WebhookSubscriptionRecord,
} from '../ports/change-events.ts';
import type { TaskRecord } from '../ports/tasks.ts';
import { named, runNamed } from './named-query.ts';
import { atCommit, inTransaction } from './transaction.ts';
import { EVENT_LOG_CHANNEL, LogSignal } from '../log-signal.ts';

/**
 * A transaction's log entries, given their offsets as its last statement: the one row of event_log_head is locked
 * from there to the commit, so a later transaction's offsets are taken only once this one is visible. Offsets are
 * therefore handed out in commit order, and a rolled-back transaction leaves no gap. The notification reaches every
 * listening process when the transaction commits.
 */
const APPEND_LOG_SQL = `WITH h AS (UPDATE event_log_head SET next = next + $1 RETURNING next - $1 AS first),
  ins AS (INSERT INTO event_log (log_offset, topic, entity_urn, created_at, value)
          SELECT h.first + e.n - 1, e.topic, e.urn, e.at, e.value
            FROM h, unnest($2::text[], $3::text[], $4::bigint[], $5::text[]) WITH ORDINALITY AS e(topic, urn, at, value, n))
  SELECT pg_notify('${EVENT_LOG_CHANNEL}', '')`;

/** How long a long poll sleeps between reads while no listening connection tells it of commits. */
const UNHEARD_POLL_MILLIS = 500;

/** What the log needs of the process's listening connection (auth-listener.ts). */
export interface LogListener {
  /** Starts listening if it is not, and calls `wake` on every notification of EVENT_LOG_CHANNEL and every reconnection. */
  onEventLog(wake: () => void): void;
  /** Whether notifications are being heard now. */
  readonly hearing: boolean;
}

const parse = (v: unknown) => (v === null || v === undefined ? null : (v as Record<string, unknown>));

/** One pending delivery of the event `ev` (a CTE of the new event's row) per subscription whose filters it matches. */
const FAN_OUT = `INSERT INTO webhook_deliveries (subscription_id, event_id, state, attempts, next_attempt_at)
  SELECT s.id, ev.id, 'pending', 0, ev.created_at FROM ev, webhook_subscriptions s
   WHERE (s.categories IS NULL OR strpos(s.categories, ',' || ev.category || ',') > 0)
     AND (s.entity_types IS NULL OR strpos(s.entity_types, ',' || ev.entity_type || ',') > 0)`;
const EVENT_RETURNING = 'RETURNING id, category, entity_type, created_at';

/** The event and its deliveries in one statement. */
const RECORD_SQL = `WITH ev AS (INSERT INTO change_events (${NEW_EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8) ${EVENT_RETURNING})
  ${FAN_OUT}`;

/**
 * Change events and webhook deliveries on PostgreSQL. A claim is one statement: due deliveries are locked with SKIP
 * LOCKED, so processes claiming at once take different ones, and leased until the attempt has had time to end.
 */
export class PostgresChangeEvents implements PortImpl<ChangeEventPort> {
  private readonly signal = new LogSignal();
  private readonly pending = new WeakMap<pg.ClientBase, NewLogEntry[]>();
  private listening = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly rules: ChangeEventRules,
    private readonly listener: LogListener,
  ) {}

  /** Inside the caller's transaction (inTransaction's): an aspect's latest value was created, changed, restored or deleted. */
  async aspectChanged(c: pg.ClientBase, change: AspectChange): Promise<void> {
    const event = eventOfAspectChange(this.rules, change);
    if (event) await this.record(c, event);
    this.log(c, this.rules.changeLog(change));
  }

  /** Keeps the entries for the transaction's end (APPEND_LOG_SQL). */
  private log(c: pg.ClientBase, entries: readonly NewLogEntry[]): void {
    if (entries.length === 0) return;
    const pending = this.pending.get(c);
    if (pending) {
      pending.push(...entries);
      return;
    }
    this.pending.set(c, [...entries]);
    atCommit(c, async (client) => {
      const all = this.pending.get(client) ?? [];
      this.pending.delete(client);
      await client.query(
        named(APPEND_LOG_SQL, [
          all.length,
          all.map((e) => e.topic),
          all.map((e) => e.entityUrn),
          all.map((e) => e.createdAt),
          all.map((e) => e.value),
        ]),
      );
    });
  }

  async readEventLog(topic: string, fromOffset: number, limit: number): Promise<LogEntry[]> {
    return (await runNamed<LogRow>(this.pool, READ_LOG_SQL, { topic, fromOffset, limit })).rows.map(toLogEntry);
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
    return (await runNamed(this.pool, PRUNE_LOG_SQL, { before })).rowCount ?? 0;
  }

  /** Inside the caller's transaction: the task's state was written, and was `previous` before. */
  async taskStateWritten(c: pg.ClientBase, previous: string | undefined, task: TaskRecord): Promise<void> {
    const event = eventOfTaskState(this.rules, previous, task);
    if (event) await this.record(c, event);
  }

  private async record(c: pg.ClientBase, event: NewChangeEvent): Promise<void> {
    const p = eventParams(event);
    await c.query(named(RECORD_SQL, [p.entityType, p.entityUrn, p.category, p.source, p.before, p.after, p.actor, p.createdAt]));
  }

  async listChangeEvents(afterId: number, limit: number): Promise<StoredChangeEvent[]> {
    return (await runNamed<ChangeEventRow>(this.pool, LIST_EVENTS_SQL, { afterId, limit })).rows.map((r) => toChangeEvent(r, parse));
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
         FROM claimed c JOIN change_events e ON e.id = c.event_id JOIN webhook_subscriptions s ON s.id = c.subscription_id
        ORDER BY c.event_id`,
      [now, leaseUntil, limit, claimant],
    );
    return r.rows.map((row) => claimFromRow(row, parse));
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

  async pruneChangeEvents(before: number): Promise<number> {
    return inTransaction(this.pool, async (c) => {
      await runNamed(c, PRUNE_DELIVERIES_SQL, { before });
      return (await runNamed(c, PRUNE_EVENTS_SQL, { before })).rowCount ?? 0;
    });
  }
}
