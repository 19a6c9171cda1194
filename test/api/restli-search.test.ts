import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const ds = (name: string, platform = 'hive', env = 'PROD') => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${env})`;
const SALES = ds('warehouse.sales_orders');
const ORDERS = ds('shop.orders', 'mysql');
const ORDERS_DEV = ds('shop.orders', 'mysql', 'DEV');
const USERS = ds('shop.users', 'mysql');
const GONE = ds('shop.orders_archive');
const GOLD = 'urn:li:tag:gold';
const FINANCE = 'urn:li:domain:finance';

interface SearchAnswer {
  entities: { entity: string; matchedFields: unknown[] }[];
  metadata: {
    aggregations: {
      name: string;
      displayName: string;
      aggregations: Record<string, number>;
      filterValues: { value: string; facetCount: number }[];
    }[];
  };
  from?: number;
  pageSize: number;
  numEntities: number;
  scrollId?: string;
}

for (const backend of await backends()) {
  describe(`Rest.li search actions on /entities: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        s,
        mcp(SALES, 'datasetProperties', { name: 'sales_orders', description: 'Every order, by day', customProperties: {} }),
        mcp(ORDERS, 'datasetProperties', { name: 'orders', description: 'Orders placed in the shop', customProperties: {} }),
        mcp(ORDERS_DEV, 'datasetProperties', { name: 'orders', description: 'A copy for development', customProperties: {} }),
        mcp(USERS, 'datasetProperties', { name: 'users', description: 'People who buy things', customProperties: {} }),
        mcp(ORDERS, 'globalTags', { tags: [{ tag: GOLD }] }),
        mcp(USERS, 'globalTags', { tags: [{ tag: GOLD }] }),
        mcp(GOLD, 'tagProperties', { name: 'gold', description: 'Curated orders' }, 'tag'),
        mcp(FINANCE, 'domainProperties', { name: 'Finance' }, 'domain'),
        mcp(GONE, 'datasetProperties', { name: 'orders_archive', description: 'Old orders', customProperties: {} }),
        mcp(GONE, 'status', { removed: true }),
      );
    });

    const action = async (name: string, body: Record<string, unknown>, prefix = '') => {
      const res = await server.request('POST', `${prefix}/entities?action=${name}`, { body });
      assert.equal(res.status, 200, `${name}: ${res.text}`);
      return res.json.value;
    };
    const refused = async (name: string, body: Record<string, unknown>, message: RegExp) => {
      const res = await server.request('POST', `/entities?action=${name}`, { body });
      assert.equal(res.status, 400, `${name}: ${res.status} ${res.text}`);
      assert.match(res.text, message);
    };
    const urnsOf = (r: SearchAnswer) => r.entities.map((e) => e.entity);
    const same = (actual: string[], expected: string[]) => assert.deepEqual([...actual].sort(), [...expected].sort());

    it('search answers a SearchResult: a ranked page, the total, and facets as counts and filter values', async () => {
      const r = (await action('search', { entity: 'dataset', input: 'orders', start: 0, count: 2 })) as SearchAnswer;
      assert.equal(r.numEntities, 3);
      assert.equal(r.from, 0);
      assert.equal(r.pageSize, 2);
      assert.equal(r.entities.length, 2);
      assert.deepEqual(r.entities[0]!.matchedFields, []);
      // An exact name first (both `orders`, ties by urn), the name's word later.
      assert.deepEqual(urnsOf(r), [ORDERS_DEV, ORDERS].sort());
      const platform = r.metadata.aggregations.find((a) => a.name === 'platform')!;
      assert.equal(platform.displayName, 'Platform');
      assert.deepEqual(platform.aggregations, { 'urn:li:dataPlatform:mysql': 2, 'urn:li:dataPlatform:hive': 1 });
      assert.deepEqual(platform.filterValues, [
        { value: 'urn:li:dataPlatform:mysql', facetCount: 2 },
        { value: 'urn:li:dataPlatform:hive', facetCount: 1 },
      ]);
      const next = (await action('search', { entity: 'dataset', input: 'orders', start: 2, count: 2 }, '/api/gms')) as SearchAnswer;
      assert.deepEqual(urnsOf(next), [SALES]);
    });

    it('reads filters in both forms: or of and (values or the older value) and the older criteria list', async () => {
      const byOr = (await action('search', {
        entity: 'dataset',
        input: '*',
        start: 0,
        count: 10,
        filter: {
          or: [
            { and: [{ field: 'origin', value: 'DEV' }] },
            {
              and: [
                { field: 'tags', values: [GOLD], condition: 'EQUAL' },
                { field: 'platform', values: ['urn:li:dataPlatform:mysql'] },
              ],
            },
          ],
        },
      })) as SearchAnswer;
      same(urnsOf(byOr), [ORDERS_DEV, ORDERS, USERS]);
      const byCriteria = (await action('search', {
        entity: 'dataset',
        input: '*',
        start: 0,
        count: 10,
        filter: {
          criteria: [
            { field: 'platform.keyword', value: 'urn:li:dataPlatform:mysql' },
            { field: 'origin', value: 'DEV', negated: true },
          ],
        },
      })) as SearchAnswer;
      same(urnsOf(byCriteria), [ORDERS, USERS]);
    });

    it('searchAcrossEntities searches the types named, or every type, and sorts when asked', async () => {
      const both = (await action('searchAcrossEntities', {
        entities: ['dataset', 'tag'],
        input: 'gold OR curated',
        start: 0,
        count: 10,
      })) as SearchAnswer;
      // The datasets tagged gold match too: their tags are searchable.
      same(urnsOf(both), [GOLD, ORDERS, USERS]);
      assert.equal(urnsOf(both)[0], GOLD);
      const all = (await action('searchAcrossEntities', { input: 'finance', start: 0, count: 10 })) as SearchAnswer;
      same(urnsOf(all), [FINANCE]);
      const sorted = (await action('searchAcrossEntities', {
        entities: ['dataset'],
        input: '*',
        start: 0,
        count: 10,
        sortCriteria: [{ field: 'urn', order: 'DESCENDING' }],
        searchFlags: { skipAggregates: true },
      })) as SearchAnswer;
      assert.deepEqual(urnsOf(sorted), [SALES, USERS, ORDERS, ORDERS_DEV].sort().reverse());
      assert.deepEqual(sorted.metadata, { aggregations: [] });
      const withRemoved = (await action('searchAcrossEntities', {
        entities: ['dataset'],
        input: 'archive',
        start: 0,
        count: 10,
        searchFlags: { includeSoftDeleted: true },
      })) as SearchAnswer;
      assert.deepEqual(urnsOf(withRemoved), [GONE]);
    });

    it('scrollAcrossEntities returns every match once, page by page, and no scrollId after the last', async () => {
      const seen: string[] = [];
      let scrollId: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const r = (await action('scrollAcrossEntities', {
          entities: ['dataset'],
          input: '*',
          count: 3,
          keepAlive: '5m',
          ...(scrollId ? { scrollId } : {}),
        })) as SearchAnswer;
        assert.equal(r.numEntities, 4);
        assert.equal(r.pageSize, 3);
        seen.push(...urnsOf(r));
        scrollId = r.scrollId;
        if (scrollId === undefined) break;
      }
      same(seen, [SALES, ORDERS, ORDERS_DEV, USERS]);
    });

    it('filter and list answer the matches of a filter alone', async () => {
      const filter = { or: [{ and: [{ field: 'tags', values: [GOLD] }] }] };
      const filtered = (await action('filter', { entity: 'dataset', filter, start: 0, count: 10 })) as SearchAnswer;
      same(urnsOf(filtered), [ORDERS, USERS]);
      assert.equal(filtered.numEntities, 2);
      const listed = (await action('list', {
        entity: 'dataset',
        filter,
        sortCriteria: [{ field: 'urn', order: 'ASCENDING' }],
        start: 1,
        count: 5,
      })) as Record<string, unknown>;
      assert.deepEqual(listed, { entities: [USERS], start: 1, count: 5, total: 2 });
    });

    it('autocomplete suggests the names that start with the query, with their urns', async () => {
      const r = await action('autocomplete', { entity: 'dataset', query: 'ord', limit: 5 });
      assert.equal(r.query, 'ord');
      // An exact name's word first; soft-deleted orders_archive is left out.
      assert.deepEqual(r.suggestions, ['orders', 'sales_orders']);
      same(
        r.entities.map((e: { urn: string }) => e.urn),
        [ORDERS, ORDERS_DEV, SALES],
      );
      const byField = await action('autocomplete', { entity: 'tag', query: 'go', field: 'name', limit: 5 });
      assert.deepEqual(byField.entities, [{ urn: GOLD }]);
    });

    it('counts the live entities of a type, and of several at once, a type with none as 0', async () => {
      assert.equal(await action('getTotalEntityCount', { entity: 'dataset' }), 4);
      assert.deepEqual(await action('batchGetTotalEntityCount', { entities: ['dataset', 'tag', 'chart'] }), { dataset: 4, tag: 1, chart: 0 });
    });

    it('refuses what it cannot answer with a 400 naming it', async () => {
      await refused('search', { entity: 'dataset', input: '*', start: 0, count: 10, view: 'x' }, /Unknown parameter 'view' for action 'search'/);
      await refused('search', { entity: 'dataset', input: '*', start: 0, count: 10_001 }, /'count' must be at most 10000/);
      await refused('search', { entity: 'dataset', input: '*', count: 10 }, /'start' is required/);
      await refused('search', { entity: 'dataset', input: '*', start: 0, count: 10, fulltext: 'yes' }, /'fulltext' must be a boolean/);
      await refused('search', { entity: 'nosuchthing', input: '*', start: 0, count: 10 }, /nosuchthing/);
      await refused('search', { entity: 'dataset', input: '(orders', start: 0, count: 10 }, /could not be parsed at position/);
      await refused(
        'filter',
        { entity: 'dataset', filter: { or: [{ and: [{ field: 'noSuchField', values: ['x'] }] }] }, start: 0, count: 10 },
        /noSuchField/,
      );
      await refused(
        'filter',
        { entity: 'dataset', filter: { or: [{ and: [{ field: 'platform', values: ['x'], condition: 'FUZZY' }] }] }, start: 0, count: 10 },
        /FUZZY/,
      );
      await refused('filter', { entity: 'dataset', start: 0, count: 10 }, /'filter' is required/);
      await refused('scrollAcrossEntities', { input: '*', count: 10, scrollId: 'not-ours' }, /Invalid scrollId not-ours/);
      await refused('autocomplete', { entity: 'dataset', query: 'o', limit: 0 }, /'limit' must be at least 1/);
      await refused('batchGetTotalEntityCount', { entities: 'dataset' }, /'entities' must be a list of strings/);
    });
  });
}
