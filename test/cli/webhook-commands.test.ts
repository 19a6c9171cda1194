import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runAlmanac } from '../support/cli.ts';
import { backends } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { gqlData } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,hooks.cli,PROD)';
const SECRET = 'a secret from standard input';
const [backend] = await backends();

describe('almanac webhooks, as an operator runs them', { skip: backend!.skip }, () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  useServer(
    backend!,
    async (s) => {
      server = s;
      receiver = await startWebhookReceiver();
      assert.equal(
        (await s.request('POST', '/aspects?action=ingestProposal', { body: { proposal: mcp(URN, 'status', { removed: false }) } })).status,
        200,
      );
    },
    { ALMANAC_RETENTION_SCHEDULE: 'off' },
  );
  after(() => receiver?.close());
  const cli = (args: string[], input?: string) =>
    runAlmanac(args, { env: { DATAHUB_GMS_URL: server.url, DATAHUB_GMS_TOKEN: server.adminToken }, ...(input !== undefined ? { input } : {}) });

  it('creates a subscription with a secret from standard input, lists it without the secret, shows deliveries and deletes it', async () => {
    const created = await cli(['webhooks', 'create', '--url', receiver.url, '--categories', 'DEPRECATION', '--secret-stdin', '--json'], SECRET);
    assert.equal(created.code, 0, created.stderr);
    const { subscription, secret } = JSON.parse(created.stdout);
    assert.equal(secret, SECRET);
    assert.deepEqual(subscription.categories, ['DEPRECATION']);
    const list = await cli(['webhooks', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(subscription.id));
    assert.match(list.stdout, /DEPRECATION/);
    assert.doesNotMatch(list.stdout, /secret from standard input/);
    await gqlData(server, 'mutation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }', {
      input: { urn: URN, deprecated: true, note: 'cli' },
    });
    await receiver.waitFor(1);
    let shown = '';
    for (let i = 0; i < 50 && !/delivered/.test(shown); i++)
      shown = (await cli(['webhooks', 'deliveries', '--subscription', subscription.id])).stdout;
    assert.match(shown, /delivered/);
    assert.match(shown, /DEPRECATION urn:li:dataset:\(urn:li:dataPlatform:hive,hooks\.cli,PROD\)/);
    const generated = await cli(['webhooks', 'create', '--url', receiver.url]);
    assert.match(generated.stdout, /signing secret \(shown once, keep it now\): [A-Za-z0-9_-]{43}\n/);
    const bad = await cli(['webhooks', 'create', '--url', 'ftp://example.com/']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /url: must be http or https/);
    const deleted = await cli(['webhooks', 'delete', subscription.id]);
    assert.match(deleted.stdout, /deleted webhook/);
    assert.match((await cli(['webhooks', 'delete', subscription.id])).stdout, /no webhook/);
  });
});
