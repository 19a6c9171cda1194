import type Database from 'better-sqlite3';
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
import { LogSignal } from '../log-signal.ts';
import { bySqliteNames } from './statements.ts';

/** The change log and webhook deliveries on SQLite: one writer, so a claim is one short write transaction. */
export class SqliteChangeEvents implements PortImpl<ChangeEventPort> {
  private readonly claimTx: Database.Transaction<(claimant: string, now: number, leaseUntil: number, limit: number) => ClaimedDelivery[]>;
  private readonly deleteTx: Database.Transaction<(id: string) => boolean>;
  private readonly pruneTx: Database.Transaction<(before: number) => number>;
  private readonly signal = new LogSignal();
  private wakeQueued = false;

  constructor(
    db: Database.Database,
    private readonly sql: (text: string) => Database.Statement,
    private readonly rules: ChangeEventRules,
  ) {
    this.claimTx = db.transaction((claimant, now, leaseUntil, limit) => this.claim(claimant, now, leaseUntil, limit));
    this.deleteTx = db.transaction((id) => {
      this.named(DELETE_DELIVERIES_OF_SQL).run({ id });
      return this.named(DELETE_SUBSCRIPTION_SQL).run({ id }).changes > 0;
    });
    this.pruneTx = db.transaction((before) => {
      this.named(PRUNE_LOG_DELIVERIES_SQL).run({ before });
      return this.named(PRUNE_LOG_SQL).run({ before }).changes;
    });
  }

  private named(text: string): Database.Statement {
    return this.sql(bySqliteNames(text));
  }

  /**
   * Inside the caller's write transaction: an aspect's latest value was created, changed, restored or deleted. Its
   * Entity Change Events are made now only for webhooks, and only when a subscription exists to take them.
   */
  aspectChanged(change: AspectChange): void {
    const entries = this.rules.changeLog(change);
    this.log(entries);
    if (entries.some((e) => e.derivesEvents) && this.sql('SELECT 1 FROM webhook_subscriptions LIMIT 1').get() !== undefined) {
      this.log(this.rules.webhookEvents(change));
    }
  }

  /** Inside the caller's write transaction: a write batch wrote these timeseries events (one entry for them all). */
  timeseriesWritten(changes: readonly AspectChange[]): void {
    this.log(this.rules.timeseriesLog(changes));
  }

  /**
   * The entries, inside the caller's write transaction. SQLite has one writer, so AUTOINCREMENT hands out offsets in
   * commit order; the wake is sent once the synchronous transaction has ended (a rolled-back one wakes polls that then
   * find nothing, which is harmless).
   */
  private log(entries: readonly NewLogEntry[]): void {
    if (entries.length === 0) return;
    const insert = this.sql(
      'INSERT INTO event_log (topic, entity_type, entity_urn, created_at, value, webhook_category, derives_events) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (const e of entries) {
      const { lastInsertRowid } = insert.run(e.topic, e.entityType, e.entityUrn, e.createdAt, e.value, e.webhookCategory, e.derivesEvents ? 1 : 0);
      if (e.webhookCategory !== null) this.fanOut(Number(lastInsertRowid), e);
    }
    if (!this.wakeQueued) {
      this.wakeQueued = true;
      setImmediate(() => {
        this.wakeQueued = false;
        this.signal.wake();
      });
    }
  }

  readEventLog(topic: string, fromOffset: number, limit: number, fromIndex = 0): Promise<LogEntry[]> {
    return readLogEvents((sql, params) => this.named(sql).all(params) as LogRow[], this.rules, topic, fromOffset, limit, fromIndex);
  }

  eventLogBounds(): { oldest: number | null; next: number } {
    const oldest = (this.sql(OLDEST_LOG_OFFSET_SQL).get() as { o: number | null }).o;
    const seq = this.sql("SELECT seq FROM sqlite_sequence WHERE name = 'event_log'").get() as { seq: number } | undefined;
    return { oldest, next: (seq?.seq ?? 0) + 1 };
  }

  eventLogOffsetSince(time: number): number | null {
    return (this.named(LOG_OFFSET_SINCE_SQL).get({ time }) as { o: number } | undefined)?.o ?? null;
  }

  eventLogGeneration(): number {
    return this.signal.current();
  }

  waitForEventLog(since: number, timeoutMs: number): Promise<number> {
    return this.signal.wait(since, timeoutMs);
  }

  pruneEventLog(before: number): number {
    return this.pruneTx.immediate(before);
  }

  /** Inside the caller's write transaction: the task's state was written, and was `previous` before. */
  taskStateWritten(previous: string | undefined, task: TaskRecord): void {
    if (previous === 'running' && task.state !== 'running') this.log(this.rules.taskEnded(task));
  }

  /** One pending delivery of the entry per subscription whose filters it matches. */
  private fanOut(offset: number, e: NewLogEntry): void {
    this.sql(
      `INSERT INTO webhook_deliveries (subscription_id, event_id, state, attempts, next_attempt_at)
       SELECT s.id, @offset, 'pending', 0, @createdAt FROM webhook_subscriptions s
        WHERE (s.categories IS NULL OR instr(s.categories, ',' || @category || ',') > 0)
          AND (s.entity_types IS NULL OR instr(s.entity_types, ',' || @entityType || ',') > 0)`,
    ).run({ offset, createdAt: e.createdAt, category: e.webhookCategory, entityType: e.entityType });
  }

  createWebhookSubscription(subscription: WebhookSubscriptionRecord): void {
    this.named(INSERT_SUBSCRIPTION_SQL).run(subscriptionParams(subscription));
  }

  listWebhookSubscriptions(): WebhookSubscriptionRecord[] {
    return (this.named(LIST_SUBSCRIPTIONS_SQL).all() as SubscriptionRow[]).map(toSubscription);
  }

  deleteWebhookSubscription(id: string): boolean {
    return this.deleteTx.immediate(id);
  }

  claimWebhookDeliveries(claimant: string, now: number, leaseUntil: number, limit: number): ClaimedDelivery[] {
    return this.claimTx.immediate(claimant, now, leaseUntil, limit);
  }

  private claim(claimant: string, now: number, leaseUntil: number, limit: number): ClaimedDelivery[] {
    const due = this.sql(
      `SELECT d.subscription_id, d.event_id, d.attempts, ${CLAIM_COLUMNS}
         FROM webhook_deliveries d
         JOIN event_log e ON e.log_offset = d.event_id
         JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until <= ?)
        ORDER BY d.next_attempt_at, d.event_id LIMIT ?`,
    ).all(now, now, limit) as ClaimRow[];
    const mark = this.sql('UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ? WHERE subscription_id = ? AND event_id = ?');
    for (const r of due) mark.run(claimant, leaseUntil, r.subscription_id, r.event_id);
    return due.map(claimFromRow);
  }

  finishWebhookDelivery(subscriptionId: string, eventId: number, claimant: string, outcome: DeliveryOutcome): boolean {
    return this.named(FINISH_DELIVERY_SQL).run(finishParams(subscriptionId, eventId, claimant, outcome)).changes > 0;
  }

  listWebhookDeliveries(filter: { subscriptionId?: string; state?: string; start: number; count: number }) {
    const params = { subscriptionId: filter.subscriptionId ?? null, state: filter.state ?? null };
    const total = (this.named(COUNT_DELIVERIES_SQL).get(params) as { n: number }).n;
    const rows = this.named(LIST_DELIVERIES_SQL).all({ ...params, start: filter.start, count: filter.count }) as DeliveryRow[];
    return { total, deliveries: rows.map(toDelivery) };
  }
}
