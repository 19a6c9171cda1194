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
  PRUNE_DELIVERIES_SQL,
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
import type { Json } from '../ports/aspects.ts';
import type {
  AspectEventRule,
  ChangeEventPort,
  ChangeEventRules,
  ClaimedDelivery,
  DeliveryOutcome,
  NewChangeEvent,
  StoredChangeEvent,
  WebhookSubscriptionRecord,
} from '../ports/change-events.ts';
import type { TaskRecord } from '../ports/tasks.ts';
import { named, runNamed } from './named-query.ts';
import { inTransaction } from './transaction.ts';

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
 * put_latest_aspect (migration 15) and, when it created or changed the value, the event its rule makes of the outcome
 * and the event's deliveries: one statement, so one transaction and one round trip, as the function alone is. The
 * event's `before` is the value the function reports it replaced; everything else is the event `aspectEvent` made.
 */
export const PUT_LATEST_WITH_EVENT_SQL = `WITH w AS MATERIALIZED (
    SELECT outcome, previous, previous_version, missing FROM put_latest_aspect($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, $9::text[])),
  ev AS (INSERT INTO change_events (${NEW_EVENT_COLUMNS})
         SELECT $10, $11, $12, $13, w.previous, $14::jsonb, $15, $16 FROM w WHERE w.outcome IN ('created', 'updated') ${EVENT_RETURNING}),
  d AS (${FAN_OUT})
  SELECT outcome, previous, previous_version, missing FROM w`;

/**
 * Change events and webhook deliveries on PostgreSQL. A claim is one statement: due deliveries are locked with SKIP
 * LOCKED, so processes claiming at once take different ones, and leased until the attempt has had time to end.
 */
export class PostgresChangeEvents implements PortImpl<ChangeEventPort> {
  constructor(
    private readonly pool: pg.Pool,
    private readonly rules: ChangeEventRules,
  ) {}

  /** The rule of an aspect whose changes are events, if it has one. */
  ruleFor(aspect: string): AspectEventRule | undefined {
    return this.rules.aspects.get(aspect);
  }

  /** Inside the caller's transaction: an aspect's latest value was created (`before` null) or changed. */
  async aspectChanged(
    c: pg.ClientBase,
    change: { entityType: string; urn: string; aspect: string; before: Json | null; after: Json; actor: string; at: number },
  ): Promise<void> {
    const event = eventOfAspectChange(this.rules, change);
    if (event) await this.record(c, event);
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
