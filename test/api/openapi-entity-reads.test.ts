import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const ds = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},reads.${name},PROD)`;
const A = ds('hive', 'a');
const B = ds('hive', 'b');
const GONE = ds('hive', 'gone');
const K = ds('kafka', 'k');

for (const backend of await backends()) {
  describe(`OpenAPI entity scroll and batch get: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        s,
        ...[A, B, GONE, K].map((u) => mcp(u, 'datasetProperties', { name: u.split(',')[1], customProperties: {} })),
        mcp(GONE, 'status', { removed: true }),
      );
    });
    const scroll = (query: string, body: unknown) => server.request('POST', `/openapi/v3/entity/scroll${query}`, { body });

    it('scrolls with a filter and a body sort, leaving soft-deleted entities out unless asked', async () => {
      const filter = { and: [{ criteria: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }] };
      const res = await scroll('?count=1', {
        entities: ['dataset'],
        aspects: ['datasetProperties'],
        filter,
        sortCriteria: [{ field: 'name', order: 'DESCENDING' }],
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json.entities, [{ urn: B, datasetProperties: { value: { name: 'reads.b', customProperties: {} } } }]);
      assert.equal(res.json.totalCount, 2);
      const next = await scroll(`?count=1&scrollId=${res.json.scrollId}`, {
        entities: ['dataset'],
        filter,
        sortCriteria: [{ field: 'name', order: 'DESCENDING' }],
      });
      assert.deepEqual(next.json.entities, [{ urn: A }]);
      assert.equal(next.json.scrollId, null);
      const withRemoved = await scroll('?includeSoftDelete=true&count=10', { entities: ['dataset'], filter });
      assert.deepEqual(
        withRemoved.json.entities.map((e: { urn: string }) => e.urn),
        [A, B, GONE],
      );
    });

    it("scrolls one type by GET with a query in DataHub's query language, read through the index", async () => {
      const get = (query: string) => server.request('GET', `/openapi/v3/entity/dataset${query}`);
      const first = await get(`?query=${encodeURIComponent('reads -b')}&count=1&aspectNames=datasetProperties`);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.json.entities, [{ urn: A, datasetProperties: { value: { name: 'reads.a', customProperties: {} } } }]);
      assert.equal(first.json.totalCount, 2);
      const next = await get(`?query=${encodeURIComponent('reads -b')}&count=1&aspectNames=datasetProperties&scrollId=${first.json.scrollId}`);
      assert.deepEqual(
        next.json.entities.map((e: { urn: string }) => e.urn),
        [K],
      );
      assert.equal(next.json.scrollId, null);
      const fielded = await get(`?query=${encodeURIComponent('/q platform: *kafka*')}`);
      assert.deepEqual(
        fielded.json.entities.map((e: { urn: string }) => e.urn),
        [K],
      );
      assert.deepEqual(Object.keys(fielded.json.entities[0]).sort(), ['datasetKey', 'datasetProperties', 'urn']);
      const bad = await get(`?query=${encodeURIComponent('(reads')}`);
      assert.equal(bad.status, 400);
      assert.match(bad.json.message, /could not be parsed at position/);
      assert.match((await get('?cuont=1')).json.message, /Unknown query parameter 'cuont'/);
    });

    it('answers systemMetadata only when asked', async () => {
      const res = await scroll('?systemMetadata=true&count=1', { entities: ['dataset'], aspects: [] });
      const first = res.json.entities[0];
      assert.equal(first.urn, A);
      assert.equal(typeof first.datasetProperties.systemMetadata.lastObserved, 'number');
    });

    it('refuses what it cannot honour, naming the field', async () => {
      const cases: Array<[string, unknown, RegExp]> = [
        ['', { filter: { and: [{ criteria: [{ values: ['x'] }] }] } }, /filter\.and\[0\]\.criteria\[0\]\.field/],
        ['', { entities: ['dataset'], aspects: ['noSuchAspect'] }, /'aspects'.*noSuchAspect/],
        ['', { entities: ['noSuchEntity'] }, /noSuchEntity/],
        ['', { sortCriteria: [{ field: 'name', order: 'UP' }] }, /sortCriteria\[0\]\.order/],
        ['?sliceId=0&sliceMax=2', {}, /sliceId/],
        ['?cuont=5', {}, /Unknown query parameter 'cuont'/],
        ['?scrollId=bogus', {}, /Invalid scrollId/],
      ];
      for (const [query, body, message] of cases) {
        const res = await scroll(query, body);
        assert.equal(res.status, 400, `${query} ${JSON.stringify(body)}`);
        assert.match(res.json.message, message);
      }
    });

    it('batch-gets the entities that exist, v3 and v2, and refuses urns of another type', async () => {
      const v3 = await server.request('POST', '/openapi/v3/entity/dataset/batchGet', {
        body: [{ urn: K, datasetProperties: {} }, { urn: ds('hive', 'never') }],
      });
      assert.equal(v3.status, 200);
      assert.deepEqual(v3.json, [{ urn: K, datasetProperties: { value: { name: 'reads.k', customProperties: {} } } }]);
      const v2 = await server.request('POST', '/openapi/v2/entity/batch/dataset', { body: { urns: [A, K], aspectNames: ['datasetProperties'] } });
      assert.deepEqual(
        v2.json.entities.map((e: { urn: string; aspects: Record<string, { value: { name: string } }> }) => [
          e.urn,
          e.aspects.datasetProperties!.value.name,
        ]),
        [
          [A, 'reads.a'],
          [K, 'reads.k'],
        ],
      );
      const wrongType = await server.request('POST', '/openapi/v3/entity/dataset/batchGet', { body: [{ urn: 'urn:li:corpuser:datahub' }] });
      assert.equal(wrongType.status, 400);
      assert.match(wrongType.json.message, /'\[0\]\.urn'.*not a dataset urn/);
      const noUrns = await server.request('POST', '/openapi/v2/entity/batch/dataset', { body: { aspectNames: [] } });
      assert.equal(noUrns.status, 400);
      assert.match(noUrns.json.message, /'urns'/);
    });
  });
}
