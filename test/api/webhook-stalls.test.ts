import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../src/logger.ts';
import { WebhookDeliverer } from '../../src/tasks/webhooks/webhook-deliverer.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { gqlData } from '../support/graphql.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createDataset, datasetUrn } from '../support/truncation.ts';
import { startWebhookReceiver, type Misbehaviour, type WebhookReceiver } from '../support/webhook-receiver.ts';

const CREATE = 'mutation($input: CreateWebhookSubscriptionInput!) { createWebhookSubscription(input: $input) { subscription { id } } }';
const DELETE = 'mutation($id: String!) { deleteWebhookSubscription(id: $id) }';
const BATCH = 'mutation($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }';
const DEPRECATE = 'mutation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';
const DELIVERIES = `query($id: String) { webhookDeliveries(subscriptionId: $id, count: 100) {
  deliveries { state attempts lastStatusCode lastError } } }`;

/** Short, so a test sees attempts cut; the healthy bound below is independent of it. */
const DEADLINE = 2_000;
const PER_SUBSCRIPTION = 2;
/** How soon a healthy subscription's event must arrive, whatever another receiver does. */
const HEALTHY_MILLIS = 5_000;

interface LoggedDelivery {
  readonly state: string;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
}

const CASES: readonly { misbehave: Misbehaviour; receiver: string; status: number | null; error: RegExp }[] = [
  {
    misbehave: 'trickle',
    receiver: 'a receiver that trickles its body',
    status: 200,
    error: /^response body not complete \(HTTP 200\) within the 2000 ms attempt deadline; connection dropped$/,
  },
  {
    misbehave: 'endless',
    receiver: 'a receiver whose body never ends',
    status: 200,
    error: /^response body over 65536 bytes \(HTTP 200\); connection dropped$/,
  },
  {
    misbehave: 'silent',
    receiver: 'a receiver that never answers',
    status: null,
    error: /^no response within the 2000 ms attempt deadline; connection dropped$/,
  },
];

for (const backend of await backends()) {
  describe(`a webhook receiver that stalls or floods delays no other subscription: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let deliverer: WebhookDeliverer;

    before(async () => {
      db = await backend.create();
      // The server records events; this deliverer, the production one with a short deadline, sends them.
      server = await startTestServer(db, { ALMANAC_RETENTION_SCHEDULE: 'off', ALMANAC_WEBHOOK_DELIVERY: 'false' });
      deliverer = new WebhookDeliverer(server.app.services.store, server.app.services.webhookSecrets, createLogger('silent'), {
        claimant: 'stall-test',
        pollMillis: 100,
        attemptDeadlineMillis: DEADLINE,
        maxInFlightPerSubscription: PER_SUBSCRIPTION,
        // Past every test's end, so each attempt a test counts is a first one.
        firstRetryMillis: 30_000,
      });
      deliverer.start();
    });
    after(async () => {
      await deliverer?.stop();
      await server?.close();
      await db?.drop();
    });

    // To deprecations only: the datasets' own creation (LIFECYCLE) is no part of what these tests count.
    const subscribe = async (receiver: WebhookReceiver): Promise<string> =>
      (await gqlData(server, CREATE, { input: { url: receiver.url, categories: ['DEPRECATION'] } })).createWebhookSubscription.subscription.id;
    const deprecate = (urn: string) => gqlData(server, DEPRECATE, { input: { urn, deprecated: true, note: 'stalled?' } });
    const logOf = async (id: string): Promise<LoggedDelivery[]> => (await gqlData(server, DELIVERIES, { id })).webhookDeliveries.deliveries;
    /** The delivery log of `id` once every entry has had an attempt. */
    const attempted = async (id: string, count: number): Promise<LoggedDelivery[]> => {
      for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
        const log = await logOf(id);
        if (log.length === count && log.every((d) => d.attempts > 0)) return log;
      }
      throw new Error(`the deliveries of ${id} were not all attempted: ${JSON.stringify(await logOf(id))}`);
    };

    for (const { misbehave, receiver, status, error } of CASES) {
      it(`delivers a healthy subscription's events while ${receiver} is attempted, and logs that attempt failed`, async () => {
        const bad = await startWebhookReceiver({ misbehave });
        const good = await startWebhookReceiver();
        const ids = [await subscribe(bad), await subscribe(good)];
        try {
          const [first, second] = [1, 2].map((n) => datasetUrn(`stalls.${misbehave}.${n}`)) as [string, string];
          await createDataset(server.request, first);
          await createDataset(server.request, second);
          await deprecate(first);
          await good.waitFor(1, HEALTHY_MILLIS);
          const [held] = await bad.waitForRequests(1, HEALTHY_MILLIS);
          // A second event while the misbehaving attempt is under way: nothing waits for that attempt to end.
          const sent = Date.now();
          await deprecate(second);
          const [, next] = await good.waitFor(2, HEALTHY_MILLIS);
          assert.equal(next!.json.entityUrn, second);
          if (misbehave !== 'endless') {
            assert.ok(held!.closedAt === undefined || next!.at < held!.closedAt, 'the healthy event arrived while the other attempt was held open');
          }
          assert.ok(next!.at - sent < HEALTHY_MILLIS);

          const [, badFirst] = await attempted(ids[0]!, 2);
          assert.deepEqual([badFirst!.state, badFirst!.attempts, badFirst!.lastStatusCode], ['pending', 1, status]);
          assert.match(badFirst!.lastError ?? '', error);
          // Cut by this side: at the deadline, or (an endless body) once past the cap, long before it.
          assert.ok(held!.closedAt !== undefined, 'the misbehaving exchange was ended');
          const heldFor = held!.closedAt - held!.at;
          if (misbehave === 'endless') {
            assert.ok(heldFor < DEADLINE / 2, `dropped after ${heldFor} ms`);
          } else {
            assert.ok(heldFor >= DEADLINE - 100 && heldFor < DEADLINE + 1_000, `held for ${heldFor} ms`);
          }
          assert.deepEqual(
            (await logOf(ids[1]!)).map((d) => [d.state, d.attempts, d.lastStatusCode]),
            [
              ['delivered', 1, 200],
              ['delivered', 1, 200],
            ],
          );
        } finally {
          for (const id of ids) await gqlData(server, DELETE, { id });
          await bad.close();
          await good.close();
        }
      });
    }

    it("holds at most two attempts open to a silent receiver, and delivers another subscription's events meanwhile", async () => {
      const silent = await startWebhookReceiver({ misbehave: 'silent' });
      const good = await startWebhookReceiver();
      const ids = [await subscribe(silent), await subscribe(good)];
      try {
        const urns = [1, 2, 3, 4, 5].map((n) => datasetUrn(`stalls.bounded.${n}`));
        for (const urn of urns) await createDataset(server.request, urn);
        await gqlData(server, BATCH, { input: { resources: urns.map((resourceUrn) => ({ resourceUrn })), deprecated: true, note: 'all at once' } });
        const got = await good.waitFor(urns.length, HEALTHY_MILLIS);
        assert.deepEqual(got.map((d) => d.json.entityUrn).sort(), [...urns].sort());
        // The other three wait their turn in this process, not on the wire: two, two, then one, each cut at the deadline.
        const log = await attempted(ids[0]!, urns.length);
        assert.equal(silent.requests.length, urns.length);
        assert.equal(silent.mostOpen, PER_SUBSCRIPTION);
        assert.deepEqual(
          log.map((d) => [d.state, d.attempts, d.lastStatusCode, d.lastError]),
          urns.map(() => ['pending', 1, null, 'no response within the 2000 ms attempt deadline; connection dropped']),
        );
      } finally {
        for (const id of ids) await gqlData(server, DELETE, { id });
        await silent.close();
        await good.close();
      }
    });

    it("delivers another subscription's events past a silent receiver's backlog of more than a claim", async () => {
      const silent = await startWebhookReceiver({ misbehave: 'silent' });
      const good = await startWebhookReceiver();
      const ids = [await subscribe(silent), await subscribe(good)];
      try {
        // 30 events each: more than the 20 a claim takes, so the silent receiver's queue fills and its later
        // deliveries are set aside for their leases, while claims go on to the healthy subscription's.
        const urns = Array.from({ length: 30 }, (_, n) => datasetUrn(`stalls.backlog.${n}`));
        for (const urn of urns) await createDataset(server.request, urn);
        await gqlData(server, BATCH, { input: { resources: urns.map((resourceUrn) => ({ resourceUrn })), deprecated: true, note: 'a backlog' } });
        const got = await good.waitFor(urns.length, HEALTHY_MILLIS);
        assert.deepEqual(got.map((d) => d.json.entityUrn).sort(), [...urns].sort());
        assert.ok(silent.mostOpen <= PER_SUBSCRIPTION, `${silent.mostOpen} open at once`);
      } finally {
        for (const id of ids) await gqlData(server, DELETE, { id });
        await silent.close();
        await good.close();
      }
    });
  });
}
