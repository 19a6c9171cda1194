import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PARTITION_MILLIS } from '../../src/storage/partitions.ts';
import type { NewTask, Store, TaskRecord, TimeseriesIndexRef, WriteOp } from '../../src/storage/store.ts';
import { newTruncationTask, truncationRecord, type TruncationParams } from '../../src/tasks/truncation/truncation-record.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { openStore } from '../../src/storage/open-store.ts';
import { useStore } from '../support/lifecycle.ts';

const DAY0 = Date.UTC(2026, 0, 1);
const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';
const PROFILE = { entityType: 'dataset', aspect: 'datasetProfile' } as const;
const USAGE = { entityType: 'dataset', aspect: 'datasetUsageStatistics' } as const;
const NO_BUDGET = { maxPartitions: 1000 };

const event = (index: TimeseriesIndexRef, ts: number, docId = `e${ts}`): WriteOp => ({
  kind: 'timeseries',
  ...index,
  urn: URN,
  timestampMillis: ts,
  docId,
  event: { timestampMillis: ts, pad: 'x'.repeat(200) },
  systemMetadata: null,
});

/** `perDay` events on each of `days` days, one every hour from midnight. */
async function fill(store: Store, index: TimeseriesIndexRef, days: number, perDay: number): Promise<number[]> {
  const stamps: number[] = [];
  for (let d = 0; d < days; d++) for (let h = 0; h < perDay; h++) stamps.push(DAY0 + d * PARTITION_MILLIS + h * 3_600_000);
  await store.aspects.write({ ops: stamps.map((ts) => event(index, ts)), actor: 'test', now: 1 });
  return stamps;
}

const remaining = async (store: Store, index: TimeseriesIndexRef) =>
  (await store.timeseries.queryTimeseries({ ...index, urn: URN, limit: 100_000 })).map((e) => e.timestampMillis).sort((a, b) => a - b);

/** A truncation task record to create, as the truncation code makes one. */
const task = (over: Partial<TruncationParams> & { nodeId?: string } = {}): NewTask => {
  const { nodeId = 'node-a', ...params } = over;
  return newTruncationTask(
    { nodeId, ownerPid: process.pid, ownerHost: 'host' },
    'urn:li:corpuser:datahub',
    {
      ...PROFILE,
      cutoffMillis: DAY0,
      strategy: 'rebuild',
      batchSize: 10000,
      timeoutSeconds: null,
      requestsPerSecond: null,
      totalRows: 10,
      rowsToDelete: 4,
      ...params,
    },
    1000,
  );
};
/** The record's truncation fields (params and progress). */
const view = (t: TaskRecord | undefined) => (t === undefined ? undefined : truncationRecord(t));

for (const backend of await backends()) {
  describe(`truncation conformance: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    let db: TestDatabase;
    useStore(backend, (s, d) => {
      store = s;
      db = d;
    });

    it('retires whole partitions before the cutoff and keeps counts exact, within the partition budget', async () => {
      const stamps = await fill(store, PROFILE, 5, 6);
      await fill(store, USAGE, 5, 2);
      const sizeBefore = await store.truncation.timeseriesIndexSizeBytes(PROFILE);
      const cutoff = DAY0 + 3 * PARTITION_MILLIS + 2 * 3_600_000;

      const first = await store.truncation.retireTimeseriesPartitionsBefore(PROFILE, cutoff, { maxPartitions: 2 });
      assert.deepEqual(first, { rows: 12, partitionsDropped: 2, freedBytes: 0 });
      const second = await store.truncation.retireTimeseriesPartitionsBefore(PROFILE, cutoff, NO_BUDGET);
      assert.deepEqual({ rows: second.rows, partitionsDropped: second.partitionsDropped }, { rows: 6, partitionsDropped: 1 });
      assert.equal((await store.truncation.retireTimeseriesPartitionsBefore(PROFILE, cutoff, NO_BUDGET)).partitionsDropped, 0);

      assert.deepEqual(
        await remaining(store, PROFILE),
        stamps.filter((t) => t >= DAY0 + 3 * PARTITION_MILLIS),
      );
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, cutoff), { matching: 2, total: 12 });
      assert.ok((await store.truncation.timeseriesIndexSizeBytes(PROFILE)) < sizeBefore);
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(USAGE, cutoff), { matching: 8, total: 10 });
    });

    it('gives a day written again after it was retired a new table, which reclaim leaves alone', async () => {
      // The retired tables are still there: reclaim has not run yet.
      await store.aspects.write({ ops: [event(PROFILE, DAY0 + 5, 'again'), event(PROFILE, DAY0 + 6, 'again')], actor: 'test', now: 2 });
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, DAY0 + PARTITION_MILLIS), { matching: 2, total: 14 });
      assert.deepEqual((await remaining(store, PROFILE)).slice(0, 2), [DAY0 + 5, DAY0 + 6]);
      let freed = 0;
      for (let done = false; !done;) {
        const r = await store.truncation.reclaimTimeseriesSpace(PROFILE, DAY0 + 3 * PARTITION_MILLIS, 50);
        freed += r.freedBytes;
        done = r.done;
      }
      assert.ok(freed > 0, 'the three retired tables were dropped');
      assert.equal((await store.truncation.reclaimTimeseriesSpace(PROFILE, DAY0 + 3 * PARTITION_MILLIS, 50)).freedBytes, 0);
      assert.deepEqual((await remaining(store, PROFILE)).slice(0, 2), [DAY0 + 5, DAY0 + 6]);
      await store.aspects.write({ ops: [event(PROFILE, DAY0 + 7, 'again')], actor: 'test', now: 2 });
      assert.equal((await store.truncation.retireTimeseriesPartitionsBefore(PROFILE, DAY0 + PARTITION_MILLIS, NO_BUDGET)).rows, 3);
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, DAY0 + PARTITION_MILLIS), { matching: 0, total: 12 });
    });

    it('trims the boundary partition by deleting, keeping an event exactly at the cutoff', async () => {
      const cutoff = DAY0 + 3 * PARTITION_MILLIS + 2 * 3_600_000;
      const step = await store.truncation.trimTimeseriesBoundary(PROFILE, cutoff);
      assert.deepEqual({ rows: step.rows, partitionsDropped: step.partitionsDropped }, { rows: 2, partitionsDropped: 0 });
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, cutoff + 1), { matching: 1, total: 10 });
      assert.equal((await store.truncation.trimTimeseriesBoundary(PROFILE, cutoff)).rows, 0);
    });

    it('rewrites the boundary partition when far more goes than stays, and takes writes afterwards', async () => {
      // Deleting must cost more than a new table: 10,010 rows go and 5 stay.
      const index = { entityType: 'dataset', aspect: 'boundaryRewrite' } as const;
      const cutoff = DAY0 + 20_000;
      const stamps = [...Array.from({ length: 10_010 }, (_, i) => DAY0 + i), ...Array.from({ length: 5 }, (_, i) => cutoff + i)];
      await store.aspects.write({ ops: stamps.map((ts) => event(index, ts)), actor: 'test', now: 3 });
      const step = await store.truncation.trimTimeseriesBoundary(index, cutoff);
      assert.equal(step.rows, 10_010);
      assert.ok(step.freedBytes < 0, 'the new generation holds the kept rows; the old one is given back by reclaim');
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(index, Number.MAX_SAFE_INTEGER), { matching: 5, total: 5 });
      assert.deepEqual(await remaining(store, index), stamps.slice(10_010));
      await store.aspects.write({ ops: [event(index, cutoff - 1)], actor: 'test', now: 3 });
      let freed = 0;
      for (let done = false; !done;) {
        const r = await store.truncation.reclaimTimeseriesSpace(index, cutoff, 50);
        freed += r.freedBytes;
        done = r.done;
      }
      assert.ok(freed > -step.freedBytes, 'the old generation held more than the new one');
      assert.deepEqual(await remaining(store, index), [cutoff - 1, ...stamps.slice(10_010)]);
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(index, cutoff), { matching: 1, total: 6 });
    });

    it('keeps a write of another process that cached a day this one retired and dropped', async (t) => {
      const index = { entityType: 'dataset', aspect: 'twoProcesses' } as const;
      const other = await openStore(db.config);
      t.after(() => other.database.close());
      await other.aspects.write({ ops: [event(index, DAY0 + 1), event(index, DAY0 + PARTITION_MILLIS)], actor: 'test', now: 4 });
      assert.equal((await store.truncation.retireTimeseriesPartitionsBefore(index, DAY0 + PARTITION_MILLIS, NO_BUDGET)).rows, 1);
      for (let done = false; !done;) done = (await store.truncation.reclaimTimeseriesSpace(index, DAY0 + PARTITION_MILLIS, 50)).done;
      // `other` still believes the day's first table is live.
      await other.aspects.write({ ops: [event(index, DAY0 + 2)], actor: 'test', now: 4 });
      assert.deepEqual(await remaining(store, index), [DAY0 + 2, DAY0 + PARTITION_MILLIS]);
      assert.deepEqual(await remaining(other, index), [DAY0 + 2, DAY0 + PARTITION_MILLIS]);
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(index, DAY0 + PARTITION_MILLIS), { matching: 1, total: 2 });
    });

    it('deletes by query in batches across partitions, oldest first', async () => {
      const stamps = (await remaining(store, USAGE)).slice(0, 7);
      const cutoff = stamps[6]!;
      const first = await store.truncation.deleteTimeseriesRowsBefore(USAGE, cutoff, 4);
      assert.equal(first.rows, 4);
      assert.deepEqual((await remaining(store, USAGE))[0], stamps[4]);
      assert.equal((await store.truncation.deleteTimeseriesRowsBefore(USAGE, cutoff, 4)).rows, 2);
      assert.equal((await store.truncation.deleteTimeseriesRowsBefore(USAGE, cutoff, 4)).rows, 0);
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(USAGE, Number.MAX_SAFE_INTEGER), { matching: 4, total: 4 });
    });

    it('reclaims freed space until nothing is left to give back', async () => {
      let done = false;
      for (let i = 0; i < 1000 && !done; i++) {
        const r = await store.truncation.reclaimTimeseriesSpace(PROFILE, DAY0 + 10 * PARTITION_MILLIS, 50);
        assert.ok(r.reclaimedBytes >= 0);
        done = r.done;
      }
      assert.ok(done);
    });

    it('answers nothing to do for an index that was never written', async () => {
      const none = { entityType: 'chart', aspect: 'chartUsageStatistics' };
      assert.deepEqual(await store.truncation.retireTimeseriesPartitionsBefore(none, DAY0, NO_BUDGET), {
        rows: 0,
        partitionsDropped: 0,
        freedBytes: 0,
      });
      assert.deepEqual(await store.truncation.reclaimTimeseriesSpace(none, DAY0, 50), { freedBytes: 0, reclaimedBytes: 0, done: true });
      assert.deepEqual(await store.truncation.trimTimeseriesBoundary(none, DAY0 + 5), { rows: 0, partitionsDropped: 0, freedBytes: 0 });
      assert.deepEqual(await store.truncation.deleteTimeseriesRowsBefore(none, DAY0, 10), { rows: 0, partitionsDropped: 0, freedBytes: 0 });
      assert.equal(await store.truncation.timeseriesIndexSizeBytes(none), 0);
    });

    it('records one running truncation per index and returns the running one on conflict', async () => {
      const created = await store.tasks.createTask(task());
      assert.ok('created' in created);
      const t = created.created;
      assert.equal(t.state, 'running');
      assert.ok(t.number > 0);
      assert.equal(view(t)!.rowsDeleted, 0);
      assert.equal(view(t)!.sizeBytesAfter, null);

      const again = await store.tasks.createTask(task({ nodeId: 'node-b' }));
      assert.ok('running' in again);
      assert.equal(again.running.number, t.number);
      const other = await store.tasks.createTask(task({ ...USAGE }));
      assert.ok('created' in other && other.created.number > t.number);

      const updated = view(await store.tasks.updateTask(t, { progress: { rowsDeleted: 3, batches: 2, freedBytes: 99 } }, { whileRunning: true }));
      assert.deepEqual([updated?.rowsDeleted, updated?.batches, updated?.freedBytes], [3, 2, 99]);
      const cancelled = await store.tasks.requestTaskCancel(t);
      assert.equal(cancelled?.cancelRequested, true);
      await store.tasks.updateTask(t, { state: 'completed', endedAt: 2000 });
      assert.equal(await store.tasks.updateTask(t, { progress: { rowsDeleted: 4 } }, { whileRunning: true }), undefined);
      assert.equal(view(await store.tasks.updateTask(t, { progress: { sizeBytesAfter: 10 } }))?.sizeBytesAfter, 10);
      // A progress patch merges: what it does not name stays.
      assert.deepEqual([view(await store.tasks.getTask(t))?.rowsDeleted, view(await store.tasks.getTask(t))?.batches], [3, 2]);

      const next = await store.tasks.createTask(task());
      assert.ok('created' in next);
      assert.deepEqual(
        (await store.tasks.listTasks({ limit: 10 })).map((r) => r.number),
        [next.created.number, other.created.number, t.number],
      );
      assert.deepEqual(
        (await store.tasks.listTasks({ state: 'completed', limit: 10 })).map((r) => r.number),
        [t.number],
      );
      assert.equal(await store.tasks.getTask({ nodeId: 'node-b', number: t.number }), undefined);
    });

    it('refreshes heartbeats of a node’s running tasks only', async () => {
      await store.tasks.heartbeatTasks('node-a', 5000);
      const running = await store.tasks.listTasks({ state: 'running', limit: 10 });
      assert.ok(running.length > 0);
      for (const r of running) assert.equal(r.heartbeatAt, 5000);
      assert.equal((await store.tasks.listTasks({ state: 'completed', limit: 1 }))[0]!.heartbeatAt, 1000);
    });

    it('tells whether a task node is alive where the backend can', async () => {
      await store.tasks.registerTaskNode('node-live');
      const alive = await store.tasks.isTaskNodeAlive('node-live');
      const dead = await store.tasks.isTaskNodeAlive('node-gone');
      if (backend.name === 'postgres') {
        assert.deepEqual([alive, dead], [true, false]);
      } else {
        assert.deepEqual([alive, dead], [undefined, undefined]);
      }
    });

    it("counts each step on its task in the step's own transaction, and only steps that changed something", async () => {
      // Indices no other test writes, so the exact counts are this test's own.
      const OPERATIONS = { entityType: 'dataset', aspect: 'operation' } as const;
      const CHART_USAGE = { entityType: 'chart', aspect: 'chartUsageStatistics' } as const;
      await fill(store, OPERATIONS, 4, 6);
      await fill(store, CHART_USAGE, 3, 4);
      const created = await store.tasks.createTask(task({ entityType: 'dashboard', aspect: 'dashboardUsageStatistics' }));
      assert.ok('created' in created);
      const ref = created.created;
      try {
        const cutoff = DAY0 + 2 * PARTITION_MILLIS + 3 * 3_600_000;
        const dropped = await store.truncation.retireTimeseriesPartitionsBefore(OPERATIONS, cutoff, NO_BUDGET, ref);
        const trimmed = await store.truncation.trimTimeseriesBoundary(OPERATIONS, cutoff, ref);
        assert.equal((await store.truncation.retireTimeseriesPartitionsBefore(OPERATIONS, cutoff, NO_BUDGET, ref)).partitionsDropped, 0);
        assert.equal((await store.truncation.trimTimeseriesBoundary(OPERATIONS, cutoff, ref)).rows, 0);
        const byQuery = await store.truncation.deleteTimeseriesRowsBefore(CHART_USAGE, DAY0 + PARTITION_MILLIS, 3, ref);
        assert.deepEqual([dropped.rows, dropped.partitionsDropped, trimmed.rows, byQuery.rows], [12, 2, 3, 3]);
        const counted = view(await store.tasks.getTask(ref))!;
        assert.deepEqual(
          [counted.rowsDeleted, counted.batches, counted.partitionsDropped, counted.freedBytes],
          [18, 3, 2, dropped.freedBytes + trimmed.freedBytes + byQuery.freedBytes],
        );
      } finally {
        await store.tasks.updateTask(ref, { state: 'completed', endedAt: 2000 });
      }
    });
  });
}
