import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAlmanac } from '../support/cli.ts';
import { backends } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { gql, gqlData } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const DAY = 86_400_000;
const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,life.${name},PROD)`;
const STATE = 'query($urn: String!) { dataset(urn: $urn) { deprecationState daysToDecommission deprecation { deprecated } } }';
const SEARCH = `query($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
  total searchResults { entity { urn } } facets { field aggregations { value count } } } }`;

for (const backend of await backends()) {
  describe(`the decommission lifecycle: active, deprecated, overdue: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    const now = Date.now();
    useServer(
      backend,
      async (s) => {
        server = s;
        const deprecations: Array<[string, Record<string, unknown> | null]> = [
          ['active', null],
          ['undated', { deprecated: true, note: 'no date', actor: 'urn:li:corpuser:datahub' }],
          ['later', { deprecated: true, note: 'in ten and a half days', decommissionTime: now + 10.5 * DAY, actor: 'urn:li:corpuser:datahub' }],
          ['overdue', { deprecated: true, note: 'two and a half days ago', decommissionTime: now - 2.5 * DAY, actor: 'urn:li:corpuser:datahub' }],
          ['undone', { deprecated: false, note: '', decommissionTime: now - 5 * DAY, actor: 'urn:li:corpuser:datahub' }],
        ];
        const proposals = deprecations.flatMap(([name, d]) => [
          mcp(urn(name), 'status', { removed: false }),
          mcp(urn(name), 'ownership', { owners: [{ owner: `urn:li:corpuser:${name}-owner`, type: 'DATAOWNER' }] }),
          ...(d ? [mcp(urn(name), 'deprecation', d)] : []),
        ]);
        assert.equal((await s.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } })).status, 200);
      },
      { ALMANAC_RETENTION_SCHEDULE: 'off' },
    );

    it('reports each dataset as ACTIVE, DEPRECATED or OVERDUE, with the days to its decommission rounded up as the console counts them', async () => {
      const got: Record<string, unknown> = {};
      for (const name of ['active', 'undated', 'later', 'overdue', 'undone']) {
        const d = (await gqlData(server, STATE, { urn: urn(name) })).dataset;
        got[name] = [d.deprecationState, d.daysToDecommission];
      }
      assert.deepEqual(got, {
        active: ['ACTIVE', null],
        undated: ['DEPRECATED', null],
        later: ['DEPRECATED', 11],
        overdue: ['OVERDUE', -2],
        undone: ['ACTIVE', -5],
      });
    });

    it('filters and counts search results by state', async () => {
      const search = async (values: string[] | null) =>
        (
          await gqlData(server, SEARCH, {
            input: {
              types: ['DATASET'],
              query: 'life',
              start: 0,
              count: 50,
              orFilters: values ? [{ and: [{ field: 'deprecationState', values }] }] : [],
            },
          })
        ).searchAcrossEntities;
      const overdue = await search(['OVERDUE']);
      assert.deepEqual(
        overdue.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn),
        [urn('overdue')],
      );
      const deprecated = await search(['DEPRECATED', 'OVERDUE']);
      assert.equal(deprecated.total, 3);
      const facet = (await search(null)).facets.find((f: { field: string }) => f.field === 'deprecationState');
      assert.deepEqual(Object.fromEntries(facet.aggregations.map((a: { value: string; count: number }) => [a.value, a.count])), {
        ACTIVE: 2,
        DEPRECATED: 2,
        OVERDUE: 1,
      });
      const bad = await gql(server, SEARCH, {
        input: { types: ['DATASET'], query: '*', orFilters: [{ and: [{ field: 'deprecationState', values: ['LATE'] }] }] },
      });
      assert.match(bad.json.errors?.[0]?.message ?? '', /deprecationState\): unknown value LATE; use ACTIVE, DEPRECATED, OVERDUE/);
      assert.equal(bad.json.errors[0].extensions.code, 400);
    });

    it('lists deprecations on the command line, soonest first, and only the overdue with --overdue', async () => {
      const env = { DATAHUB_GMS_URL: server.url, DATAHUB_GMS_TOKEN: server.adminToken };
      const all = await runAlmanac(['deprecations', '--json'], { env });
      assert.equal(all.code, 0, all.stderr);
      const rows = JSON.parse(all.stdout) as Array<{ urn: string; state: string; daysToDecommission: number | null; note: string; owners: string[] }>;
      assert.deepEqual(
        rows.map((r) => [r.urn, r.state, r.daysToDecommission, r.note, r.owners]),
        [
          [urn('overdue'), 'OVERDUE', -2, 'two and a half days ago', ['urn:li:corpuser:overdue-owner']],
          [urn('later'), 'DEPRECATED', 11, 'in ten and a half days', ['urn:li:corpuser:later-owner']],
          [urn('undated'), 'DEPRECATED', null, 'no date', ['urn:li:corpuser:undated-owner']],
        ],
      );
      const overdue = await runAlmanac(['deprecations', '--overdue'], { env });
      assert.equal(overdue.code, 0, overdue.stderr);
      assert.match(overdue.stdout, /life\.overdue/);
      assert.match(overdue.stdout, /two and a half days ago/);
      assert.match(overdue.stdout, /2 days overdue/);
      assert.match(overdue.stdout, /overdue-owner/);
      assert.doesNotMatch(overdue.stdout, /life\.later/);
    });
  });
}
