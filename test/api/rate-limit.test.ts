import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { gql, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,rate.t,PROD)';
const relationships = `/relationships?urn=${encodeURIComponent(URN)}&types=List(DownstreamOf)&direction=OUTGOING`;
const SEARCH = '{ searchAcrossEntities(input: {types: [DATASET], query: "*", start: 0, count: 5}) { total } }';

function assertLimited(res: HttpResult): void {
  assert.equal(res.status, 429, res.text);
  assert.ok(Number(res.headers.get('retry-after')) >= 1, `Retry-After: ${res.headers.get('retry-after')}`);
}

for (const backend of await backends()) {
  describe(`the budget of expensive operations: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let alice: string;
    let bob: string;
    useServer(
      backend,
      async (s) => {
        server = s;
        alice = await actorWithRole(s, 'alice', 'Editor');
        bob = await actorWithRole(s, 'bob', 'Editor');
      },
      // A small budget and a long window, so the test cannot race the window's end.
      { ALMANAC_RATE_LIMIT_MAX: '3', ALMANAC_RATE_LIMIT_WINDOW_MS: '3600000' },
    );

    it('answers 429 with Retry-After to a user past the budget, in Rest.li shape, and spares other users', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await server.request('GET', relationships, { auth: alice })).status, 200);
      const refused = await server.request('GET', relationships, { auth: alice });
      assertLimited(refused);
      assert.equal(refused.json.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException');
      assert.equal(refused.json.status, 429);
      assert.match(refused.json.message, /urn:li:corpuser:alice: at most 3 per 3600 s/);
      // GraphQL searches draw on the same budget, and are refused in GraphQL's shape.
      const search = await gql(server, SEARCH, {}, { auth: alice });
      assertLimited(search);
      assert.deepEqual(search.json.errors[0].extensions, { code: 429, type: 'TOO_MANY_REQUESTS' });
      assert.equal((await server.request('GET', relationships, { auth: bob })).status, 200, 'another user has a budget of their own');
    });

    it('never limits ingestion, reads by urn or cheap GraphQL, and /health answers throughout', async () => {
      const carol = await actorWithRole(server, 'carol', 'Editor');
      for (let i = 0; i < 4; i++) assert.equal((await server.request('GET', relationships, { auth: carol })).status, i < 3 ? 200 : 429);
      for (let i = 0; i < 10; i++) {
        const res = await server.request('POST', '/aspects?action=ingestProposal', {
          auth: carol,
          body: { proposal: mcp(URN, 'status', { removed: false }) },
        });
        assert.equal(res.status, 200, res.text);
      }
      assert.equal((await server.request('GET', `/entities/${encodeURIComponent(URN)}`, { auth: carol })).status, 200);
      const cheap = await gql(server, `{ dataset(urn: "${URN}") { urn } }`, {}, { auth: carol });
      assert.equal(cheap.json.errors, undefined, cheap.text);
      assert.equal((await fetch(`${server.url}/health`)).status, 200);
    });

    it('counts a truncation against the budget and starts none past it', async () => {
      await ingest(server, mcp(URN, 'status', { removed: false }));
      const dave = await actorWithRole(server, 'dave', 'Admin');
      const truncate = () =>
        server.request('POST', '/operations?action=truncateTimeseriesAspect', {
          auth: dave,
          body: { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: 0, dryRun: true },
        });
      for (let i = 0; i < 3; i++) assert.equal((await truncate()).status, 200);
      assertLimited(await truncate());
    });
  });

  describe(`the budget turned off: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(
      backend,
      (s) => {
        server = s;
      },
      { ALMANAC_RATE_LIMIT_MAX: '0' },
    );

    it('lets ALMANAC_RATE_LIMIT_MAX=0 run any number of expensive operations', async () => {
      for (let i = 0; i < 20; i++) assert.equal((await server.request('GET', relationships)).status, 200);
    });
  });
}
