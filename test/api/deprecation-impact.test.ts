import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gql, gqlData, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,impact.${name},PROD)`;
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,impact,prod),load)';
const CHART = 'urn:li:chart:(looker,impact.chart)';
const DASHBOARD = 'urn:li:dashboard:(looker,impact.board)';
const upstreams = (...urns: string[]) => ({ upstreams: urns.map((dataset) => ({ dataset, type: 'TRANSFORMED' })) });
const owners = (...urns: string[]) => ({ owners: urns.map((owner) => ({ owner, type: 'DATAOWNER' })) });
const IMPACT = `query($urn: String!, $depth: Int) { deprecationImpact(urn: $urn, depth: $depth) {
  urn depth total downstream { urn entityType degree owners entity { urn } } } }`;
const UPSTREAMS = `query($urn: String!) { dataset(urn: $urn) { deprecatedUpstreams { urn degree state note decommissionTime replacement } } }`;

for (const backend of await backends()) {
  describe(`the impact of a deprecation through lineage: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      // a -> b -> c -> a (a cycle), b -> job -> d, b -> chart -> dashboard.
      await ingest(
        server,
        mcp(ds('a'), 'upstreamLineage', upstreams(ds('c'))),
        mcp(ds('b'), 'upstreamLineage', upstreams(ds('a'))),
        mcp(ds('b'), 'ownership', owners('urn:li:corpuser:alice', 'urn:li:corpGroup:analytics')),
        mcp(ds('c'), 'upstreamLineage', upstreams(ds('b'))),
        mcp(JOB, 'dataJobInputOutput', { inputDatasets: [ds('b')], outputDatasets: [ds('d')] }, 'dataJob'),
        mcp(ds('d'), 'status', { removed: false }),
        mcp(
          CHART,
          'chartInfo',
          {
            title: 'Impact',
            description: '',
            lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
            inputs: [{ string: ds('b') }],
          },
          'chart',
        ),
        mcp(
          DASHBOARD,
          'dashboardInfo',
          {
            title: 'Board',
            description: '',
            charts: [CHART],
            lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
          },
          'dashboard',
        ),
      );
    });

    const impact = async (urn: string, depth?: number) => (await gqlData(server, IMPACT, { urn, ...(depth ? { depth } : {}) })).deprecationImpact;

    it('lists what depends on a dataset, nearest first, with owners, and stops at the depth asked and at cycles', async () => {
      const three = await impact(ds('a'));
      assert.equal(three.depth, 3);
      assert.deepEqual(
        three.downstream.map((e: { urn: string; entityType: string; degree: number }) => [e.urn, e.entityType, e.degree]),
        [
          [ds('b'), 'dataset', 1],
          [ds('c'), 'dataset', 2],
          [CHART, 'chart', 2],
          [JOB, 'dataJob', 2],
          [ds('d'), 'dataset', 3],
          [DASHBOARD, 'dashboard', 3],
        ].sort((x, y) => (x[2] as number) - (y[2] as number) || (x[0]! < y[0]! ? -1 : 1)),
      );
      assert.equal(three.total, 6);
      const b = three.downstream.find((e: { urn: string }) => e.urn === ds('b'));
      assert.deepEqual(b.owners, ['urn:li:corpuser:alice', 'urn:li:corpGroup:analytics']);
      assert.equal(b.entity.urn, ds('b'));
      // The cycle back to a is not followed, and a is not its own dependant.
      assert.ok(!three.downstream.some((e: { urn: string }) => e.urn === ds('a')));
      const one = await impact(ds('a'), 1);
      assert.deepEqual(
        one.downstream.map((e: { urn: string }) => e.urn),
        [ds('b')],
      );
    });

    it('names the deprecated and overdue upstreams of a dataset, and refuses a bad depth or a missing entity', async () => {
      const mutation = 'mutation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';
      const past = Date.now() - 86_400_000;
      await gqlData(server, mutation, { input: { urn: ds('a'), deprecated: true, note: 'a goes', decommissionTime: past } });
      await gqlData(server, mutation, { input: { urn: ds('b'), deprecated: true, note: 'b goes', replacement: ds('d') } });
      const seen = (await gqlData(server, UPSTREAMS, { urn: ds('c') })).dataset.deprecatedUpstreams;
      assert.deepEqual(seen, [
        { urn: ds('b'), degree: 1, state: 'DEPRECATED', note: 'b goes', decommissionTime: null, replacement: ds('d') },
        { urn: ds('a'), degree: 2, state: 'OVERDUE', note: 'a goes', decommissionTime: past, replacement: null },
      ]);
      assert.deepEqual(
        (await gqlData(server, UPSTREAMS, { urn: ds('d') })).dataset.deprecatedUpstreams.map((u: { urn: string }) => u.urn),
        [ds('b'), ds('a')],
      );
      for (const [vars, message] of [
        [{ urn: ds('a'), depth: 0 }, /^depth: an integer from 1 to 5, got 0/],
        [{ urn: ds('a'), depth: 9 }, /^depth: an integer from 1 to 5, got 9/],
        [{ urn: ds('nope') }, /does not exist/],
      ] as const) {
        const res = await gql(server, IMPACT, vars);
        assert.match(res.json.errors?.[0]?.message ?? '', message, res.text);
        assert.equal(res.json.errors[0].extensions.code, 400);
      }
    });
  });
}
