import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { clientBackends, runDatahubCliAt, useClientScript } from '../support/datahub-client.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const EMAIL = 'smoke-user@example.com';
const URN = `urn:li:corpuser:${EMAIL}`;
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,init.orders,PROD)';

for (const backend of await clientBackends()) {
  describe(`DataHub's user flow through the real SDK: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_users.py', () => ({ email: EMAIL, password: 'smoke password' }));

    it('signs up with an invite token and creates a token with the session cookie, as the smoke tests do', () => {
      assert.deepEqual(run.result.cookies, ['PLAY_SESSION', 'actor']);
      assert.equal(run.result.tokenActor, URN);
      assert.deepEqual(run.result.active, { whoAmI: { status: 200, body: { urn: URN } }, graphql: URN });
    });

    it("answers 401 to a suspended user's token at once, and 200 again after reactivation", () => {
      assert.equal(run.result.suspend, URN);
      assert.equal(run.result.suspended.whoAmI, 401);
      assert.match(run.result.suspended.graphql.message, /is not active/);
      assert.equal(run.result.reactivate, URN);
      assert.deepEqual(run.result.reactivated, { whoAmI: 200, graphql: URN });
      assert.deepEqual(run.result.listed, [{ username: EMAIL, status: 'ACTIVE' }]);
    });

    it("answers 401 to a removed user's token", async () => {
      assert.equal(run.result.remove, true);
      assert.equal(run.result.removed.whoAmI, 401);
      assert.match(run.result.removed.graphql.message, /Token has been revoked/);
      const exists = await run.server.request('POST', '/entities?action=exists', { body: { urn: URN } });
      assert.equal(exists.json.value, false);
    });
  });

  describe(`datahub init --use-password, then datahub get: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-datahub-init-'));
    after(() => fs.rmSync(home, { recursive: true, force: true }));
    useServer(backend, async (s) => {
      server = s;
      await actorWithRole(server, 'initer', 'Reader', 'initer password');
      await ingest(server, mcp(DATASET, 'datasetProperties', { name: 'orders', customProperties: {} }));
    });

    it('signs in, creates a token over GraphQL with the session cookie, writes it, and the next command uses it', async () => {
      const init = await runDatahubCliAt(
        home,
        'init',
        '--use-password',
        '--host',
        server.url,
        '--username',
        'initer',
        '--password',
        'initer password',
        '--force',
      );
      assert.equal(init.code, 0, `${init.stdout}\n${init.stderr}`);
      const config = fs.readFileSync(path.join(home, '.datahubenv'), 'utf8');
      assert.match(config, new RegExp(`server: ${server.url.replaceAll('.', '\\.')}`));
      const tokens = await server.request('POST', '/api/graphql', {
        body: {
          query:
            '{ listAccessTokens(input: { start: 0, count: 10, filters: [{ field: "actorUrn", values: ["urn:li:corpuser:initer"] }] }) { tokens { name } } }',
        },
      });
      assert.ok(
        tokens.json.data.listAccessTokens.tokens.some((t: { name: string }) => t.name.startsWith('cli token ')),
        tokens.text,
      );
      const get = await runDatahubCliAt(home, 'get', '--urn', DATASET, '--aspect', 'datasetProperties');
      assert.equal(get.code, 0, `${get.stdout}\n${get.stderr}`);
      assert.equal(JSON.parse(get.stdout).datasetProperties.name, 'orders');
    });
  });
}
