import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';
import { ingest, mcp } from '../support/graphql.ts';

const ds = (platform: string, name: string, env = 'PROD') => `urn:li:dataset:(urn:li:dataPlatform:${platform},search.${name},${env})`;
const SALES = ds('hive', 'sales_orders');
const CUSTOMERS = ds('hive', 'customers');
const DAILY = ds('snowflake', 'orders_daily');
const DEV = ds('snowflake', 'orders_dev', 'DEV');
const OLD = ds('hive', 'orders_old');
const CHART = 'urn:li:chart:(looker,orders_chart)';
const BOARD = 'urn:li:dashboard:(looker,orders_board)';
const FINANCE = 'urn:li:domain:finance';
const PRODUCT = 'urn:li:dataProduct:orders_product';
const PII = 'urn:li:tag:pii';

const audit = { time: 0, actor: 'urn:li:corpuser:datahub' };
const lastModified = { created: audit, lastModified: audit };
const sorted = (...urns: string[]) => [...urns].sort();

for (const backend of await clientBackends()) {
  describe(`DataHub Python SDK search (get_urns_by_filter, DataHubClient.search, Rest.li search): ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_search.py', async (server) => {
      await ingest(
        server,
        ...[SALES, CUSTOMERS, DAILY, DEV, OLD].map((urn) =>
          mcp(urn, 'datasetProperties', { name: urn.split(',')[1]!.replace('search.', ''), description: 'Search corpus', customProperties: {} }),
        ),
        mcp(OLD, 'status', { removed: true }),
        mcp(PII, 'tagProperties', { name: 'pii' }, 'tag'),
        mcp(CUSTOMERS, 'globalTags', { tags: [{ tag: PII }] }),
        mcp(DEV, 'globalTags', { tags: [{ tag: PII }] }),
        mcp(CHART, 'chartInfo', { title: 'Orders chart', description: '', lastModified }, 'chart'),
        mcp(BOARD, 'dashboardInfo', { title: 'Orders board', description: '', lastModified }, 'dashboard'),
        mcp(FINANCE, 'domainProperties', { name: 'Finance' }, 'domain'),
        mcp(PRODUCT, 'dataProductProperties', { name: 'Orders product' }, 'dataProduct'),
      );
      return { pii: PII };
    });

    it('get_urns_by_filter narrows by platform, env and entity type, across scroll pages', () => {
      const g = run.result.graph;
      assert.deepEqual(g.snowflakeDatasets, sorted(DAILY, DEV));
      assert.deepEqual(g.prodDatasets, sorted(SALES, CUSTOMERS, DAILY));
      assert.deepEqual(g.devAnything, [DEV]);
      assert.deepEqual(g.chartsAndDashboards, sorted(CHART, BOARD));
    });

    it('get_urns_by_filter reads a query, the removed status and extra filters', () => {
      const g = run.result.graph;
      assert.deepEqual(g.ordersQuery, sorted(SALES, DAILY, DEV));
      assert.deepEqual(g.hiveOrders, [SALES]);
      assert.deepEqual(g.hiveOrdersWithDeleted, sorted(SALES, OLD));
      assert.deepEqual(g.onlyDeleted, [OLD]);
      assert.deepEqual(g.tagged, sorted(CUSTOMERS, DEV));
      assert.deepEqual(g.fieldQuery, sorted(SALES, DAILY, DEV));
    });

    it('DataHubClient.search.get_urns applies the filter DSL: entity types, and_, or_, not_, custom filters', () => {
      const s = run.result.sdk;
      assert.deepEqual(s.datasets, sorted(SALES, CUSTOMERS, DAILY, DEV));
      assert.deepEqual(s.ordersDatasets, sorted(SALES, DAILY, DEV));
      assert.deepEqual(s.chartOrDashboard, sorted(CHART, BOARD));
      assert.deepEqual(s.snowflakeProd, [DAILY]);
      assert.deepEqual(s.ordersNotHive, sorted(DAILY, DEV));
      assert.deepEqual(s.customTag, sorted(CUSTOMERS, DEV));
      assert.deepEqual(s.customPrefix, sorted(DAILY, DEV));
      assert.deepEqual(s.dataProducts, [PRODUCT]);
    });

    it("DataHubGraph's Rest.li search helpers find a domain and a data product by name, and page a type", () => {
      const r = run.result.restli;
      assert.equal(r.domainByName, FINANCE);
      assert.equal(r.missingDomain, null);
      assert.equal(r.dataProductByName, PRODUCT);
      assert.equal(r.searchResults.numEntities, 4);
      assert.equal(r.searchResults.pageSize, 2);
      assert.equal(r.searchResults.entities.length, 2);
    });
  });
}
