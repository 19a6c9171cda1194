import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  DAY,
  HOUR,
  T0,
  createDataset,
  datasetUrn,
  dryRunCounts,
  ended,
  hourly,
  ingestEvents,
  settled,
  startTruncation,
  storedStamps,
  truncate,
  waitForTask,
} from '../support/truncation.ts';

const TAIL = 'This was a dry run. Run with dryRun = false to execute.';
const REBUILD = 'Reindexing the aspect without the deleted records. ';
const BY_QUERY = 'Issuing a delete by query request. ';
const PROFILE = { entityType: 'dataset', aspect: 'datasetProfile' };

for (const backend of await backends()) {
  describe(`timeseries truncation API: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    const request: TestServer['request'] = (...args) => server.request(...args);

    before(async () => {
      db = await backend.create();
      server = await startTestServer(db);
    });
    after(async () => {
      await server?.close();
      await db?.drop();
    });

    /** Each test owns one dataset; deleting it afterwards empties the indices for the next test. */
    async function withDataset(name: string, fn: (urn: string) => Promise<void>): Promise<void> {
      const urn = datasetUrn(name);
      await createDataset(request, urn);
      try {
        await fn(urn);
      } finally {
        await request('POST', '/entities?action=delete', { body: { urn } });
      }
    }

    const dryRun = async (body: Record<string, unknown>) => {
      const res = await truncate(request, { ...PROFILE, ...body });
      assert.equal(res.status, 200, res.text);
      return res.json.value as string;
    };

    it("answers a dry run with DataHub's exact message, keeping an event exactly at the cutoff", async () => {
      await withDataset('dry', async (urn) => {
        await ingestEvents(request, urn, hourly(3, 10));
        assert.equal(await dryRun({ endTimeMillis: T0 }), `Delete 0 out of 30 rows (0.00%). ${REBUILD}${TAIL}`);
        assert.equal(await dryRun({ endTimeMillis: T0 + DAY }), `Delete 10 out of 30 rows (33.33%). ${REBUILD}${TAIL}`);
        // T0 + DAY + 2h holds an event: strictly older means it is not counted.
        assert.equal(await dryRun({ endTimeMillis: T0 + DAY + 2 * HOUR }), `Delete 12 out of 30 rows (40.00%). ${REBUILD}${TAIL}`);
        assert.equal(await dryRun({ endTimeMillis: T0 + DAY + 2 * HOUR + 1 }), `Delete 13 out of 30 rows (43.33%). ${REBUILD}${TAIL}`);
        assert.equal(await dryRun({ endTimeMillis: T0 + 2 * DAY }), `Delete 20 out of 30 rows (66.67%). ${REBUILD}${TAIL}`);
        assert.equal(await dryRun({ endTimeMillis: T0 + 3 * DAY }), `Delete 30 out of 30 rows (100.00%). ${REBUILD}${TAIL}`);
        assert.equal(await dryRun({ endTimeMillis: T0 + DAY, forceDeleteByQuery: true }), `Delete 10 out of 30 rows (33.33%). ${BY_QUERY}${TAIL}`);
        assert.equal(
          await dryRun({ endTimeMillis: T0 + DAY, forceReindex: true, forceDeleteByQuery: false }),
          `Delete 10 out of 30 rows (33.33%). ${REBUILD}${TAIL}`,
        );
        assert.equal(await dryRun({ endTimeMillis: T0 + DAY, forceReindex: true }), `Delete 10 out of 30 rows (33.33%). ${REBUILD}${TAIL}`);
      });
    });

    it('answers 0.00% for an empty index and matches entity type and aspect in any case', async () => {
      const body = { entityType: 'DATASET', aspect: 'DatasetUsageStatistics', endTimeMillis: T0 };
      const res = await truncate(request, body);
      assert.deepEqual(res.json, { value: `Delete 0 out of 0 rows (0.00%). ${REBUILD}${TAIL}` });
      const chart = await truncate(request, { entityType: 'chart', aspect: 'chartusagestatistics', endTimeMillis: T0 });
      assert.equal(chart.json.value, `Delete 0 out of 0 rows (0.00%). ${REBUILD}${TAIL}`);
    });

    it("answers DataHub's flag conflict and runs nothing when both force flags agree", async () => {
      await withDataset('flags', async (urn) => {
        await ingestEvents(request, urn, hourly(1, 4));
        for (const flags of [
          { forceDeleteByQuery: true, forceReindex: true },
          { forceDeleteByQuery: false, forceReindex: false },
        ]) {
          const res = await truncate(request, { ...PROFILE, endTimeMillis: T0 + DAY, dryRun: false, ...flags });
          assert.deepEqual(res.json, { value: 'please only set forceReindex OR forceDeleteByQuery flags' });
        }
        assert.deepEqual(await storedStamps(request, urn), hourly(1, 4));
      });
    });

    it('deletes nothing when dryRun is omitted', async () => {
      await withDataset('omitted', async (urn) => {
        await ingestEvents(request, urn, hourly(2, 5));
        await dryRun({ endTimeMillis: T0 + 2 * DAY, batchSize: 1 });
        assert.deepEqual(await storedStamps(request, urn), hourly(2, 5));
        assert.equal((await request('GET', '/api/tasks?limit=1000')).json.tasks.filter((t: { rowsDeleted: number }) => t.rowsDeleted > 0).length, 0);
        // Rest.li clients may send booleans as strings: "true" is a dry run too, and "false" a real run.
        const asString = await truncate(request, { ...PROFILE, endTimeMillis: T0 + DAY, dryRun: 'true' });
        assert.match(asString.json.value, /^Delete \d+ out of \d+ rows .*This was a dry run\./);
        assert.deepEqual(await storedStamps(request, urn), hourly(2, 5));
        const id = (await truncate(request, { ...PROFILE, endTimeMillis: T0 + DAY, dryRun: 'false', forceDeleteByQuery: true })).json.value;
        const task = await waitForTask(request, id, ended);
        assert.deepEqual([task.state, task.batchSize], ['completed', 10_000]);
        assert.deepEqual(await storedStamps(request, urn), hourly(2, 5).slice(5));
      });
    });

    it('truncates to completion, keeping exactly the events at or after the cutoff and every other index', async () => {
      await withDataset('complete', async (urn) => {
        const profiles = hourly(4, 6);
        const usage = hourly(4, 3);
        await ingestEvents(request, urn, profiles);
        await ingestEvents(request, urn, usage, 'datasetUsageStatistics');
        const cutoff = T0 + 2 * DAY + 3 * HOUR;

        const id = await startTruncation(request, { endTimeMillis: cutoff });
        const task = await waitForTask(request, id, settled);
        assert.equal(task.state, 'completed');
        assert.equal(task.error, null);
        assert.equal(task.strategy, 'rebuild');
        assert.deepEqual([task.totalRows, task.rowsToDelete, task.rowsDeleted, task.partitionsDropped], [24, 15, 15, 2]);
        assert.equal(task.createdBy, 'urn:li:corpuser:datahub');
        assert.equal(task.cutoffMillis, cutoff);
        assert.ok(task.endedAt >= task.startedAt);
        assert.ok(task.sizeBytesBefore > task.sizeBytesAfter, JSON.stringify(task));
        assert.ok(task.freedBytes > 0 && task.reclaimedBytes >= 0);

        assert.deepEqual(
          await storedStamps(request, urn),
          profiles.filter((t) => t >= cutoff),
        );
        assert.deepEqual(await storedStamps(request, urn, 'datasetUsageStatistics'), usage);
        assert.deepEqual(await dryRunCounts(request, 'datasetProfile', cutoff + 1), [1, 9]);

        const status = await request('POST', '/operations?action=getEsTaskStatus', { body: { task: id } });
        const doc = JSON.parse(status.json.value as string);
        assert.equal(doc.completed, true);
        assert.equal(doc.taskId, id);
        assert.equal(doc.state, 'completed');
        assert.equal(doc.strategy, 'rebuild');
        assert.equal(doc.error, null);
        assert.deepEqual([doc.status.total, doc.status.deleted, doc.status.batches], [15, 15, task.batches]);
        assert.ok(Number.isInteger(doc.runTimeNanos) && doc.runTimeNanos >= 0);
        const [nodeId, taskId] = id.split(':');
        const byParts = await request('POST', '/operations?action=getEsTaskStatus', { body: { nodeId, taskId: Number(taskId) } });
        assert.equal(JSON.parse(byParts.json.value as string).taskId, id);
        const both = await request('POST', '/operations?action=getEsTaskStatus', { body: { nodeId, taskId: Number(taskId), task: id } });
        assert.equal(JSON.parse(both.json.value as string).taskId, id);

        const list = await request('GET', '/api/tasks?state=completed');
        assert.ok(list.json.tasks.some((t: { id: string }) => t.id === id));

        // A late event for a day the truncation took away is stored in a new table for that day, and kept.
        const late = T0 + DAY + 30 * 60_000;
        await ingestEvents(request, urn, [late]);
        assert.deepEqual(await storedStamps(request, urn), [late, ...profiles.filter((t) => t >= cutoff)]);
        assert.deepEqual(await dryRunCounts(request, 'datasetProfile', cutoff), [1, 10]);
      });
    });

    it('deletes by query in batches of batchSize, with the same result as the default strategy', async () => {
      await withDataset('byquery', async (urn) => {
        const stamps = hourly(3, 10);
        await ingestEvents(request, urn, stamps);
        const cutoff = T0 + 2 * DAY + 5 * HOUR;
        const id = await startTruncation(request, { endTimeMillis: cutoff, forceDeleteByQuery: true, batchSize: 10 });
        const task = await waitForTask(request, id, settled);
        assert.deepEqual(
          [task.state, task.strategy, task.rowsDeleted, task.batches, task.partitionsDropped],
          ['completed', 'delete_by_query', 25, 3, 0],
        );
        assert.deepEqual(
          await storedStamps(request, urn),
          stamps.filter((t) => t >= cutoff),
        );
        assert.deepEqual(await dryRunCounts(request, 'datasetProfile', T0 + 10 * DAY), [5, 5]);
      });
    });

    it('stops at timeoutSeconds with the rows deleted so far recorded and the counts consistent', async () => {
      await withDataset('timeout', async (urn) => {
        const stamps = hourly(3, 10);
        await ingestEvents(request, urn, stamps);
        const cutoff = T0 + 2 * DAY;
        // Two rows every half second: about four rows fit in the one-second budget.
        const id = await startTruncation(request, {
          endTimeMillis: cutoff,
          forceDeleteByQuery: true,
          batchSize: 2,
          requestsPerSecond: 4,
          timeoutSeconds: 1,
        });
        const task = await waitForTask(request, id, ended);
        assert.equal(task.state, 'timed_out');
        assert.ok(task.rowsDeleted > 0 && task.rowsDeleted < 20, JSON.stringify(task));
        assert.ok(task.endedAt - task.startedAt >= 1000);
        assert.ok(task.throttledMillis > 0);
        const left = await storedStamps(request, urn);
        assert.equal(left.length, 30 - task.rowsDeleted);
        assert.deepEqual(left, stamps.slice(task.rowsDeleted));
        assert.deepEqual(await dryRunCounts(request, 'datasetProfile', cutoff), [20 - task.rowsDeleted, 30 - task.rowsDeleted]);
        const doc = JSON.parse((await request('POST', '/operations?action=getEsTaskStatus', { body: { task: id } })).json.value as string);
        assert.deepEqual([doc.completed, doc.state, doc.status.deleted, doc.status.requests_per_second], [true, 'timed_out', task.rowsDeleted, 4]);
      });
    });

    it('refuses a second truncation of a running index with 409 naming the running task, and cancels it', async () => {
      await withDataset('conflict', async (urn) => {
        await ingestEvents(request, urn, hourly(2, 10));
        const id = await startTruncation(request, { endTimeMillis: T0 + 2 * DAY, forceDeleteByQuery: true, batchSize: 1, requestsPerSecond: 1 });
        const second = await truncate(request, { ...PROFILE, endTimeMillis: T0 + DAY, dryRun: false });
        assert.equal(second.status, 409);
        assert.equal(second.json.taskId, id);
        assert.equal(second.json.message, `A truncation of dataset_datasetprofileaspect_v1 is already running as task ${id}`);
        assert.equal(second.headers.get('x-restli-error-response'), 'true');

        const other = await startTruncation(request, { aspect: 'datasetUsageStatistics', endTimeMillis: T0 });
        assert.equal((await waitForTask(request, other, ended)).state, 'completed');

        const cancel = await request('POST', `/api/tasks/${id}/cancel`);
        assert.equal(cancel.status, 200, cancel.text);
        const task = await waitForTask(request, id, ended);
        assert.equal(task.state, 'cancelled');
        assert.equal(task.cancelRequested, true);
        assert.deepEqual(await dryRunCounts(request, 'datasetProfile', T0 + 10 * DAY), [20 - task.rowsDeleted, 20 - task.rowsDeleted]);
        assert.equal((await request('POST', `/api/tasks/${id}/cancel`)).json.state, 'cancelled');
      });
    });

    it('keeps every event ingested during a truncation at or after the cutoff', async () => {
      await withDataset('during', async (urn) => {
        const before = hourly(4, 10);
        await ingestEvents(request, urn, before);
        const cutoff = T0 + 3 * DAY + 4 * HOUR;
        // One day partition (10 rows) every half second: the task runs for about two seconds.
        const id = await startTruncation(request, { endTimeMillis: cutoff, requestsPerSecond: 20 });
        const during = [cutoff, cutoff + 1, T0 + 3 * DAY + 23 * HOUR, T0 + 5 * DAY, T0 + 9 * DAY + 7];
        await ingestEvents(request, urn, during);
        await ingestEvents(request, urn, [T0 + 3 * DAY + 5 * HOUR]); // an existing event again: overwritten, not doubled
        const mid = await request('GET', `/api/tasks/${id}`);
        assert.equal(mid.json.state, 'running', 'the task should still run while events arrive');
        const task = await waitForTask(request, id, ended);
        assert.equal(task.state, 'completed');
        const expected = [...before.filter((t) => t >= cutoff), ...during].sort((a, b) => a - b);
        assert.deepEqual(await storedStamps(request, urn), [...new Set(expected)]);
        assert.deepEqual(await dryRunCounts(request, 'datasetProfile', T0 + 100 * DAY), [expected.length - 1, expected.length - 1]);
      });
    });

    it('fails a task interrupted by a shutdown, keeps the data consistent, and lets it run again after restart', async () => {
      await withDataset('restart', async (urn) => {
        const stamps = hourly(4, 10);
        await ingestEvents(request, urn, stamps);
        const cutoff = T0 + 3 * DAY;
        const id = await startTruncation(request, { endTimeMillis: cutoff, requestsPerSecond: 10 });
        await waitForTask(request, id, (t) => t.rowsDeleted > 0);
        // A client waiting on the task must not hold the shutdown up for its whole minute.
        const received = new Promise<void>((resolve) => {
          const onRequest = (req: { url?: string }) => {
            if (!req.url?.includes('waitMillis=60000')) return;
            server.app.server.server.off('request', onRequest);
            resolve();
          };
          server.app.server.server.on('request', onRequest);
        });
        const waiting = request('GET', `/api/tasks/${id}?waitMillis=60000`);
        await received;
        await server.close();
        assert.equal((await waiting).status, 200);
        server = await startTestServer(db);

        const task = await waitForTask(request, id, ended);
        assert.equal(task.state, 'failed');
        assert.match(task.error, /server shut down before the task finished/);
        assert.ok(task.rowsDeleted >= 10 && task.rowsDeleted < 30);
        const left = await storedStamps(request, urn);
        assert.deepEqual(left, stamps.slice(stamps.length - left.length));
        assert.deepEqual(await dryRunCounts(request, 'datasetProfile', T0 + 100 * DAY), [left.length, left.length]);

        const again = await startTruncation(request, { endTimeMillis: cutoff });
        assert.equal((await waitForTask(request, again, ended)).state, 'completed');
        assert.deepEqual(
          await storedStamps(request, urn),
          stamps.filter((t) => t >= cutoff),
        );
      });
    });

    it('truncates a timeseries aspect of any entity in the registry, such as query usage', async () => {
      const urn = 'urn:li:query:truncation-usage';
      const proposal = (aspectName: string, value: unknown) => ({
        entityType: 'query',
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      });
      const ingest = async (proposals: unknown[]) => {
        const res = await request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } });
        assert.equal(res.status, 200, res.text);
      };
      await ingest([proposal('status', { removed: false })]);
      await ingest(hourly(2, 3).map((ts) => proposal('queryUsageStatistics', { timestampMillis: ts, queryCount: 1, userCounts: [] })));
      const index = { entityType: 'query', aspect: 'queryUsageStatistics', endTimeMillis: T0 + DAY };
      assert.equal((await truncate(request, index)).json.value, `Delete 3 out of 6 rows (50.00%). ${REBUILD}${TAIL}`);
      const id = (await truncate(request, { ...index, dryRun: false })).json.value as string;
      assert.equal((await waitForTask(request, id, ended)).state, 'completed');
      const left = await request('POST', '/aspects?action=getTimeseriesAspectValues', {
        body: { urn, entity: 'query', aspect: 'queryUsageStatistics' },
      });
      assert.equal(left.json.value.values.length, 3);
      await request('POST', '/entities?action=delete', { body: { urn } });
    });

    it('lists every timeseries index with its size, row count and time range', async () => {
      await withDataset('sizes', async (urn) => {
        await ingestEvents(request, urn, hourly(2, 3));
        const res = await request('POST', '/api/gms/operations?action=getIndexSizes', { body: {} });
        assert.equal(res.status, 200, res.text);
        const sizes = res.json.value.indexSizes as Array<Record<string, unknown>>;
        assert.deepEqual(sizes.map((s) => s.indexName).sort(), [
          'assertion_assertionruneventaspect_v1',
          'chart_chartusagestatisticsaspect_v1',
          'dashboard_dashboardusagestatisticsaspect_v1',
          'datajob_datahubingestioncheckpointaspect_v1',
          'datajob_datahubingestionrunsummaryaspect_v1',
          'dataprocessinstance_dataprocessinstanceruneventaspect_v1',
          'dataset_datasetprofileaspect_v1',
          'dataset_datasetusagestatisticsaspect_v1',
          'dataset_operationaspect_v1',
          'document_documentusagestatisticsaspect_v1',
          'query_queryusagestatisticsaspect_v1',
        ]);
        const profile = sizes.find((s) => s.indexName === 'dataset_datasetprofileaspect_v1')!;
        assert.equal(profile.entityName, 'dataset');
        assert.equal(profile.aspectName, 'datasetprofile');
        assert.equal(profile.rowCount, 6);
        assert.equal(profile.oldestTimestampMillis, T0);
        assert.equal(profile.newestTimestampMillis, T0 + DAY + 2 * HOUR);
        assert.ok((profile.sizeBytes as number) > 0);
        assert.equal(profile.sizeMb, (profile.sizeBytes as number) / 1000);
        assert.equal(profile.sizeInMb, (profile.sizeBytes as number) / 1_000_000);
        const chart = sizes.find((s) => s.indexName === 'chart_chartusagestatisticsaspect_v1')!;
        assert.deepEqual([chart.rowCount, 'oldestTimestampMillis' in chart], [0, false]);
      });
    });

    it('rejects every bad truncation input with a 400 that names the field', async () => {
      const base = { ...PROFILE, endTimeMillis: T0 };
      const tasksBefore = (await request('GET', '/api/tasks?limit=1000')).json.tasks.length;
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ aspect: 'datasetProfile', endTimeMillis: T0 }, /^Parameter 'entityType' is required$/],
        [{ entityType: 'dataset', endTimeMillis: T0 }, /^Parameter 'aspect' is required$/],
        [{ ...PROFILE }, /^Parameter 'endTimeMillis' is required$/],
        [{ ...base, entityType: 5 }, /^Parameter 'entityType' must be a string/],
        [{ ...base, aspect: ['datasetProfile'] }, /^Parameter 'aspect' must be a string/],
        [{ ...base, endTimeMillis: 'yesterday' }, /^Parameter 'endTimeMillis' must be an integer/],
        [{ ...base, endTimeMillis: 1.5 }, /^Parameter 'endTimeMillis' must be an integer/],
        [{ ...base, dryRun: 'yes' }, /^Parameter 'dryRun' must be a boolean/],
        [{ ...base, batchSize: 0 }, /^Parameter 'batchSize' must be at least 1, got 0$/],
        [{ ...base, batchSize: -5 }, /^Parameter 'batchSize' must be at least 1/],
        [{ ...base, batchSize: 'many' }, /^Parameter 'batchSize' must be an integer/],
        [{ ...base, batchSize: 3_000_000_000 }, /^Parameter 'batchSize' must be at most 2147483647, got 3000000000$/],
        [{ ...base, timeoutSeconds: 0 }, /^Parameter 'timeoutSeconds' must be at least 1, got 0$/],
        [{ ...base, timeoutSeconds: 2.5 }, /^Parameter 'timeoutSeconds' must be an integer/],
        [{ ...base, forceDeleteByQuery: 1 }, /^Parameter 'forceDeleteByQuery' must be a boolean/],
        [{ ...base, forceReindex: 'no' }, /^Parameter 'forceReindex' must be a boolean/],
        [{ ...base, requestsPerSecond: 0 }, /^Parameter 'requestsPerSecond' must be a number from 0\.01 to 1000000, got 0$/],
        [
          { ...base, entityType: 'spaceship' },
          /^Parameter 'entityType': 'spaceship' is not a known entity type\. Valid \(entityType, aspect\) pairs: \(assertion, assertionRunEvent\), .*\(dataset, datasetProfile\), /,
        ],
        [{ ...base, entityType: 'corpuser' }, /^Parameter 'entityType': entity type corpuser has no timeseries aspects/],
        [
          { ...base, aspect: 'status' },
          /^Parameter 'aspect': 'status' is not a timeseries aspect of entity type dataset\. Valid \(entityType, aspect\) pairs: .*\(chart, chartUsageStatistics\)/,
        ],
        [{ ...base, entityType: 'chart' }, /^Parameter 'aspect': 'datasetProfile' is not a timeseries aspect of entity type chart/],
      ];
      for (const [body, message] of cases) {
        // Bad input is refused the same way for a real run, and nothing starts.
        for (const variant of 'dryRun' in body ? [body] : [body, { ...body, dryRun: false }]) {
          const res = await truncate(request, variant);
          assert.equal(res.status, 400, `${JSON.stringify(variant)}: ${res.text}`);
          assert.match(res.json.message, message, JSON.stringify(variant));
          assert.equal(res.json.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException');
        }
      }
      assert.equal((await request('GET', '/api/tasks?limit=1000')).json.tasks.length, tasksBefore);
      const pairs = await truncate(request, { ...base, aspect: 'status' });
      assert.equal(pairs.json.validIndices.length, 11);
      assert.equal((await request('POST', '/operations?action=truncateTimeseriesAspect', { body: [1] })).status, 400);
      assert.match((await request('POST', '/operations?action=restoreIndices', { body: {} })).json.message, /Unknown action 'restoreIndices'/);
      assert.equal((await request('GET', '/api/tasks?limit=0')).status, 400);
      assert.equal((await request('GET', '/api/tasks?state=done')).status, 400);
      assert.match((await request('GET', '/api/tasks/abc:1?waitMillis=60001')).json.message, /^Parameter 'waitMillis' must be at most 60000/);
      assert.match((await request('GET', '/api/tasks/abc:1?waitMillis=-1')).json.message, /^Parameter 'waitMillis' must be at least 0/);
    });

    it("answers getEsTaskStatus's bad forms with DataHub's messages and an unknown task with its error document", async () => {
      const status = (body: unknown) => request('POST', '/operations?action=getEsTaskStatus', { body });
      const either = 'Please specify either Node ID + task ID OR composite task parameters';
      for (const body of [{}, { nodeId: 'abc' }, { taskId: 5 }, { nodeId: 'abc', taskId: 0 }]) {
        const res = await status(body);
        assert.deepEqual([res.status, res.json.message], [400, either], JSON.stringify(body));
      }
      const mismatch = await status({ nodeId: 'abc', taskId: 5, task: 'abc:6' });
      assert.deepEqual([mismatch.status, mismatch.json.message], [400, 'Please specify only one of Node ID + task ID OR composite task parameters']);
      for (const task of ['abc', 'abc:0', 'a b:5', 'abc:12x', ':5']) {
        const res = await status({ task });
        assert.deepEqual(
          [res.status, res.json.message],
          [400, `Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got ${task})`],
        );
      }
      assert.deepEqual((await status({ task: 'XIAMx5WySACgg9XxBgaKmw:12587' })).json, {
        value: '{"error":"Could not get task status for XIAMx5WySACgg9XxBgaKmw:12587"}',
      });
      assert.deepEqual((await status({ nodeId: 'XIAMx5WySACgg9XxBgaKmw', taskId: '12587' })).json, {
        value: '{"error":"Could not get task status for XIAMx5WySACgg9XxBgaKmw:12587"}',
      });
      assert.equal((await request('GET', '/api/tasks/XIAMx5WySACgg9XxBgaKmw:12587')).status, 404);
      assert.equal((await request('GET', '/api/tasks/not-a-task')).status, 400);
      assert.equal((await request('POST', '/api/tasks/XIAMx5WySACgg9XxBgaKmw:12587/cancel')).status, 404);
    });

    it("refuses callers without the privileges with DataHub's messages", async () => {
      const reader = await actorWithRole(server, 'truncation-reader', 'Reader');
      const call = (action: string, body: unknown) => request('POST', `/operations?action=${action}`, { body, auth: reader });
      const refused: Array<[string, unknown, string]> = [
        ['truncateTimeseriesAspect', { ...PROFILE, endTimeMillis: T0 }, 'User is unauthorized to truncate timeseries index'],
        ['getIndexSizes', {}, 'User is unauthorized to get index sizes.'],
        ['getEsTaskStatus', { task: 'abc:1' }, 'User is unauthorized to get ES task status'],
      ];
      for (const [action, body, message] of refused) {
        const res = await call(action, body);
        assert.deepEqual([res.status, res.json.message], [403, message], action);
      }
      assert.equal((await request('GET', '/api/tasks', { auth: reader })).status, 403);
      assert.equal((await request('POST', '/api/tasks/abc:1/cancel', { auth: reader })).status, 403);
    });
  });
}
