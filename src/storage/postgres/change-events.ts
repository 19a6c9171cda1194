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
  subscriptionParams,
  toChangeEvent,
  toDelivery,
  toSubscription,
  type ChangeEventRow,
  type DeliveryRow,
  type SubscriptionRow,
} from '../change-event-sql.ts';
import type { PortImpl } from '../compose-store.ts';
import type { ChangeEventPort, ClaimedDelivery, DeliveryOutcome, StoredChangeEvent, WebhookSubscriptionRecord } from '../ports/change-events.ts';
import { runNamed } from './named-query.ts';
import { inTransaction } from './transaction.ts';

const parse = (v: unknown) => (v === null || v === undefined ? null : (v as Record<string, unknown>));

/**
 * Change events and webhook deliveries on PostgreSQL. A claim is one statement: due deliveries are locked with SKIP
 * LOCKED, so processes claiming at once take different ones, and leased until the attempt has had time to end.
 */
export class PostgresChangeEvents implements PortImpl<ChangeEventPort> {
  constructor(private readonly pool: pg.Pool) {}

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
