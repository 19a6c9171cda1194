import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { backends, createPostgresDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { gqlData } from '../support/graphql.ts';
import { startServerProcess, type ServerProcess } from '../support/process.ts';
import { httpRequest, startTestServer, type TestServer } from '../support/server.ts';
import { datasetUrn } from '../support/truncation.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const CREATE = 'mutation($input: CreateWebhookSubscriptionInput!) { createWebhookSubscription(input: $input) { subscription { id } } }';
const BATCH = 'mutation($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }';

/** Datasets to deprecate, written through `server`. */
async function datasets(server: TestServer, prefix: string, n: number): Promise<string[]> {
  const urns = Array.from({ length: n }, (_, i) => datasetUrn(`${prefix}.t${i}`));
  for (const urn of urns)
    await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal: mcp(urn, 'status', { removed: false }) } });
  return urns;
}

const deprecateVia = (url: string, token: string, urns: readonly string[]) =>
  httpRequest(url, 'POST', '/api/graphql', {
    auth: `Bearer ${token}`,
    body: { query: BATCH, variables: { input: { resources: urns.map((resourceUrn) => ({ resourceUrn })), deprecated: true, note: 'going' } } },
  });

for (const backend of await backends()) {
  describe(`webhook events survive the process that recorded them: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let receiver: WebhookReceiver;
    let recorder: ServerProcess | undefined;
    let deliverer: TestServer | undefined;
    after(async () => {
      await recorder?.stop().catch(() => undefined);
      await deliverer?.close();
      await receiver?.close();
      await db?.drop();
    });

    it('delivers after a restart the events a process committed and was killed before delivering', async () => {
      db = await backend.create();
      receiver = await startWebhookReceiver();
      // Set up, then closed: the subscription, three datasets and a token for the process that will be killed.
      const setup = await startTestServer(db, { ALMANAC_WEBHOOK_DELIVERY: 'false', ALMANAC_RETENTION_SCHEDULE: 'off' });
      await gqlData(setup, CREATE, { input: { url: receiver.url, categories: ['DEPRECATION'] } });
      const urns = await datasets(setup, 'killed', 3);
      const token = setup.adminToken;
      await setup.close();
      // It commits the deprecation (and so its events), and dies before any delivery: it delivers none.
      recorder = await startServerProcess({ ...db.env, ALMANAC_WEBHOOK_DELIVERY: 'false', ALMANAC_RETENTION_SCHEDULE: 'off' });
      const res = await deprecateVia(recorder.address, token, urns);
      assert.deepEqual(res.json, { data: { batchUpdateDeprecation: true }, extensions: {} });
      recorder.child.kill('SIGKILL');
      await new Promise((resolve) => recorder!.child.once('exit', resolve));
      recorder = undefined;
      assert.equal(receiver.received.length, 0);
      deliverer = await startTestServer(db, { ALMANAC_RETENTION_SCHEDULE: 'off' });
      const got = await receiver.waitFor(3);
      assert.deepEqual(got.map((d) => d.json.entityUrn).sort(), [...urns].sort());
    });
  });
}

describe('two processes sharing PostgreSQL deliver each event once', { skip: await postgresSkipReason() }, () => {
  let db: TestDatabase;
  let first: TestServer;
  let second: ServerProcess;
  let receiver: WebhookReceiver;
  after(async () => {
    await second?.stop();
    await first?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('claims every delivery in one process only', async () => {
    db = await createPostgresDatabase();
    receiver = await startWebhookReceiver();
    first = await startTestServer(db, { ALMANAC_RETENTION_SCHEDULE: 'off' });
    second = await startServerProcess({ ...db.env, ALMANAC_RETENTION_SCHEDULE: 'off' });
    await gqlData(first, CREATE, { input: { url: receiver.url, categories: ['DEPRECATION'] } });
    const urns = await datasets(first, 'shared', 60);
    // Half the changes through each process, so both have events to deliver at once.
    await Promise.all([deprecateVia(first.url, first.adminToken, urns.slice(0, 30)), deprecateVia(second.address, first.adminToken, urns.slice(30))]);
    // What this asserts is each event delivered once, not how fast: 4 to 5 s alone, and CI's Node 26 tier, running
    // test files side by side on two cores, once saw 51 of the 60 after 15 s.
    await receiver.waitFor(60, 60_000);
    await new Promise((r) => setTimeout(r, 1500));
    const ids = receiver.received.map((d) => String(d.headers['x-almanac-delivery']));
    assert.equal(ids.length, 60, 'no event delivered twice');
    assert.equal(new Set(ids).size, 60);
    assert.deepEqual(receiver.received.map((d) => d.json.entityUrn).sort(), [...urns].sort());
  });
});
