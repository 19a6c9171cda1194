import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store, WriteOp } from '../../src/storage/store.ts';
import { backends } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.events,PROD)';
const deprecation = (value: Record<string, unknown>, urn = URN): WriteOp => ({
  kind: 'aspect',
  entityType: 'dataset',
  urn,
  aspect: 'deprecation',
  value,
  systemMetadata: null,
});
const subscription = (id: string, categories: string[] | null = null) => ({
  id,
  url: 'http://127.0.0.1:9/hook',
  sealedSecret: 'v1.sealed',
  categories,
  entityTypes: null,
  createdBy: 'urn:li:corpuser:datahub',
  createdAt: 1,
});

for (const backend of await backends()) {
  describe(`change events and webhook deliveries: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => (store = s));

    /** The DEPRECATION events PlatformEvent_v1 serves from offset `from` on, as webhooks deliver them. */
    const deprecationEvents = async (from: number) =>
      (await store.changeEvents.readEventLog('PlatformEvent_v1', from, 1000))
        .map((e) => JSON.parse(Buffer.from(JSON.parse(e.value).payload.value, 'latin1').toString('utf8')))
        .filter((e) => e.category === 'DEPRECATION');

    it('records each change of a deprecation in its write, with the values after, and no sighting', async () => {
      const from = (await store.changeEvents.eventLogBounds()).next;
      await store.aspects.write({ ops: [deprecation({ deprecated: true, note: 'a' })], actor: 'urn:li:corpuser:u1', now: 10 });
      await store.aspects.write({ ops: [deprecation({ deprecated: true, note: 'a' })], actor: 'urn:li:corpuser:u2', now: 20 });
      await store.aspects.write({ ops: [deprecation({ deprecated: false, note: '' })], actor: 'urn:li:corpuser:u3', now: 30 });
      const events = await deprecationEvents(from);
      assert.deepEqual(
        events.map((e) => [e.entityType, e.entityUrn, e.category, e.operation, e.parameters, e.auditStamp]),
        [
          ['dataset', URN, 'DEPRECATION', 'MODIFY', { status: 'DEPRECATED', note: 'a' }, { time: 10, actor: 'urn:li:corpuser:u1' }],
          ['dataset', URN, 'DEPRECATION', 'MODIFY', { status: 'ACTIVE' }, { time: 30, actor: 'urn:li:corpuser:u3' }],
        ],
      );
      // A write that fails records nothing.
      const bad = { ...deprecation({ deprecated: true }), value: undefined as unknown as Record<string, unknown> };
      await assert.rejects(store.aspects.write({ ops: [deprecation({ deprecated: true, note: 'lost' }), bad], actor: 'x', now: 40 }));
      assert.equal((await deprecationEvents(from)).length, 2);
    });

    it('fans events out to matching subscriptions and leases each delivery to one claimant at a time', async () => {
      await store.changeEvents.createWebhookSubscription(subscription('all'));
      await store.changeEvents.createWebhookSubscription(subscription('runs-only', ['RUN']));
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.fanned,PROD)';
      await store.aspects.write({ ops: [deprecation({ deprecated: true, note: 'x' }, urn)], actor: 'a', now: 100 });
      const first = await store.changeEvents.claimWebhookDeliveries('node-a', 200, 1200, 10);
      assert.deepEqual(
        first.map((c) => [c.subscription.id, c.event.entityUrn, c.attempts]),
        [['all', urn, 0]],
      );
      assert.deepEqual(await store.changeEvents.claimWebhookDeliveries('node-b', 300, 1300, 10), [], 'leased to node-a');
      const event = first[0]!.event.id;
      const retry = { state: 'pending' as const, status: 500, error: 'HTTP 500', at: 400, nextAttemptAt: 500 };
      assert.equal(await store.changeEvents.finishWebhookDelivery('all', event, 'node-b', retry), false, 'only the claimant finishes');
      assert.equal(await store.changeEvents.finishWebhookDelivery('all', event, 'node-a', retry), true);
      assert.deepEqual(await store.changeEvents.claimWebhookDeliveries('node-b', 450, 1450, 10), [], 'not due before its next attempt');
      const again = await store.changeEvents.claimWebhookDeliveries('node-b', 500, 1500, 10);
      assert.deepEqual(
        again.map((c) => [c.subscription.id, c.attempts]),
        [['all', 1]],
      );
      await store.changeEvents.finishWebhookDelivery('all', event, 'node-b', {
        state: 'delivered',
        status: 200,
        error: null,
        at: 600,
        nextAttemptAt: 600,
      });
      const log = await store.changeEvents.listWebhookDeliveries({ subscriptionId: 'all', start: 0, count: 10 });
      assert.deepEqual(
        log.deliveries.map((d) => [d.state, d.attempts, d.lastStatus, d.lastError, d.deliveredAt, d.entityUrn, d.category]),
        [['delivered', 2, 200, null, 600, urn, 'DEPRECATION']],
      );
      assert.equal((await store.changeEvents.listWebhookDeliveries({ subscriptionId: 'runs-only', start: 0, count: 10 })).total, 0);
    });

    it('prunes old entries and their finished deliveries, and keeps an entry whose delivery is still pending', async () => {
      await store.changeEvents.createWebhookSubscription(subscription('prune'));
      const urns = ['p1', 'p2'].map((n) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.${n},PROD)`);
      for (const urn of urns) await store.aspects.write({ ops: [deprecation({ deprecated: true }, urn)], actor: 'a', now: 1_000 });
      const claimed = await store.changeEvents.claimWebhookDeliveries('n', 2_000, 3_000, 100);
      // Every delivery of the first event succeeds; the second still has one to retry.
      for (const c of claimed) {
        const delivered = c.event.entityUrn === urns[0];
        await store.changeEvents.finishWebhookDelivery(c.subscription.id, c.event.id, 'n', {
          state: delivered ? 'delivered' : 'pending',
          status: delivered ? 200 : null,
          error: delivered ? null : 'down',
          at: 2_000,
          nextAttemptAt: delivered ? 2_000 : 9e12,
        });
      }
      await store.changeEvents.pruneEventLog(5_000);
      // PlatformEvent_v1 derives its events from change logs, which go with the rest of the old entries; what a
      // pending delivery sends is an entry of its own, kept until the delivery is done.
      assert.deepEqual(await store.changeEvents.readEventLog('PlatformEvent_v1', 0, 1000), []);
      const left = (await store.changeEvents.listWebhookDeliveries({ start: 0, count: 100 })).deliveries;
      assert.deepEqual([...new Set(left.map((d) => d.entityUrn))], [urns[1]], 'the delivered events are gone, the pending ones stay');
      assert.ok(left.length > 0 && left.every((d) => d.state === 'pending'));
      const [retry] = await store.changeEvents.claimWebhookDeliveries('n', 9e12, 9e12 + 1, 100);
      assert.equal(retry?.event.entityUrn, urns[1], 'and is still delivered');
      assert.equal(await store.changeEvents.deleteWebhookSubscription('prune'), true);
      assert.equal(await store.changeEvents.deleteWebhookSubscription('prune'), false);
    });
  });
}
