// The change log's migration (SQLite 20, PostgreSQL 21) carries webhook deliveries pending at the upgrade over to the
// log: each one's event becomes a log entry, the delivery names its offset, and the deliverer sends the same body the
// outbox would have. Finished deliveries go with the outbox.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { entityChangeEventText } from '../../src/catalog/events/change-log.ts';
import { toEntityChangeEvent, type ChangeRecord } from '../../src/catalog/events/entity-change-event.ts';
import { openStore } from '../../src/storage/open-store.ts';
import type { Store } from '../../src/storage/store.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { writeOldDatabase } from '../support/old-database.ts';

const MIGRATION = { sqlite: 20, postgres: 21 } as const;
const urn = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.carried.${n},PROD)`;
const deprecation = (n: number, before: Record<string, unknown> | null): ChangeRecord => ({
  entityType: 'dataset',
  entityUrn: urn(n),
  category: 'DEPRECATION',
  source: 'deprecation',
  before,
  after: { deprecated: true, note: `note ${n} é`, decommissionTime: 1_700_000_000_000 + n, actor: 'urn:li:corpuser:x' },
  actor: 'urn:li:corpuser:old',
  createdAt: 1_600_000_000_000 + n,
});
/** Outbox rows 1..4; deliveries: s1 of 1 (delivered), 2 and 4 (pending); s2 of 3 (failed) and 4 (pending). */
const EVENTS = [deprecation(1, null), deprecation(2, { deprecated: false }), deprecation(3, null), deprecation(4, { deprecated: true, note: 'was' })];
const DELIVERIES: Array<[string, number, string]> = [
  ['s1', 1, 'delivered'],
  ['s1', 2, 'pending'],
  ['s2', 3, 'failed'],
  ['s1', 4, 'pending'],
  ['s2', 4, 'pending'],
];
const SUBSCRIPTIONS = ['s1', 's2'];

for (const backend of await backends()) {
  describe(`the change log's migration: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let store: Store;
    before(async () => {
      db = await backend.create();
      const row = (e: ChangeRecord) => [
        e.entityType,
        e.entityUrn,
        e.category,
        e.source,
        e.before === null ? null : JSON.stringify(e.before),
        JSON.stringify(e.after),
        e.actor,
        e.createdAt,
      ];
      await writeOldDatabase(db, MIGRATION[backend.name], {
        sqlite: (conn) => {
          for (const id of SUBSCRIPTIONS)
            conn
              .prepare('INSERT INTO webhook_subscriptions VALUES (?, ?, ?, NULL, NULL, ?, 0)')
              .run(id, 'https://example.com/hook', 'sealed', 'urn:li:corpuser:admin');
          for (const e of EVENTS)
            conn
              .prepare(
                'INSERT INTO change_events (entity_type, entity_urn, category, source, before_value, after_value, actor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
              )
              .run(...row(e));
          for (const [s, id, state] of DELIVERIES)
            conn
              .prepare('INSERT INTO webhook_deliveries (subscription_id, event_id, state, attempts, next_attempt_at) VALUES (?, ?, ?, 0, 0)')
              .run(s, id, state);
        },
        postgres: async (client) => {
          for (const id of SUBSCRIPTIONS)
            await client.query('INSERT INTO webhook_subscriptions VALUES ($1, $2, $3, NULL, NULL, $4, 0)', [
              id,
              'https://example.com/hook',
              'sealed',
              'urn:li:corpuser:admin',
            ]);
          for (const e of EVENTS)
            await client.query(
              'INSERT INTO change_events (entity_type, entity_urn, category, source, before_value, after_value, actor, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
              row(e),
            );
          for (const [s, id, state] of DELIVERIES)
            await client.query(
              'INSERT INTO webhook_deliveries (subscription_id, event_id, state, attempts, next_attempt_at) VALUES ($1, $2, $3, 0, 0)',
              [s, id, state],
            );
        },
      });
      store = await openStore(db.config);
    });
    after(async () => {
      await store?.database.close();
      await db?.drop();
    });

    it('carries each pending delivery over with its event as a log entry, sending the body the outbox would have', async () => {
      const claimed = await store.changeEvents.claimWebhookDeliveries('test', Date.now(), Date.now() + 60_000, 100);
      const sent = claimed.map((c) => [c.subscription.id, c.event.id, entityChangeEventText(c.event.value)]).sort();
      // Events 2 and 4 had pending deliveries: offsets 1 and 2, in their order.
      assert.deepEqual(sent, [
        ['s1', 1, JSON.stringify(toEntityChangeEvent(EVENTS[1]!))],
        ['s1', 2, JSON.stringify(toEntityChangeEvent(EVENTS[3]!))],
        ['s2', 2, JSON.stringify(toEntityChangeEvent(EVENTS[3]!))],
      ]);
      const { total, deliveries } = await store.changeEvents.listWebhookDeliveries({ start: 0, count: 100 });
      assert.equal(total, 3);
      assert.ok(deliveries.every((d) => d.state === 'pending'));
    });

    it('serves the carried events on PlatformEvent_v1 and numbers new entries after them', async () => {
      const entries = await store.changeEvents.readEventLog('PlatformEvent_v1', 0, 100);
      assert.deepEqual(
        entries.map((e) => [e.offset, e.entityUrn, e.webhookCategory]),
        [
          [1, urn(2), 'DEPRECATION'],
          [2, urn(4), 'DEPRECATION'],
        ],
      );
      const first = JSON.parse(entries[0]!.value) as { name: string; header: { timestampMillis: number }; payload: { value: string } };
      assert.equal(first.name, 'entityChangeEvent');
      assert.equal(first.header.timestampMillis, EVENTS[1]!.createdAt);
      assert.deepEqual(JSON.parse(Buffer.from(first.payload.value, 'latin1').toString('utf8')), toEntityChangeEvent(EVENTS[1]!));
      assert.equal((await store.changeEvents.eventLogBounds()).next, 3);
      await store.aspects.write({
        ops: [{ kind: 'aspect', entityType: 'dataset', urn: urn(9), aspect: 'status', value: { removed: false }, systemMetadata: null }],
        actor: 'urn:li:corpuser:a',
        now: 1,
      });
      const [next] = await store.changeEvents.readEventLog('MetadataChangeLog_Versioned_v1', 0, 100);
      assert.ok(next && next.offset >= 3, `new entry at ${next?.offset}`);
    });
  });
}
