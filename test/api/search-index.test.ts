import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { patchMcp } from '../support/fixtures.ts';
import { gql, gqlData, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const SEARCH = `query s($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) {
    total
    searchResults { entity { urn } }
    facets { field aggregations { value count } }
  }
}`;
const SCROLL = `query s($input: ScrollAcrossEntitiesInput!) {
  scrollAcrossEntities(input: $input) { nextScrollId searchResults { entity { urn } } }
}`;

const ds = (name: string, platform = 'hive') => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
const SALES = ds('warehouse.sales_orders_2024');
const CAMEL = ds('crm.SalesOrders', 'mysql');
const ORDERS = ds('shop.orders');
const USERS = ds('shop.users', 'mysql');
const CAFE = ds('menu.cafe_items');
const GEO = ds('geo.places');
const GONE = ds('shop.orders_archive');
const enc = encodeURIComponent;

const props = (urn: string, name: string, description: string, customProperties: Record<string, string> = {}) =>
  mcp(urn, 'datasetProperties', { name, description, customProperties });
const schema = (urn: string, ...fieldPaths: string[]) =>
  mcp(urn, 'schemaMetadata', {
    schemaName: 's',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: fieldPaths.map((fieldPath) => ({ fieldPath, nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } } })),
  });

for (const backend of await backends()) {
  describe(`search over the index, DataHub's query language: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        s,
        props(SALES, 'sales_orders_2024', 'Every order of 2024, by day', { encoding: 'utf8', team: 'finance' }),
        props(CAMEL, 'SalesOrders', 'CRM copy of the orders'),
        props(ORDERS, 'orders', 'Orders placed in the shop'),
        props(USERS, 'users', 'People who buy things'),
        props(CAFE, 'Café items', 'Crème brûlée and friends'),
        props(GEO, 'places', 'Where things are'),
        schema(GEO, 'latitude', 'longitude'),
        mcp(ORDERS, 'globalTags', { tags: [{ tag: 'urn:li:tag:gold' }] }),
        mcp(USERS, 'globalTags', { tags: [{ tag: 'urn:li:tag:gold' }, { tag: 'urn:li:tag:pii' }] }),
        props(GONE, 'orders_archive', 'Old orders'),
        mcp(GONE, 'status', { removed: true }),
      );
    });

    const search = async (query: string, extra: Record<string, unknown> = {}) => {
      const r = await gqlData(server, SEARCH, { input: { types: ['DATASET'], query, start: 0, count: 50, ...extra } });
      return r.searchAcrossEntities as {
        total: number;
        searchResults: { entity: { urn: string } }[];
        facets: { field: string; aggregations: { value: string; count: number }[] }[];
      };
    };
    const urns = async (query: string, extra: Record<string, unknown> = {}) => (await search(query, extra)).searchResults.map((r) => r.entity.urn);
    const same = (actual: string[], expected: string[]) => assert.deepEqual([...actual].sort(), [...expected].sort());

    it('splits names on _ . - camelCase and digits, folds case and accents, and matches word starts', async () => {
      same(await urns('orders'), [SALES, CAMEL, ORDERS]);
      same(await urns('ORDERS 2024'), [SALES]);
      same(await urns('sales'), [SALES, CAMEL]);
      same(await urns('creme'), [CAFE]);
      same(await urns('cafe'), [CAFE]);
      same(await urns('ord'), [SALES, CAMEL, ORDERS]);
      same(await urns('nothingmatches'), []);
    });

    it('ranks an exact name first, then a name prefix, then the rest; ties by urn', async () => {
      const ranked = await urns('orders');
      assert.equal(ranked[0], ORDERS, 'the exact name');
      assert.deepEqual(ranked.slice(1), [CAMEL, SALES].sort());
    });

    it('reads phrases, exclusions, OR and parentheses', async () => {
      same(await urns('"orders placed"'), [ORDERS]);
      same(await urns('"placed orders"'), []);
      same(await urns('orders -sales'), [ORDERS]);
      same(await urns('users | places'), [USERS, GEO]);
      same(await urns('(users OR places) things'), [USERS, GEO]);
      same(await urns('orders AND shop'), [ORDERS]);
    });

    it('reads /q field queries, wildcards and _exists_', async () => {
      same(await urns('/q fieldPaths: latitude'), [GEO]);
      same(await urns('/q name: *rder*'), [SALES, CAMEL, ORDERS]);
      same(await urns('/q customProperties: encoding*'), [SALES]);
      same(await urns('/q _exists_:fieldPaths'), [GEO]);
      assert.ok(!(await urns('/q -_exists_:fieldPaths')).includes(GEO));
    });

    it('refuses a query it cannot read with a 400 naming the position', async () => {
      const res = await gql(server, SEARCH, { input: { types: ['DATASET'], query: 'orders)', start: 0, count: 10 } });
      assert.match(res.json.errors[0].message, /Field 'query' could not be parsed at position 7/);
      assert.equal(res.json.errors[0].extensions.code, 400);
    });

    it('filters with DataHub conditions, hides soft-deleted entities unless asked, and counts facets', async () => {
      const gold = [{ and: [{ field: 'tags', values: ['urn:li:tag:gold'] }] }];
      same(await urns('*', { orFilters: gold }), [ORDERS, USERS]);
      same(
        await urns('*', {
          orFilters: [
            {
              and: [
                { field: 'tags', values: ['urn:li:tag:gold'], negated: true },
                { field: 'platform', values: ['urn:li:dataPlatform:mysql'] },
              ],
            },
          ],
        }),
        [CAMEL],
      );
      same(await urns('orders', { orFilters: [{ and: [{ field: 'customProperties', values: ['team=finance'], condition: 'EQUAL' }] }] }), [SALES]);
      same(await urns('*', { orFilters: [{ and: [{ field: 'name', values: ['SALES'], condition: 'START_WITH' }] }] }), [SALES, CAMEL]);
      same(
        await urns('*', {
          orFilters: [
            {
              and: [
                { field: '_entityType', values: ['DATASET'] },
                { field: 'tags', values: ['urn:li:tag:pii'] },
              ],
            },
          ],
        }),
        [USERS],
      );
      assert.ok(!(await urns('orders')).includes(GONE));
      assert.ok((await urns('orders', { searchFlags: { includeSoftDeleted: true } })).includes(GONE));
      const result = await search('*');
      assert.equal(result.total, 6);
      const tags = result.facets.find((f) => f.field === 'tags')!.aggregations;
      assert.deepEqual(tags, [
        { value: 'urn:li:tag:gold', count: 2 },
        { value: 'urn:li:tag:pii', count: 1 },
      ]);
      const platforms = result.facets.find((f) => f.field === 'platform')!.aggregations;
      assert.deepEqual(platforms, [
        { value: 'urn:li:dataPlatform:hive', count: 4 },
        { value: 'urn:li:dataPlatform:mysql', count: 2 },
      ]);
    });

    it('autocompletes names from their first letters, exact names first, and aggregates facets alone', async () => {
      const ac = await gqlData(server, 'query a($input: AutoCompleteInput!) { autoComplete(input: $input) { query suggestions entities { urn } } }', {
        input: { type: 'DATASET', query: 'ord', limit: 5 },
      });
      // Names starting with the letters first, then names with a word starting with them (ties by urn).
      assert.deepEqual(ac.autoComplete.suggestions, ['orders', 'sales_orders_2024', 'SalesOrders']);
      assert.equal(ac.autoComplete.entities[0].urn, ORDERS);
      const sales = await gqlData(server, 'query a($input: AutoCompleteInput!) { autoComplete(input: $input) { suggestions } }', {
        input: { type: 'DATASET', query: 'Sales', limit: 5 },
      });
      assert.deepEqual([...sales.autoComplete.suggestions].sort(), ['SalesOrders', 'sales_orders_2024']);
      // Names starting with the text come in the order of their folded bytes ('_' before 'o'), read from the index
      // of names in that order: the first of them alone when one is asked for.
      const first = await gqlData(server, 'query a($input: AutoCompleteInput!) { autoComplete(input: $input) { suggestions } }', {
        input: { type: 'DATASET', query: 'SALES', limit: 1 },
      });
      assert.deepEqual(first.autoComplete.suggestions, ['sales_orders_2024']);
      const filtered = await gqlData(server, 'query a($input: AutoCompleteInput!) { autoComplete(input: $input) { suggestions } }', {
        input: { type: 'DATASET', query: 'sales', limit: 1, filters: [{ field: 'platform', values: ['urn:li:dataPlatform:mysql'] }] },
      });
      assert.deepEqual(filtered.autoComplete.suggestions, ['SalesOrders']);
      const multi = await gqlData(
        server,
        'query a($input: AutoCompleteMultipleInput!) { autoCompleteForMultiple(input: $input) { suggestions { type suggestions } } }',
        { input: { types: ['DATASET', 'DASHBOARD'], query: 'use' } },
      );
      assert.deepEqual(multi.autoCompleteForMultiple.suggestions, [{ type: 'DATASET', suggestions: ['users'] }]);
      const tooMany = await gql(server, 'query a($input: AutoCompleteInput!) { autoComplete(input: $input) { suggestions } }', {
        input: { type: 'DATASET', query: 'o', limit: 1000 },
      });
      assert.match(tooMany.json.errors[0].message, /limit must be from 1 to 100/);
      const agg = await gqlData(
        server,
        'query a($input: AggregateAcrossEntitiesInput!) { aggregateAcrossEntities(input: $input) { facets { field aggregations { value count } } } }',
        { input: { types: ['DATASET'], query: '*', facets: ['tags', '_entityType'] } },
      );
      assert.deepEqual(agg.aggregateAcrossEntities.facets, [
        {
          field: 'tags',
          aggregations: [
            { value: 'urn:li:tag:gold', count: 2 },
            { value: 'urn:li:tag:pii', count: 1 },
          ],
        },
        { field: '_entityType', aggregations: [{ value: 'DATASET', count: 6 }] },
      ]);
      const unknown = await gql(server, SEARCH, {
        input: { types: ['DATASET'], query: '*', orFilters: [{ and: [{ field: 'noSuchField', values: ['x'] }] }] },
      });
      assert.match(unknown.json.errors[0].message, /no entity type has a search field named noSuchField/);
    });

    it('scrolls every match once, page by page', async () => {
      const seen: string[] = [];
      let scrollId: string | null = null;
      for (let i = 0; i < 10; i++) {
        const r = await gqlData(server, SCROLL, { input: { types: ['DATASET'], query: '*', count: 2, ...(scrollId ? { scrollId } : {}) } });
        seen.push(...r.scrollAcrossEntities.searchResults.map((x: { entity: { urn: string } }) => x.entity.urn));
        scrollId = r.scrollAcrossEntities.nextScrollId;
        if (!scrollId) break;
      }
      assert.equal(seen.length, 6);
      assert.equal(new Set(seen).size, 6);
    });

    it('sees each kind of write at once: ingest, PATCH, soft delete, aspect and entity delete', async () => {
      const fresh = ds('late.arrivals');
      await ingest(server, props(fresh, 'arrivals', 'Flights that came late'));
      same(await urns('arrivals'), [fresh]);
      const patched = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: patchMcp(fresh, 'datasetProperties', [{ op: 'replace', path: '/description', value: 'Delayed trains' }]) },
      });
      assert.equal(patched.status, 200, patched.text);
      same(await urns('trains'), [fresh]);
      same(await urns('flights'), []);
      await ingest(server, mcp(fresh, 'status', { removed: true }));
      same(await urns('arrivals'), []);
      await ingest(server, mcp(fresh, 'status', { removed: false }));
      same(await urns('arrivals'), [fresh]);
      const aspectDelete = await server.request('POST', '/entities?action=delete', { body: { urn: fresh, aspectName: 'datasetProperties' } });
      assert.equal(aspectDelete.status, 200, aspectDelete.text);
      same(await urns('trains'), []);
      await ingest(server, props(fresh, 'arrivals', 'Back again'));
      same(await urns('again'), [fresh]);
      assert.equal((await server.request('POST', '/entities?action=delete', { body: { urn: fresh } })).status, 200);
      same(await urns('arrivals'), []);
      assert.equal((await server.request('GET', `/aspects/${enc(fresh)}?aspect=datasetProperties&version=0`)).status, 404);
    });

    it('a rollback puts back what the earlier run wrote, in the index too', async () => {
      const urn = ds('runs.rolled');
      const first = { ...props(urn, 'rolled', 'Written by the first run'), systemMetadata: { runId: 'search-run-1' } };
      const second = { ...props(urn, 'rolled', 'Overwritten by the second run'), systemMetadata: { runId: 'search-run-2' } };
      await ingest(server, first);
      await ingest(server, second);
      same(await urns('overwritten'), [urn]);
      const res = await server.request('POST', '/runs?action=rollback', { body: { runId: 'search-run-2', dryRun: false, safe: true } });
      assert.equal(res.status, 200, res.text);
      same(await urns('overwritten'), []);
      same(await urns('written first'), [urn]);
    });
  });
}
