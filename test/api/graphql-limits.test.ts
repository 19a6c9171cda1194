import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gql } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,limits.t,PROD)';

function assertRefused(res: HttpResult, message: RegExp): void {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.data, undefined, 'nothing ran');
  assert.equal(res.json.errors?.[0]?.extensions?.code, 400, res.text);
  assert.match(res.json.errors[0].message, message);
}

for (const backend of await backends()) {
  describe(`GraphQL cost limits: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    for (const [n, limit] of [
      [300, /aliases/i],
      [1500, /more that 20000 tokens/],
    ] as const) {
      it(`refuses ${n} aliased searches before running any, while /health keeps answering`, async () => {
        const fields = Array.from({ length: n }, (_, i) => `s${i}: search(input: {type: DATASET, query: "x${i}", start: 0, count: 10}) { total }`);
        const attack = gql(server, `{ ${fields.join(' ')} }`);
        const t0 = Date.now();
        assert.equal((await fetch(`${server.url}/health`)).status, 200);
        // The larger document is cut off by the parser's token bound; its 110 KB body is still read and parsed as JSON.
        // Not a speed target (those live in bench/): the attack used to freeze the server for 73 s.
        if (n === 300) assert.ok(Date.now() - t0 < 1000, '/health answered while the attack was refused');
        assertRefused(await attack, limit);
      });
    }

    it('refuses aliased deprecation writes over the alias limit, writing nothing', async () => {
      const fields = Array.from({ length: 31 }, (_, i) => `m${i}: updateDeprecation(input: {urn: "${URN}", deprecated: true})`);
      assertRefused(await gql(server, `mutation { ${fields.join(' ')} }`), /aliases/i);
      const read = await gql(server, `{ dataset(urn: "${URN}") { urn } }`);
      assert.equal(read.json.data.dataset, null, 'the batch wrote nothing: the dataset does not even exist');
    });
  });

  describe(`GraphQL limits from the configuration: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(
      backend,
      (s) => {
        server = s;
      },
      { ALMANAC_GRAPHQL_MAX_DEPTH: '3', ALMANAC_GRAPHQL_MAX_ALIASES: '1', ALMANAC_GRAPHQL_MAX_COST: '12' },
    );

    it('refuses a query deeper than ALMANAC_GRAPHQL_MAX_DEPTH and takes one within it', async () => {
      assertRefused(await gql(server, `{ dataset(urn: "${URN}") { schemaMetadata { fields { deprecation { note } } } } }`), /depth/i);
      assert.equal((await gql(server, `{ dataset(urn: "${URN}") { deprecation { note } } }`)).json.errors, undefined);
      assertRefused(await gql(server, `{ a: dataset(urn: "${URN}") { urn } b: dataset(urn: "${URN}") { urn } }`), /aliases/i);
    });

    it('refuses a query costlier than ALMANAC_GRAPHQL_MAX_COST, naming the limit', async () => {
      const wide = `{ dataset(urn: "${URN}") { urn name exists deprecation { deprecated note decommissionTime actor } status { removed } } }`;
      assertRefused(await gql(server, wide), /cost/i);
    });
  });
}
