import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const kafka = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:kafka,${name},PROD)`;
const ONE = kafka('test-browse-1');
const TWO = kafka('test-browse-2');
const THREE = kafka('test-browse-3');
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load)';
const FOLDER = 'urn:li:container:warehouse';

/** DataHub's browse smoke test's query. */
const BROWSE = `query browse($input: BrowseInput!) {
  browse(input: $input) { total entities { urn } groups { name count } metadata { path totalNumEntities } }
}`;
const BROWSE_V2 = `query browseV2($input: BrowseV2Input!) {
  browseV2(input: $input) { total count start groups { name count hasSubGroups entity { urn } } metadata { path totalNumEntities } }
}`;

for (const backend of await backends()) {
  describe(`browse, browseV2 and browsePaths over ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      // DataHub's browse smoke test data: two datasets under /prod/kafka1 and /prod/kafka2, one at /prod and /prod/kafka1.
      await ingest(
        s,
        mcp(ONE, 'browsePaths', { paths: ['/prod/kafka1', '/prod/kafka2'] }),
        mcp(TWO, 'browsePaths', { paths: ['/prod/kafka1', '/prod/kafka2'] }),
        mcp(THREE, 'browsePaths', { paths: ['/prod', '/prod/kafka1'] }),
        mcp(ONE, 'browsePathsV2', { path: [{ id: 'prod' }, { id: FOLDER, urn: FOLDER }] }),
        mcp(TWO, 'browsePathsV2', { path: [{ id: 'prod' }, { id: FOLDER, urn: FOLDER }, { id: 'deep' }] }),
        mcp(THREE, 'browsePathsV2', { path: [{ id: 'dev' }] }),
        mcp(FOLDER, 'containerProperties', { name: 'warehouse' }, 'container'),
        mcp(JOB, 'dataJobInfo', { name: 'load', type: 'COMMAND' }, 'dataJob'),
      );
    });

    it('lists the entities at a path and the groups below it, as DataHub smoke test expects', async () => {
      const root = await gqlData(server, BROWSE, { input: { type: 'DATASET', path: ['prod'], start: 0, count: 100 } });
      assert.deepEqual(root.browse.entities, [{ urn: THREE }]);
      assert.deepEqual(root.browse.groups, [
        { name: 'kafka1', count: 3 },
        { name: 'kafka2', count: 2 },
      ]);
      assert.deepEqual(root.browse.metadata, { path: ['prod'], totalNumEntities: 3 });
      const kafka1 = await gqlData(server, BROWSE, { input: { type: 'DATASET', path: ['prod', 'kafka1'], start: 0, count: 10 } });
      assert.deepEqual(kafka1.browse, {
        total: 3,
        entities: [{ urn: ONE }, { urn: TWO }, { urn: THREE }],
        groups: [],
        metadata: { path: ['prod', 'kafka1'], totalNumEntities: 0 },
      });
      const kafka2 = await gqlData(server, BROWSE, { input: { type: 'DATASET', path: ['prod', 'kafka2'], start: 0, count: 10 } });
      assert.deepEqual(kafka2.browse, {
        total: 2,
        entities: [{ urn: ONE }, { urn: TWO }],
        groups: [],
        metadata: { path: ['prod', 'kafka2'], totalNumEntities: 0 },
      });
    });

    it('groups browseV2 folders with their counts, the entity a folder names and whether it goes deeper', async () => {
      const top = await gqlData(server, BROWSE_V2, { input: { types: ['DATASET'], path: [] } });
      assert.deepEqual(top.browseV2, {
        total: 2,
        count: 10,
        start: 0,
        groups: [
          { name: 'prod', count: 2, hasSubGroups: true, entity: null },
          { name: 'dev', count: 1, hasSubGroups: false, entity: null },
        ],
        metadata: { path: [], totalNumEntities: 3 },
      });
      const prod = await gqlData(server, BROWSE_V2, { input: { type: 'DATASET', path: ['prod'] } });
      assert.deepEqual(prod.browseV2.groups, [{ name: FOLDER, count: 2, hasSubGroups: true, entity: { urn: FOLDER } }]);
      // A job without a browsePathsV2 is under its flow, DataHub's default.
      const jobs = await gqlData(server, BROWSE_V2, { input: { type: 'DATA_JOB', path: [] } });
      assert.deepEqual(jobs.browseV2.groups, [
        { name: 'urn:li:dataFlow:(airflow,etl,prod)', count: 1, hasSubGroups: false, entity: { urn: 'urn:li:dataFlow:(airflow,etl,prod)' } },
      ]);
    });

    it('answers an entity browse paths, stored or DataHub default', async () => {
      const data = await gqlData(
        server,
        `{ stored: browsePaths(input: { type: DATASET, urn: "${THREE}" }) { path }
           generated: browsePaths(input: { type: DATA_JOB, urn: "${JOB}" }) { path } }`,
      );
      assert.deepEqual(data, { stored: [{ path: ['prod'] }, { path: ['prod', 'kafka1'] }], generated: [{ path: ['airflow', 'prod'] }] });
    });

    it('refuses an urn of another type and a page size out of range', async () => {
      await gqlError(server, `{ browsePaths(input: { type: CHART, urn: "${ONE}" }) { path } }`, undefined, {
        code: 400,
        type: 'BAD_REQUEST',
        message: `urn: ${ONE} is not an entity of type CHART`,
      });
      await gqlError(
        server,
        BROWSE,
        { input: { type: 'DATASET', path: ['prod'], count: 5000 } },
        {
          code: 400,
          type: 'BAD_REQUEST',
          message: 'count must be from 0 to 1000, got 5000',
        },
      );
    });
  });
}
