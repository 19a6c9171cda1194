import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Json, WriteOp } from '../../src/storage/store.ts';
import { clientBackends, runDatahubCli, storedAspect } from '../support/datahub-client.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { DAY, datasetUrn, ended, storedStamps, waitForTask } from '../support/truncation.ts';

const NOW = Date.now();
const ago = (days: number) => NOW - days * DAY;
const ADMIN = 'urn:li:corpuser:datahub';

// Every default stage of datahub-gc on; only the execution request cleanup keeps fewer than its default 10 per source.
const RECIPE = [
  'source:',
  '  type: datahub-gc',
  '  config:',
  '    dry_run: false',
  '    execution_request_cleanup:',
  '      keep_history_min_count: 1',
  'sink:',
  '  type: datahub-rest',
  '  config:',
  '    server: ${DATAHUB_GMS_URL}',
  '    token: ${DATAHUB_GMS_TOKEN}',
  '',
].join('\n');

const STAGES = [
  'Expired Token Cleanup',
  'Truncate Indices',
  'Query Cleanup',
  'Soft Deleted Entities Cleanup',
  'Data Process Cleanup',
  'Execution request Cleanup',
];

const OPS = datasetUrn('gc.ops');
const LIVE = datasetUrn('gc.live');
const SOFT_OLD = datasetUrn('gc.soft_old');
const SOFT_NEW = datasetUrn('gc.soft_new');
const TAGGED = datasetUrn('gc.tagged');
const RETIRED_TAG = 'urn:li:tag:retired';
const KEPT_TAG = 'urn:li:tag:kept';
const FLOW = 'urn:li:dataFlow:(airflow,gc,prod)';
const JOB = `urn:li:dataJob:(${FLOW},load)`;
const JOB2 = `urn:li:dataJob:(${FLOW},export)`;
const dpi = (id: string) => `urn:li:dataProcessInstance:gc-${id}`;
const query = (id: string) => `urn:li:query:gc-${id}`;
const execution = (id: string) => `urn:li:dataHubExecutionRequest:gc-${id}`;
/** Runs of JOB by age in days: gc keeps the 5 newest and soft-deletes the rest; JOB2's 15-day-old run is past retention. */
const JOB_RUNS = [1, 2, 3, 4, 5, 6, 7, 20];

const dpiRun = (id: string, job: string, days: number) => [
  mcp(
    dpi(id),
    'dataProcessInstanceProperties',
    { name: id, created: { time: ago(days), actor: 'urn:li:corpuser:airflow' }, customProperties: {} },
    'dataProcessInstance',
  ),
  mcp(dpi(id), 'dataProcessInstanceRelationships', { parentTemplate: job, upstreamInstances: [] }, 'dataProcessInstance'),
  mcp(dpi(id), 'dataProcessInstanceRunEvent', { timestampMillis: ago(days), status: 'COMPLETE' }, 'dataProcessInstance'),
];
const queryProps = (id: string, source: string, days: number) =>
  mcp(
    query(id),
    'queryProperties',
    {
      statement: { value: `select '${id}'`, language: 'SQL' },
      source,
      created: { time: ago(days), actor: ADMIN },
      lastModified: { time: ago(days), actor: ADMIN },
    },
    'query',
  );
const executionRequest = (id: string, days: number) => [
  mcp(
    execution(id),
    'dataHubExecutionRequestInput',
    {
      task: 'RUN_INGEST',
      args: {},
      executorId: 'default',
      source: { type: 'SCHEDULED_INGESTION_SOURCE', ingestionSource: 'urn:li:dataHubIngestionSource:nightly' },
      requestedAt: ago(days),
    },
    'dataHubExecutionRequest',
  ),
  mcp(execution(id), 'dataHubExecutionRequestResult', { status: 'SUCCESS', startTimeMs: ago(days), durationMs: 1000 }, 'dataHubExecutionRequest'),
];

/** A soft delete written `days` ago: its status aspect's created time is what the soft-deleted cleanup ages. */
const softDeletedAgo = (server: TestServer, entityType: string, urn: string, days: number) =>
  server.app.services.store.aspects.write({
    ops: [{ kind: 'aspect', entityType, urn, aspect: 'status', value: { removed: true }, systemMetadata: null } satisfies WriteOp],
    actor: ADMIN,
    now: ago(days),
  });

/** The timestamps of one urn's rows of a timeseries aspect of a query, oldest first. */
async function queryStamps(server: TestServer, urn: string, aspect: string): Promise<number[]> {
  const res = await server.request('POST', '/aspects?action=getTimeseriesAspectValues', { body: { urn, entity: 'query', aspect, limit: 100 } });
  assert.equal(res.status, 200, res.text);
  return (res.json.value.values as Array<{ aspect: { value: string } }>)
    .map((v) => (JSON.parse(v.aspect.value) as { timestampMillis: number }).timestampMillis)
    .sort((a, b) => a - b);
}

const removed = async (server: TestServer, urn: string) => (await storedAspect(server, urn, 'status'))?.removed === true;
const exists = async (server: TestServer, urn: string) =>
  (await server.request('POST', '/entities?action=exists', { body: { urn } })).json.value as boolean;

for (const backend of await clientBackends()) {
  describe(`datahub-gc through \`datahub ingest\`, every default stage: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let report: Json;
    let output: string;
    useServer(backend, async (s) => {
      server = s;
      const store = server.app.services.store;
      const token = (id: string, expiresAt: number) =>
        store.identity.insertAccessToken({ id, name: id, description: null, actorUrn: ADMIN, ownerUrn: ADMIN, createdAt: ago(2), expiresAt });
      await token('gc-expired', ago(1));
      await token('gc-valid', NOW + DAY);
      await ingest(
        server,
        mcp(LIVE, 'datasetProperties', { name: 'live', customProperties: {} }),
        mcp(OPS, 'status', { removed: false }),
        ...[40, 35, 1].map((d) => mcp(OPS, 'operation', { timestampMillis: ago(d), lastUpdatedTimestamp: ago(d), operationType: 'INSERT' })),
        ...[40, 1].map((d) => mcp(OPS, 'datasetUsageStatistics', { timestampMillis: ago(d), uniqueUserCount: 1 })),
        ...[40, 1].map((d) => mcp(query('usage'), 'queryUsageStatistics', { timestampMillis: ago(d), queryCount: 1 }, 'query')),
        queryProps('stale', 'SYSTEM', 400),
        queryProps('fresh', 'SYSTEM', 1),
        queryProps('manual', 'MANUAL', 400),
        queryProps('soft', 'SYSTEM', 1),
        mcp(SOFT_OLD, 'datasetProperties', { name: 'old', customProperties: {} }),
        mcp(SOFT_NEW, 'datasetProperties', { name: 'new', customProperties: {} }),
        mcp(RETIRED_TAG, 'tagProperties', { name: 'retired' }, 'tag'),
        mcp(KEPT_TAG, 'tagProperties', { name: 'kept' }, 'tag'),
        mcp(TAGGED, 'globalTags', { tags: [{ tag: RETIRED_TAG }, { tag: KEPT_TAG }] }),
        mcp(FLOW, 'dataFlowInfo', { name: 'gc', customProperties: {} }, 'dataFlow'),
        mcp(JOB, 'dataJobInfo', { name: 'load', type: { string: 'BATCH' }, customProperties: {} }, 'dataJob'),
        mcp(JOB2, 'dataJobInfo', { name: 'export', type: { string: 'BATCH' }, customProperties: {} }, 'dataJob'),
        ...JOB_RUNS.flatMap((d) => dpiRun(`load-${d}`, JOB, d)),
        ...[1, 15].flatMap((d) => dpiRun(`export-${d}`, JOB2, d)),
        ...dpiRun('soft', JOB2, 30),
        ...executionRequest('new', 1),
        ...executionRequest('old', 100),
        ...executionRequest('older', 200),
      );
      await softDeletedAgo(server, 'dataset', SOFT_OLD, 20);
      await softDeletedAgo(server, 'dataset', SOFT_NEW, 0);
      await softDeletedAgo(server, 'tag', RETIRED_TAG, 20);
      await softDeletedAgo(server, 'query', query('soft'), 20);
      await softDeletedAgo(server, 'dataProcessInstance', dpi('soft'), 20);

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-gc-'));
      try {
        fs.writeFileSync(path.join(dir, 'recipe.yml'), RECIPE);
        output = (await runDatahubCli(server, 'ingest', '-c', path.join(dir, 'recipe.yml'), '--report-to', path.join(dir, 'report.json'))).stdout;
        report = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')) as Json;
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      // Truncations run as background tasks: wait for every one gc started.
      const tasks = (await server.request('GET', '/api/tasks?limit=50')).json.tasks as Array<{ id: string }>;
      for (const t of tasks) await waitForTask(server.request, t.id, ended);
    });

    it('exits 0 and every default stage ran without a failure or warning', () => {
      assert.match(output, /Pipeline finished successfully/);
      const source = (report.source as Json).report as Json;
      assert.deepEqual(source.failures, []);
      assert.deepEqual(source.warnings, []);
      const ran = Object.keys(source.ingestion_stage_durations as Json).join('\n');
      for (const stage of STAGES) assert.match(ran, new RegExp(`, ${stage} at `), stage);
    });

    it('leaves no expired token, and keeps the valid ones', async () => {
      const store = server.app.services.store;
      assert.equal(await store.identity.getAccessToken('gc-expired'), undefined);
      assert.ok(await store.identity.getAccessToken('gc-valid'));
    });

    it('truncates the usage and operation indices to the last 30 days', async () => {
      assert.deepEqual(await storedStamps(server.request, OPS, 'operation'), [ago(1)]);
      assert.deepEqual(await storedStamps(server.request, OPS, 'datasetUsageStatistics'), [ago(1)]);
      assert.deepEqual(await queryStamps(server, query('usage'), 'queryUsageStatistics'), [ago(1)]);
    });

    it('soft-deletes SYSTEM queries not modified for 180 days, and no other query', async () => {
      assert.equal(await removed(server, query('stale')), true);
      assert.equal(await removed(server, query('fresh')), false);
      assert.equal(await removed(server, query('manual')), false);
      assert.equal(((report.source as Json).report as Json).num_queries_soft_deleted, 1);
    });

    it('hard-deletes entities soft-deleted more than 10 days ago, with the references to them, and keeps recent ones', async () => {
      for (const urn of [SOFT_OLD, RETIRED_TAG, query('soft'), dpi('soft')]) assert.equal(await exists(server, urn), false, urn);
      assert.equal(await removed(server, SOFT_NEW), true);
      assert.deepEqual(await storedAspect(server, TAGGED, 'globalTags'), { tags: [{ tag: KEPT_TAG }] });
      assert.deepEqual(await storedAspect(server, KEPT_TAG, 'tagProperties'), { name: 'kept' });
      assert.equal(((report.source as Json).report as Json).num_hard_deleted, 4);
    });

    it("soft-deletes a job's runs beyond the 5 newest and those older than 10 days", async () => {
      for (const d of JOB_RUNS) assert.equal(await removed(server, dpi(`load-${d}`)), d > 5, `load-${d}`);
      assert.equal(await removed(server, dpi('export-1')), false);
      assert.equal(await removed(server, dpi('export-15')), true);
      assert.equal(await exists(server, JOB), true);
    });

    it('hard-deletes execution requests past 90 days, keeping the newest of the source', async () => {
      assert.equal(await exists(server, execution('new')), true);
      assert.equal(await exists(server, execution('old')), false);
      assert.equal(await exists(server, execution('older')), false);
      assert.equal(((report.source as Json).report as Json).ergc_records_deleted, 2);
    });

    it('leaves everything else as it was', async () => {
      assert.equal((await storedAspect(server, LIVE, 'datasetProperties'))?.name, 'live');
      assert.equal(await removed(server, LIVE), false);
      assert.equal(await exists(server, FLOW), true);
      assert.equal(await exists(server, JOB2), true);
      assert.equal(await exists(server, query('usage')), true);
    });
  });
}
