import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

// The documents DataHub's client sends: DataHubGraph.get_urns_by_filter, and datahub-gc's data process cleanup.
const SCROLL_URNS = `query scrollUrnsWithFilters(
    $types: [EntityType!],
    $query: String!,
    $orFilters: [AndFilterInput!],
    $batchSize: Int!,
    $scrollId: String,
    $skipCache: Boolean!,
    $sortInput: SearchSortInput,
    $includeSoftDeleted: Boolean) {
    scrollAcrossEntities(input: {
        query: $query,
        count: $batchSize,
        scrollId: $scrollId,
        types: $types,
        orFilters: $orFilters,
        sortInput: $sortInput,
        searchFlags: {
            skipHighlighting: true
            skipAggregates: true
            skipCache: $skipCache
            includeSoftDeleted: $includeSoftDeleted
        }
    }) {
        nextScrollId
        searchResults {
            entity {
                urn
            }
            extraProperties {
                name
                value
            }
        }
    }
}`;
const DATAJOB_QUERY = `query listDataJobs($query:String!, $scrollId: String, $batchSize: Int) {
  scrollAcrossEntities(input: { types: [DATA_JOB], query: $query, count: $batchSize, scrollId: $scrollId }) {
    nextScrollId
    count
    searchResults {
      entity {
        type
        ... on DataJob {
          urn
          dataFlow { urn }
          type
          lastIngested
          subTypes { typeNames }
          jobId
          dataPlatformInstance { urn }
          runs { total }
        }
      }
    }
  }
}`;
const DATAFLOW_QUERY = `query listDataFlows($query:String!, $scrollId: String, $batchSize: Int) {
  scrollAcrossEntities(input: { types: [DATA_FLOW], query: $query, count: $batchSize, scrollId: $scrollId}) {
    nextScrollId
    count
    searchResults { entity { type ... on DataFlow { urn type orchestrator cluster lastIngested } } }
  }
}`;
const RUNS_QUERY = `query getDataJobRuns($dataJobUrn: String!, $start: Int!, $count: Int!) {
  dataJob(urn: $dataJobUrn) {
    runs(start: $start, count: $count) {
      runs { created { time actor } urn }
      __typename
    }
    __typename
  }
}`;
const SEARCH = `query s($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { start count total searchResults { entity { urn type } } } }`;

const ds = (platform: string, name: string, env = 'PROD') => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${env})`;
const A = ds('hive', 'search.a');
const B = ds('hive', 'search.b');
const C = ds('kafka', 'search.c');
const D = ds('hive', 'search.d', 'DEV');
const FLOW = 'urn:li:dataFlow:(airflow,nightly,prod)';
const JOB = `urn:li:dataJob:(${FLOW},load)`;
const OTHER_JOB = `urn:li:dataJob:(${FLOW},idle)`;
const dpi = (id: string) => `urn:li:dataProcessInstance:${id}`;
const DAY = 86_400_000;
const NOW = Date.now();
const filterRule = (field: string, values: string[], condition = 'EQUAL', negated = false) => ({
  field,
  values,
  condition,
  ...(negated ? { negated } : {}),
});

for (const backend of await backends()) {
  describe(`searchAcrossEntities and scrollAcrossEntities: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    /** Every urn of a get_urns_by_filter-style scroll, and how many pages it took. */
    const scrollAll = async (variables: Record<string, unknown>) => {
      const urns: string[] = [];
      let scrollId: string | null = null;
      let pages = 0;
      do {
        const data: { nextScrollId: string | null; searchResults: Array<{ entity: { urn: string }; extraProperties: unknown }> } = (
          await gqlData(server, SCROLL_URNS, { query: '*', skipCache: false, sortInput: null, includeSoftDeleted: null, ...variables, scrollId })
        ).scrollAcrossEntities;
        urns.push(...data.searchResults.map((r) => r.entity.urn));
        for (const r of data.searchResults) assert.deepEqual(r.extraProperties, []);
        scrollId = data.nextScrollId;
        pages++;
      } while (scrollId);
      return { urns, pages };
    };
    const dpiProps = (id: string, daysAgo: number) =>
      mcp(
        dpi(id),
        'dataProcessInstanceProperties',
        { name: id, created: { time: NOW - daysAgo * DAY, actor: 'urn:li:corpuser:airflow' }, customProperties: {} },
        'dataProcessInstance',
      );
    const dpiParent = (id: string, parent: string) =>
      mcp(dpi(id), 'dataProcessInstanceRelationships', { parentTemplate: parent, upstreamInstances: [] }, 'dataProcessInstance');
    const runEvent = (id: string) => mcp(dpi(id), 'dataProcessInstanceRunEvent', { timestampMillis: NOW, status: 'COMPLETE' }, 'dataProcessInstance');
    const query = (id: string, source: string, daysAgo: number) =>
      mcp(
        `urn:li:query:${id}`,
        'queryProperties',
        {
          statement: { value: `select ${id}`, language: 'SQL' },
          source,
          created: { time: NOW - daysAgo * DAY, actor: 'urn:li:corpuser:x' },
          lastModified: { time: NOW - daysAgo * DAY, actor: 'urn:li:corpuser:x' },
        },
        'query',
      );

    useServer(backend, async (s) => {
      server = s;
      await ingest(
        server,
        mcp(A, 'datasetProperties', { name: 'Alpha users', customProperties: { team: 'growth' } }),
        mcp(B, 'status', { removed: true }),
        mcp(C, 'status', { removed: false }),
        mcp(D, 'datasetProperties', { name: 'Delta', customProperties: {} }),
        mcp(FLOW, 'dataFlowInfo', { name: 'Nightly', customProperties: {} }, 'dataFlow'),
        mcp(JOB, 'dataJobInfo', { name: 'Load', type: { string: 'BATCH' }, customProperties: {} }, 'dataJob'),
        mcp(JOB, 'subTypes', { typeNames: ['Task'] }, 'dataJob'),
        mcp(OTHER_JOB, 'status', { removed: false }, 'dataJob'),
        dpiProps('old', 30),
        dpiParent('old', JOB),
        runEvent('old'),
        dpiProps('new', 1),
        dpiParent('new', JOB),
        runEvent('new'),
        dpiProps('quiet', 2),
        dpiParent('quiet', JOB),
        dpiProps('gone', 3),
        dpiParent('gone', JOB),
        runEvent('gone'),
        mcp(dpi('gone'), 'status', { removed: true }, 'dataProcessInstance'),
        query('stale', 'SYSTEM', 400),
        query('older', 'SYSTEM', 500),
        query('fresh', 'SYSTEM', 1),
        query('manual', 'MANUAL', 600),
      );
    });

    it("pages through get_urns_by_filter's platform filter, leaving soft-deleted entities out", async () => {
      const orFilters = [{ and: [filterRule('platform.keyword', ['urn:li:dataPlatform:hive']), filterRule('removed', ['true'], 'EQUAL', true)] }];
      const { urns, pages } = await scrollAll({ types: ['DATASET'], orFilters, batchSize: 1, includeSoftDeleted: false });
      assert.deepEqual(urns, [A, D]);
      assert.equal(pages, 2, 'the last page has no nextScrollId');
    });

    it('finds only soft-deleted entities of every default type, from their own index', async () => {
      const orFilters = [{ and: [filterRule('removed', ['true'])] }];
      const { urns } = await scrollAll({ types: null, orFilters, batchSize: 100, includeSoftDeleted: true });
      assert.deepEqual(urns, [B]);
      const dpis = await scrollAll({
        types: ['DATA_PROCESS_INSTANCE'],
        orFilters: [{ and: [filterRule('removed', ['true']), filterRule('created', [String(NOW - 2 * DAY)], 'LESS_THAN')] }],
        batchSize: 10,
        includeSoftDeleted: true,
      });
      assert.deepEqual(dpis.urns, [dpi('gone')]);
    });

    it("applies the env filter's OR groups (origin, or an env custom property)", async () => {
      const base = [filterRule('removed', ['true'], 'EQUAL', true)];
      const orFilters = [{ and: [...base, filterRule('origin', ['DEV'])] }, { and: [...base, filterRule('customProperties', ['team=growth'])] }];
      assert.deepEqual((await scrollAll({ types: ['DATASET'], orFilters, batchSize: 10 })).urns, [A, D]);
    });

    it('matches the query as a case-insensitive substring of the urn or any searchable value', async () => {
      assert.deepEqual((await scrollAll({ types: ['DATASET'], query: 'ALPHA', batchSize: 10 })).urns, [A]);
      assert.deepEqual((await scrollAll({ types: ['DATASET'], query: 'kafka', batchSize: 10 })).urns, [C]);
      assert.deepEqual((await scrollAll({ types: ['DATASET'], query: 'search.', batchSize: 10 })).urns, [A, D, C], 'urn order');
    });

    it('sorts as query cleanup asks: SYSTEM queries modified before a cutoff, oldest first', async () => {
      const orFilters = [
        {
          and: [
            filterRule('removed', ['true'], 'EQUAL', true),
            filterRule('source', ['SYSTEM']),
            filterRule('lastModifiedAt', [String(NOW - 180 * DAY)], 'LESS_THAN'),
          ],
        },
      ];
      const sortInput = { sortCriteria: [{ field: 'lastModifiedAt', sortOrder: 'ASCENDING' }] };
      const { urns, pages } = await scrollAll({ types: ['QUERY'], orFilters, sortInput, batchSize: 1 });
      assert.deepEqual(urns, ['urn:li:query:older', 'urn:li:query:stale']);
      assert.equal(pages, 2);
    });

    it("serves datahub-gc's data job and flow scrolls, and a job's runs as DataHub counts them", async () => {
      const jobs = (await gqlData(server, DATAJOB_QUERY, { query: '*', scrollId: null, batchSize: 500 })).scrollAcrossEntities;
      assert.equal(jobs.nextScrollId, null);
      assert.equal(jobs.count, 2);
      const load = jobs.searchResults.find((r: { entity: { urn: string } }) => r.entity.urn === JOB).entity;
      assert.deepEqual(load, {
        type: 'DATA_JOB',
        urn: JOB,
        dataFlow: { urn: FLOW },
        lastIngested: null,
        subTypes: { typeNames: ['Task'] },
        jobId: 'load',
        dataPlatformInstance: null,
        runs: { total: 2 },
      });
      const flows = (await gqlData(server, DATAFLOW_QUERY, { query: '*', scrollId: null, batchSize: 500 })).scrollAcrossEntities;
      assert.deepEqual(flows.searchResults, [
        { entity: { type: 'DATA_FLOW', urn: FLOW, orchestrator: 'airflow', cluster: 'prod', lastIngested: null } },
      ]);
      const runs = (await gqlData(server, RUNS_QUERY, { dataJobUrn: JOB, start: 0, count: 500 })).dataJob.runs;
      assert.deepEqual(
        runs.runs.map((r: { urn: string; created: { time: number; actor: string } }) => [r.urn, r.created.time, r.created.actor]),
        [
          [dpi('new'), NOW - DAY, 'urn:li:corpuser:airflow'],
          [dpi('old'), NOW - 30 * DAY, 'urn:li:corpuser:airflow'],
        ],
      );
      assert.equal((await gqlData(server, RUNS_QUERY, { dataJobUrn: OTHER_JOB, start: 0, count: 10 })).dataJob.runs.runs.length, 0);
    });

    it("reads a hit's dataset fields however they are selected: inline, through named fragments, aliased, or urns alone", async () => {
      const input = { types: ['DATASET'], query: '*', count: 10, orFilters: [{ and: [filterRule('origin', ['DEV'])] }] };
      const named = `query s($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) { searchResults { ...R } } }
        fragment R on SearchResult { entity { ...E } }
        fragment E on Entity { urn ... on Dataset { p: properties { name } exists status { removed } } }`;
      const inline = `query s($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
        searchResults { hit: entity { urn ... on Dataset { deprecation { deprecated } properties { name } } } } } }`;
      const urns = `query s($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) { searchResults { entity { urn type } } } }`;
      // The aspects each request reads of its hits, as the catalog is asked for them.
      const catalog = server.app.services.catalog as { getEntities: (urns: string[], aspects: string[]) => Promise<unknown> };
      const getEntities = catalog.getEntities;
      const reads: string[][] = [];
      catalog.getEntities = (urns, aspects) => {
        reads.push([...aspects].sort());
        return getEntities.call(server.app.services.catalog, urns, aspects);
      };
      try {
        assert.deepEqual((await gqlData(server, named, { input })).scrollAcrossEntities.searchResults, [
          { entity: { urn: D, p: { name: 'Delta' }, exists: true, status: null } },
        ]);
        assert.deepEqual(reads.splice(0), [['datasetProperties', 'status']]);
        assert.deepEqual((await gqlData(server, inline, { input })).searchAcrossEntities.searchResults, [
          { hit: { urn: D, deprecation: { deprecated: false }, properties: { name: 'Delta' } } },
        ]);
        assert.deepEqual(reads.splice(0), [['datasetProperties', 'deprecation']]);
        assert.deepEqual((await gqlData(server, urns, { input })).scrollAcrossEntities.searchResults, [{ entity: { urn: D, type: 'DATASET' } }]);
        assert.deepEqual(reads, [], 'urns alone read no aspect');
      } finally {
        catalog.getEntities = getEntities;
      }
    });

    it('pages searchAcrossEntities by start and count, with the total', async () => {
      const input = { types: ['DATASET'], query: '*', start: 1, count: 1 };
      assert.deepEqual((await gqlData(server, SEARCH, { input })).searchAcrossEntities, {
        start: 1,
        count: 1,
        total: 3,
        searchResults: [{ entity: { urn: D, type: 'DATASET' } }],
      });
      const soft = { types: ['DATASET'], query: '*', searchFlags: { includeSoftDeleted: true } };
      assert.equal((await gqlData(server, SEARCH, { input: soft })).searchAcrossEntities.total, 4);
      const legacy = {
        types: ['DATASET'],
        query: '*',
        filters: [
          { field: 'origin', values: ['PROD'] },
          { field: 'platform', values: ['urn:li:dataPlatform:kafka'] },
        ],
      };
      assert.deepEqual((await gqlData(server, SEARCH, { input: legacy })).searchAcrossEntities.searchResults, [
        { entity: { urn: C, type: 'DATASET' } },
      ]);
    });

    it('refuses what it cannot do, naming it: a condition, a type, a view, a scroll id', async () => {
      const bad = { code: 400, type: 'BAD_REQUEST' };
      await gqlError(
        server,
        SEARCH,
        { input: { query: '*', orFilters: [{ and: [filterRule('browsePathV2', ['x'], 'DESCENDANTS_INCL')] }] } },
        {
          ...bad,
          message: /^orFilters\[0\]\.and\[0\] \(browsePathV2\): condition DESCENDANTS_INCL is not supported/,
        },
      );
      await gqlError(
        server,
        SEARCH,
        { input: { query: '*', types: ['INGESTION_SOURCE'] } },
        { ...bad, message: 'types: Almanac does not search entities of type INGESTION_SOURCE' },
      );
      await gqlError(
        server,
        SEARCH,
        { input: { query: '*', viewUrn: 'urn:li:dataHubView:x' } },
        { ...bad, message: 'viewUrn: views are not supported by Almanac' },
      );
      await gqlError(
        server,
        SCROLL_URNS,
        { query: '*', batchSize: 1, skipCache: false, scrollId: 'nope' },
        { ...bad, message: /^Invalid scrollId nope/ },
      );
    });
  });
}
