import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { datasetUrn } from '../support/truncation.ts';

const SRC = datasetUrn('gql.lin_src');
const MID = Array.from({ length: 3 }, (_, i) => datasetUrn(`gql.lin_mid${i}`));
const LEAF = datasetUrn('gql.lin_leaf');
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,gql_lin,PROD),task)';
// Column-level lineage apart from the rest: FG_DS.b and FG_DS.c are read from FG_SRC.a.
const FG_SRC = datasetUrn('gql.lin_fg_src');
const FG_DS = datasetUrn('gql.lin_fg');
const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`;
// A job that copies FG_SRC.x into FG_DS.y: its column-level lineage goes through it.
const FG_JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,gql_fg,PROD),copy)';
const upstreams = (...urns: string[]) => ({
  upstreams: urns.map((dataset) => ({ dataset, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:datahub' } })),
});

const SCROLL = `query s($input: ScrollAcrossLineageInput!) {
  scrollAcrossLineage(input: $input) { nextScrollId count total searchResults { entity { urn } degree } }
}`;
const SCROLL_PATHS = `query s($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) { searchResults { entity { urn } degree paths { path { urn } } } } }`;
const SEARCH = `query s($input: SearchAcrossLineageInput!) { searchAcrossLineage(input: $input) { total searchResults { entity { urn type } degree } } }`;

for (const backend of await backends()) {
  describe(`GraphQL lineage search and entity lineage: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      // SRC feeds three MIDs, each feeding LEAF (three paths to it); a job reads LEAF.
      await ingest(
        s,
        ...MID.map((m) => mcp(m, 'upstreamLineage', upstreams(SRC))),
        mcp(LEAF, 'upstreamLineage', upstreams(...MID)),
        mcp(JOB, 'dataJobInputOutput', { inputDatasets: [LEAF], outputDatasets: [] }, 'dataJob'),
        mcp(
          FG_JOB,
          'dataJobInputOutput',
          {
            inputDatasets: [],
            outputDatasets: [],
            fineGrainedLineages: [
              { upstreamType: 'FIELD_SET', upstreams: [field(FG_SRC, 'x')], downstreamType: 'FIELD', downstreams: [field(FG_DS, 'y')] },
            ],
          },
          'dataJob',
        ),
        mcp(FG_SRC, 'status', { removed: false }),
        mcp(FG_DS, 'upstreamLineage', {
          upstreams: [],
          fineGrainedLineages: [
            {
              upstreamType: 'FIELD_SET',
              upstreams: [field(FG_SRC, 'a')],
              downstreamType: 'FIELD',
              downstreams: [field(FG_DS, 'b'), field(FG_DS, 'c')],
            },
          ],
        }),
      );
    });

    it('scrolls the walk a page at a time, nearest first', async () => {
      const seen: Array<[string, number]> = [];
      let scrollId: string | null = null;
      let pages = 0;
      do {
        const data: {
          scrollAcrossLineage: { nextScrollId: string | null; total: number; searchResults: Array<{ entity: { urn: string }; degree: number }> };
        } = await gqlData(server, SCROLL, {
          input: { urn: SRC, direction: 'DOWNSTREAM', query: '*', count: 2, ...(scrollId ? { scrollId } : {}) },
        });
        assert.equal(data.scrollAcrossLineage.total, 5);
        seen.push(...data.scrollAcrossLineage.searchResults.map((r): [string, number] => [r.entity.urn, r.degree]));
        scrollId = data.scrollAcrossLineage.nextScrollId;
        pages++;
      } while (scrollId);
      assert.equal(pages, 3);
      assert.deepEqual(seen, [...MID.map((m): [string, number] => [m, 1]), [LEAF, 2], [JOB, 3]]);
    });

    it('reports only the types asked for', async () => {
      const data = await gqlData(server, SEARCH, {
        input: { urn: SRC, direction: 'DOWNSTREAM', types: ['DATA_JOB'], orFilters: [{ and: [{ field: 'degree', values: ['3+'] }] }] },
      });
      assert.deepEqual(data.searchAcrossLineage, { total: 1, searchResults: [{ entity: { urn: JOB, type: 'DATA_JOB' }, degree: 3 }] });
    });

    it('answers an entity lineage field one hop away, with a path per neighbour', async () => {
      const data = await gqlData(
        server,
        `query l($urn: String!) { dataset(urn: $urn) { lineage(input: { direction: UPSTREAM, start: 0, count: 10 }) { start count total filtered relationships { type degree entity { urn } paths { path { urn } } } } } }`,
        { urn: LEAF },
      );
      assert.deepEqual(data.dataset.lineage, {
        start: 0,
        count: 3,
        total: 3,
        filtered: 0,
        relationships: MID.map((m) => ({ type: 'DownstreamOf', degree: 1, entity: { urn: m }, paths: [{ path: [{ urn: LEAF }, { urn: m }] }] })),
      });
    });

    it('applies the filters the SDK get_lineage sends (degree, removed, entity type) and search fields to the reached entities', async () => {
      // DataHubClient.lineage.get_lineage: every degree up to max_hops, not soft-deleted; the SDK sends types null.
      const sdk = {
        urn: LEAF,
        direction: 'UPSTREAM',
        count: 500,
        types: null,
        orFilters: [
          {
            and: [
              { field: 'degree', condition: 'EQUAL', values: ['1', '2'], negated: false },
              { field: 'removed', condition: 'EQUAL', values: ['true'], negated: true },
            ],
          },
        ],
        searchFlags: { groupingSpec: { groupingCriteria: { baseEntityType: 'SCHEMA_FIELD', groupingEntityType: 'SCHEMA_FIELD' } } },
      };
      const data = await gqlData(server, SCROLL, { input: sdk });
      // SRC was never ingested (only named as an upstream): it has no search document, so a field filter leaves it out, as DataHub's does.
      assert.deepEqual(
        data.scrollAcrossLineage.searchResults.map((r: { entity: { urn: string }; degree: number }) => [r.entity.urn, r.degree]),
        MID.map((m) => [m, 1]),
      );
      const jobs = await gqlData(server, SEARCH, {
        input: { urn: SRC, direction: 'DOWNSTREAM', orFilters: [{ and: [{ field: '_entityType', values: ['DATA_JOB'] }] }] },
      });
      assert.deepEqual(jobs.searchAcrossLineage, { total: 1, searchResults: [{ entity: { urn: JOB, type: 'DATA_JOB' }, degree: 3 }] });
    });

    it('reports the schema fields a walk reaches as their datasets, as DataHub groups them, unless a search asks not to', async () => {
      const input = { urn: field(FG_SRC, 'a'), direction: 'DOWNSTREAM' };
      const grouped = await gqlData(server, SCROLL_PATHS, { input });
      // One result for the dataset, with a path through each of its fields reached.
      assert.deepEqual(grouped.scrollAcrossLineage.searchResults, [
        {
          entity: { urn: FG_DS },
          degree: 1,
          paths: ['b', 'c'].map((f) => ({ path: [{ urn: field(FG_SRC, 'a') }, { urn: field(FG_DS, f) }] })),
        },
      ]);
      const fields = await gqlData(server, SEARCH, {
        input: {
          ...input,
          searchFlags: { groupingSpec: { groupingCriteria: [{ baseEntityType: 'SCHEMA_FIELD', groupingEntityType: 'SCHEMA_FIELD' }] } },
        },
      });
      assert.deepEqual(fields.searchAcrossLineage, {
        total: 2,
        searchResults: ['b', 'c'].map((f) => ({ entity: { urn: field(FG_DS, f), type: 'SCHEMA_FIELD' }, degree: 1 })),
      });
    });

    it('reports the job column-level lineage goes through as reached at the same degree, as DataHub does', async () => {
      const data = await gqlData(server, SCROLL_PATHS, { input: { urn: field(FG_SRC, 'x'), direction: 'DOWNSTREAM' } });
      assert.deepEqual(data.scrollAcrossLineage.searchResults, [
        { entity: { urn: FG_JOB }, degree: 1, paths: [{ path: [{ urn: field(FG_SRC, 'x') }, { urn: FG_JOB }] }] },
        { entity: { urn: FG_DS }, degree: 1, paths: [{ path: [{ urn: field(FG_SRC, 'x') }, { urn: FG_JOB }, { urn: field(FG_DS, 'y') }] }] },
      ]);
    });

    it('refuses what it cannot apply, naming the input', async () => {
      const refuse = (input: Record<string, unknown>, message: RegExp) =>
        gqlError(server, SEARCH, { input: { urn: SRC, direction: 'DOWNSTREAM', ...input } }, { code: 400, type: 'BAD_REQUEST', message });
      await refuse({ orFilters: [{ and: [{ field: 'nosuchfield', values: ['x'] }] }] }, /no entity type has a search field named nosuchfield/);
      await refuse({ orFilters: [{ and: [{ field: 'degree', values: ['4'] }] }] }, /4 is not a valid filter value for degree/);
      await refuse({ query: 'orders' }, /^query:/);
      await refuse({ urn: null }, /^urn:/);
      await gqlError(
        server,
        SCROLL,
        { input: { urn: SRC, direction: 'DOWNSTREAM', scrollId: 'nope' } },
        { code: 400, type: 'BAD_REQUEST', message: /^scrollId:/ },
      );
    });
  });
}
