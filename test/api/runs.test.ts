import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

// /runs?action=list|describe|rollback over real HTTP: what `datahub ingest list-runs`, `show` and `rollback` call.

const T0 = Date.UTC(2026, 3, 1, 12);
const enc = encodeURIComponent;
let seq = 0;

/** An MCP as `datahub ingest` sends it: the pipeline's run id in its systemMetadata. */
const inRun = (runId: string, urn: string, aspect: string, value: unknown, entityType = 'dataset') => ({
  ...mcp(urn, aspect, value, entityType),
  systemMetadata: { runId, lastObserved: T0, lastRunId: 'no-run-id-provided', pipelineName: 'almanac-test' },
});

const post = (server: TestServer, action: string, body: unknown, auth?: string): Promise<HttpResult> =>
  server.request('POST', `/runs?action=${action}`, { body, ...(auth ? { auth } : {}) });

async function ok(res: Promise<HttpResult>) {
  const r = await res;
  assert.equal(r.status, 200, r.text);
  return r.json.value;
}

const aspectText = async (server: TestServer, urn: string, aspect: string, version = 0) =>
  (await server.request('GET', `/aspects/${enc(urn)}?aspect=${aspect}&version=${version}`)).text;

/** Everything a client reads of these datasets (every version, profiles, the run list): equal means nothing changed. */
async function snapshot(server: TestServer, urns: readonly string[]): Promise<string> {
  const parts: unknown[] = [];
  for (const urn of urns) {
    parts.push((await server.request('GET', `/entitiesV2/${enc(urn)}`)).json);
    for (const aspect of ['status', 'datasetProperties', 'globalTags', 'ownership', 'editableDatasetProperties']) {
      for (const version of [0, 1, 2]) parts.push(await aspectText(server, urn, aspect, version));
    }
    const profiles = await server.request('POST', '/aspects?action=getTimeseriesAspectValues', {
      body: { urn, entity: 'dataset', aspect: 'datasetProfile' },
    });
    parts.push(profiles.json);
  }
  parts.push(await ok(post(server, 'list', { pageOffset: 0, pageSize: 100, includeSoft: true })));
  return JSON.stringify(parts);
}

/**
 * Run 1 writes datasets a and b; run 2 changes a's properties, adds an owner and a profile to a, sends a's tags and
 * b's status again unchanged, and creates c, which someone then edits outside any run.
 */
async function twoRuns(server: TestServer) {
  const n = ++seq;
  const [a, b, c] = ['a', 'b', 'c'].map((x) => `urn:li:dataset:(urn:li:dataPlatform:hive,runs${n}.${x},PROD)`) as [string, string, string];
  const [run1, run2] = [`run-${n}-1`, `run-${n}-2`];
  await ingest(
    server,
    inRun(run1, a, 'status', { removed: false }),
    inRun(run1, a, 'datasetProperties', { name: 'a1', customProperties: { k: 'v1' } }),
    inRun(run1, a, 'globalTags', { tags: [{ tag: 'urn:li:tag:t1' }] }),
    inRun(run1, b, 'status', { removed: false }),
    inRun(run1, b, 'datasetProperties', { name: 'b1', customProperties: {} }),
  );
  const before = {
    props: await aspectText(server, a, 'datasetProperties'),
    tags: await aspectText(server, a, 'globalTags'),
    bProps: await aspectText(server, b, 'datasetProperties'),
  };
  await ingest(
    server,
    inRun(run2, a, 'datasetProperties', { name: 'a2', customProperties: { k: 'v2' } }),
    inRun(run2, a, 'globalTags', { tags: [{ tag: 'urn:li:tag:t1' }] }),
    inRun(run2, a, 'ownership', { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] }),
    inRun(run2, a, 'datasetProfile', { timestampMillis: T0, rowCount: 7 }),
    inRun(run2, b, 'status', { removed: false }),
    inRun(run2, c, 'status', { removed: false }),
    inRun(run2, c, 'datasetProperties', { name: 'c2', customProperties: {} }),
  );
  await ingest(server, mcp(c, 'editableDatasetProperties', { description: 'edited by hand' }));
  return { a, b, c, run1, run2, before };
}

for (const backend of await backends()) {
  describe(`ingestion runs (/runs): ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    it("describes a run's aspects: the latest versions whose value it wrote, paged, with the values on request", async () => {
      const { a, c, run2 } = await twoRuns(server);
      const rows = await ok(post(server, 'describe', { runId: run2, start: 0, count: 100, includeSoft: false, includeAspect: false }));
      assert.deepEqual(
        rows.map((r: { urn: string; aspectName: string; keyAspect: boolean; runId: string }) => [r.urn, r.aspectName, r.keyAspect, r.runId]),
        [
          [a, 'datasetProperties', false, run2],
          [a, 'ownership', false, run2],
          [c, 'datasetKey', true, run2],
          [c, 'datasetProperties', false, run2],
          [c, 'status', false, run2],
        ],
      );
      assert.ok(rows.every((r: { timestamp: number }) => typeof r.timestamp === 'number' && r.timestamp > 0));
      assert.deepEqual(Object.keys(rows[0]).sort(), ['aspectName', 'keyAspect', 'runId', 'timestamp', 'urn']);

      const page = await ok(
        server.request('POST', '/api/gms/runs?action=describe', { body: { runId: run2, start: 1, count: 2, includeAspect: true } }),
      );
      assert.deepEqual(
        page.map((r: { aspectName: string }) => r.aspectName),
        ['ownership', 'datasetKey'],
      );
      assert.deepEqual(page[0].aspect, { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] });
      assert.deepEqual(await ok(post(server, 'describe', { runId: 'never-ran', start: 0, count: 10 })), []);
    });

    it('lists runs newest first with their rows, paged as the CLI asks', async () => {
      const { run1, run2 } = await twoRuns(server);
      const runs = await ok(post(server, 'list', { pageOffset: 0, pageSize: 100, includeSoft: false }));
      const ours = runs.filter((r: { runId: string }) => [run1, run2].includes(r.runId));
      // Run 1 still owns a's status and tags, b's status and properties, and a's and b's keys.
      assert.deepEqual(
        ours.map((r: { runId: string; rows: number }) => [r.runId, r.rows]),
        [
          [run2, 5],
          [run1, 6],
        ],
      );
      assert.ok(ours[0].timestamp >= ours[1].timestamp);
      assert.ok(
        runs.some((r: { runId: string }) => r.runId === 'no-run-id-provided'),
        'writes outside any run are listed as DataHub lists them',
      );
      const second = await ok(post(server, 'list', { pageOffset: 1, pageSize: 1 }));
      assert.deepEqual(second, [runs[1]]);
    });

    it('answers a dry run with what would change, and changes nothing', async () => {
      const { a, b, c, run2 } = await twoRuns(server);
      const before = await snapshot(server, [a, b, c]);
      const soft = await ok(post(server, 'rollback', { runId: run2, dryRun: true, safe: true }));
      assert.deepEqual(
        soft.aspectRowSummaries.map((r: { urn: string; aspectName: string }) => [r.urn, r.aspectName]),
        [
          [a, 'datasetProperties'],
          [a, 'ownership'],
          [c, 'datasetProperties'],
          [c, 'status'],
        ],
      );
      assert.deepEqual(
        { ...soft, aspectRowSummaries: undefined },
        {
          aspectRowSummaries: undefined,
          entitiesAffected: 2,
          aspectsAffected: 1,
          entitiesDeleted: 1,
          aspectsReverted: 4,
          unsafeEntitiesCount: 1,
          unsafeEntities: [{ urn: c }],
        },
      );
      const hard = await ok(post(server, 'rollback', { runId: run2, dryRun: true, safe: false }));
      assert.equal(hard.aspectRowSummaries.length, 5);
      assert.equal(hard.aspectsReverted, 5);
      assert.equal(await snapshot(server, [a, b, c]), before);
    });

    it("rolls back softly: run 1's values come back exactly, run 2's new aspects and rows go, and the entity it created is soft-deleted", async () => {
      const { a, b, c, run1, run2, before } = await twoRuns(server);
      const request = `urn:li:dataHubExecutionRequest:${run2}`;
      await ingest(
        server,
        mcp(request, 'dataHubExecutionRequestResult', { status: 'SUCCESS', startTimeMs: T0, durationMs: 5 }, 'dataHubExecutionRequest'),
      );

      const res = await ok(post(server, 'rollback', { runId: run2, dryRun: false, safe: true }));
      assert.deepEqual(
        { ...res, aspectRowSummaries: res.aspectRowSummaries.length },
        // Four aspects rolled back and one profile row deleted; the kept key aspect is not counted.
        {
          aspectRowSummaries: 5,
          entitiesAffected: 2,
          aspectsAffected: 1,
          entitiesDeleted: 1,
          aspectsReverted: 5,
          unsafeEntitiesCount: 1,
          unsafeEntities: [{ urn: c }],
        },
      );
      // Exactly as run 1 left them: value, version, created stamp and systemMetadata.
      assert.equal(await aspectText(server, a, 'datasetProperties'), before.props);
      assert.equal((await server.request('GET', `/aspects/${enc(a)}?aspect=datasetProperties&version=1`)).status, 404);
      assert.equal((await server.request('GET', `/aspects/${enc(a)}?aspect=ownership`)).status, 404);
      assert.equal(await aspectText(server, b, 'datasetProperties'), before.bProps);
      // Sent again unchanged by run 2, a's tags were never run 2's: their value stays.
      assert.equal(JSON.parse(await aspectText(server, a, 'globalTags')).aspect['com.linkedin.common.GlobalTags'].tags[0].tag, 'urn:li:tag:t1');
      const profiles = await server.request('POST', '/aspects?action=getTimeseriesAspectValues', {
        body: { urn: a, entity: 'dataset', aspect: 'datasetProfile' },
      });
      assert.deepEqual(profiles.json.value.values, []);
      // c: soft-deleted, its hand edit kept for a re-ingestion to bring back.
      assert.deepEqual(JSON.parse(await aspectText(server, c, 'status')).aspect['com.linkedin.common.Status'], { removed: true });
      assert.equal((await server.request('GET', `/aspects/${enc(c)}?aspect=datasetProperties`)).status, 404);
      assert.equal((await server.request('GET', `/aspects/${enc(c)}?aspect=editableDatasetProperties`)).status, 200);
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn: c } })).json, { value: true });
      assert.equal(
        JSON.parse(await aspectText(server, request, 'dataHubExecutionRequestResult')).aspect['com.linkedin.execution.ExecutionRequestResult'].status,
        'ROLLED_BACK',
      );

      // What is left of run 2 is the soft-deleted entity's key: hidden unless asked for.
      assert.deepEqual(await ok(post(server, 'describe', { runId: run2, start: 0, count: 10 })), []);
      const soft = await ok(post(server, 'describe', { runId: run2, start: 0, count: 10, includeSoft: true }));
      assert.deepEqual(
        soft.map((r: { urn: string; aspectName: string }) => [r.urn, r.aspectName]),
        [[c, 'datasetKey']],
      );
      const listed = (await ok(post(server, 'list', { pageOffset: 0, pageSize: 100 }))).map((r: { runId: string }) => r.runId);
      assert.ok(listed.includes(run1) && !listed.includes(run2));
      assert.equal((await ok(post(server, 'rollback', { runId: run2, dryRun: false, safe: true }))).aspectsReverted, 0);
    });

    it('rolls back hard (--nuke, or the deprecated hardDelete): the entity the run created goes whole, with what others wrote on it', async () => {
      const { a, c, run2, before } = await twoRuns(server);
      const res = await ok(post(server, 'rollback', { runId: run2, dryRun: false, hardDelete: true }));
      assert.equal(res.entitiesDeleted, 1);
      assert.equal(res.aspectRowSummaries.length, 5);
      // Five aspects of the run, c's hand edit, and a's profile row.
      assert.equal(res.aspectsReverted, 7);
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn: c } })).json, { value: false });
      assert.equal((await server.request('GET', `/aspects/${enc(c)}?aspect=editableDatasetProperties`)).status, 404);
      assert.equal(await aspectText(server, a, 'datasetProperties'), before.props);
    });

    it('nukes what a soft rollback left of a run', async () => {
      const { c, run2 } = await twoRuns(server);
      await ok(post(server, 'rollback', { runId: run2, dryRun: false, safe: true }));
      // `safe` wins over the deprecated `hardDelete`, as in DataHub.
      const res = await ok(post(server, 'rollback', { runId: run2, dryRun: false, safe: false, hardDelete: false }));
      assert.deepEqual([res.entitiesDeleted, res.entitiesAffected], [1, 1]);
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn: c } })).json, { value: false });
      assert.deepEqual(await ok(post(server, 'describe', { runId: run2, start: 0, count: 10, includeSoft: true })), []);
    });

    it('refuses the default run id, unknown parameters and a missing dryRun, changing nothing', async () => {
      const { a, b, c, run2 } = await twoRuns(server);
      const before = await snapshot(server, [a, b, c]);
      const cases: Array<[string, unknown, RegExp]> = [
        [
          '/runs?action=rollback',
          { runId: 'no-run-id-provided', dryRun: false },
          /no-run-id-provided is a default run-id provided for non labeled ingestion runs/,
        ],
        [
          '/runs?action=rollback',
          { runId: run2, dryRun: false, hardDelet: true },
          /Unknown parameter 'hardDelet' for action 'rollback'; it takes runId, dryRun, hardDelete, safe/,
        ],
        ['/runs?action=rollback&force=true', { runId: run2, dryRun: false }, /Unknown parameter 'force' for action 'rollback'/],
        ['/runs?action=rollback', { runId: run2 }, /Parameter 'dryRun' is required/],
        ['/runs?action=rollback', { runId: run2, dryRun: 'no' }, /Parameter 'dryRun' must be a boolean/],
        ['/runs?action=rollback', { dryRun: false }, /Parameter 'runId' is required/],
        ['/runs?action=describe', { runId: run2 }, /Parameter 'start' is required/],
        ['/runs?action=undo', { runId: run2 }, /Unknown action 'undo' for resource 'runs'/],
      ];
      for (const [path, body, message] of cases) {
        const res = await server.request('POST', path, { body });
        assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}: ${res.text}`);
        assert.match(res.json.message, message);
      }
      assert.equal(await snapshot(server, [a, b, c]), before);
    });

    it('lets only holders of MANAGE_INGESTION roll back, dry run included; anyone signed in lists and describes', async () => {
      const { a, b, c, run2 } = await twoRuns(server);
      const actors = [];
      for (const role of ['Editor', 'Reader', 'none'] as const) actors.push(await actorWithRole(server, `runs-${role}-${seq}`, role));
      const before = await snapshot(server, [a, b, c]);
      for (const auth of actors) {
        for (const dryRun of [true, false]) {
          const res = await post(server, 'rollback', { runId: run2, dryRun }, auth);
          assert.equal(res.status, 403, res.text);
          assert.equal(res.json.message, 'User is unauthorized to update entity');
        }
        assert.equal((await post(server, 'list', { pageOffset: 0, pageSize: 10 }, auth)).status, 200);
        assert.equal((await post(server, 'describe', { runId: run2, start: 0, count: 10 }, auth)).status, 200);
      }
      assert.equal((await post(server, 'list', {}, 'Bearer nope')).status, 401);
      assert.equal(await snapshot(server, [a, b, c]), before);
      const admin = await actorWithRole(server, `runs-admin-${seq}`, 'Admin');
      assert.equal((await post(server, 'rollback', { runId: run2, dryRun: true }, admin)).status, 200);
    });
  });
}
