import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { RetentionPolicies } from '../../src/catalog/retention/retention-policies.ts';
import { parseRetentionPolicy, toPolicyRecord } from '../../src/catalog/retention/retention-policy.ts';
import { openStore } from '../../src/storage/open-store.ts';
import { PARTITION_MILLIS } from '../../src/storage/partitions.ts';
import type { Store, WriteOp } from '../../src/storage/store.ts';
import { retentionJob } from '../../src/tasks/retention/retention-job.ts';
import { RETENTION_ACTOR } from '../../src/catalog/retention/retention-record.ts';
import { RetentionService } from '../../src/catalog/retention/retention-service.ts';
import { TaskRetentionRunner } from '../../src/tasks/retention/task-retention-runner.ts';
import { Scheduler } from '../../src/tasks/scheduler.ts';
import { TaskRunner } from '../../src/tasks/task-runner.ts';
import { TimeseriesOperations } from '../../src/tasks/truncation/timeseries-operations.ts';
import { truncationRecord } from '../../src/tasks/truncation/truncation-record.ts';
import { backends, type TestDatabase } from '../support/databases.ts';

const quiet = pino({ level: 'silent' });
const DAY = PARTITION_MILLIS;
const HOUR = 3_600_000;
/** The injected clock's start: 2026-11-24 02:00 UTC, an hour before the daily run. */
const START = Date.UTC(2026, 10, 24, 2, 0);

const urnOf = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const setPolicy = (store: Store, policies: RetentionPolicies, input: unknown, now = START) =>
  store.retention
    .putRetentionPolicy(toPolicyRecord(parseRetentionPolicy(input), 'api', 'urn:li:corpuser:datahub', now))
    .then(() => policies.reload());
const versioned = (entity: string, aspect: string, retention: object) => ({ entity, aspect, config: { retention } });

/** Writes `n` different values of the aspect, one per step of `stepMillis` from `from`. */
async function writeVersions(store: Store, urn: string, aspect: string, n: number, from = START, stepMillis = 1000): Promise<void> {
  for (let i = 0; i < n; i++) {
    const value = aspect === 'datasetProperties' ? { description: `v${i}` } : { text: `v${i}` };
    await store.aspects.write({
      ops: [{ kind: 'aspect', entityType: 'dataset', urn, aspect, value, systemMetadata: null }],
      actor: 'test',
      now: from + i * stepMillis,
    });
  }
}

const versionsOf = async (store: Store, urn: string, aspect: string) =>
  (await store.aspects.getAspectHistory(urn, aspect, 1000)).map(
    (a) => (a.value as { description?: string; text?: string }).description ?? (a.value as { text: string }).text,
  );

const profile = (urn: string, ts: number): WriteOp => ({
  kind: 'timeseries',
  entityType: 'dataset',
  aspect: 'datasetProfile',
  urn,
  timestampMillis: ts,
  docId: `p${ts}`,
  event: { timestampMillis: ts },
  systemMetadata: null,
});

for (const backend of await backends()) {
  describe(`retention: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let store: Store;
    const policies = new RetentionPolicies();
    let now = START;
    const clock = () => now;
    let runner: TaskRunner;
    let service: RetentionService;

    before(async () => {
      db = await backend.create();
      store = await openStore(db.config, { retention: policies });
      await policies.load(store.retention);
      runner = new TaskRunner(store, quiet, { clock });
      await runner.start();
      const operations = new TimeseriesOperations(store, runner, quiet, clock);
      service = new RetentionService(
        store,
        policies,
        new TaskRetentionRunner(store, runner, policies, operations, quiet, clock),
        quiet,
        { maxDeletePercent: 99 },
        clock,
      );
    });
    after(async () => {
      await runner.stop();
      await store.database.close();
      await db.drop();
    });

    it('stores, lists, replaces and deletes policies', async () => {
      await setPolicy(store, policies, versioned('corpuser', '*', { version: { maxVersions: 5 } }));
      await setPolicy(store, policies, versioned('corpuser', '*', { version: { maxVersions: 7 }, time: { maxAgeInSeconds: 60 } }));
      const listed = (await store.retention.listRetentionPolicies()).filter((p) => p.entityType === 'corpuser');
      assert.deepEqual(
        listed.map((p) => [p.entityType, p.aspect, p.maxVersions, p.maxAgeSeconds, p.source]),
        [['corpuser', '*', 7, 60, 'api']],
      );
      assert.equal(await store.retention.deleteRetentionPolicy('corpuser', '*'), true);
      assert.equal(await store.retention.deleteRetentionPolicy('corpuser', '*'), false);
      await policies.reload();
    });

    it('keeps on write at most maxVersions versions, the latest always among them', async () => {
      await setPolicy(store, policies, versioned('dataset', 'datasetProperties', { version: { maxVersions: 3 } }));
      const urn = urnOf('on-write');
      await writeVersions(store, urn, 'datasetProperties', 6);
      assert.deepEqual(await versionsOf(store, urn, 'datasetProperties'), ['v5', 'v4', 'v3']);
      const latest = await store.aspects.getAspect(urn, 'datasetProperties');
      assert.deepEqual(latest!.value, { description: 'v5' }, 'version 0 is the latest value');

      await setPolicy(store, policies, versioned('dataset', 'datasetProperties', { version: { maxVersions: 1 } }));
      await writeVersions(store, urn, 'datasetProperties', 2, START + 10_000);
      assert.deepEqual(await versionsOf(store, urn, 'datasetProperties'), ['v1'], 'maxVersions 1 keeps the latest alone');
    });

    it('keeps on write the versions younger than the age, and never the latest less', async () => {
      await setPolicy(store, policies, versioned('dataset', 'editableDatasetProperties', { time: { maxAgeInSeconds: 60 } }));
      const urn = urnOf('by-age');
      // Written a minute apart: at the last write, only the one before it is younger than 60 s.
      await writeVersions(store, urn, 'editableDatasetProperties', 4, START, 60_000);
      const kept = await store.aspects.getAspectHistory(urn, 'editableDatasetProperties', 100);
      assert.deepEqual(
        kept.map((a) => [a.version, (a.value as { text: string }).text]),
        [
          [0, 'v3'],
          [3, 'v2'],
        ],
      );
    });

    it('applies a new policy to versions written before it, and previews exactly what the pass deletes', async () => {
      const urns = Array.from({ length: 7 }, (_, i) => urnOf(`pass-${i}`));
      for (const [i, urn] of urns.entries()) await writeVersions(store, urn, 'globalTags', 3 + i);
      // Stored before any policy: 2 + 3 + ... + 8 earlier versions.
      await setPolicy(store, policies, versioned('dataset', 'globalTags', { version: { maxVersions: 2 } }));
      const [entry] = (await service.preview()).filter((p) => p.aspect === 'globalTags');
      assert.equal(entry!.kind, 'versioned');
      assert.equal(entry!.total, 2 + 3 + 4 + 5 + 6 + 7 + 8);
      assert.equal(entry!.delete, entry!.total - urns.length, 'each urn keeps one earlier version');
      assert.ok(entry!.bytes > 0);

      // Batches of a few urns at a time, as the background pass walks them.
      let deleted = 0;
      let afterUrn: string | undefined;
      for (;;) {
        const step = await store.retention.applyVersionRetention({
          entityType: 'dataset',
          aspect: 'globalTags',
          rule: { maxVersions: 2, maxAgeMillis: null },
          now: START,
          ...(afterUrn ? { afterUrn } : {}),
          urns: 3,
        });
        deleted += step.versionsDeleted;
        if (step.lastUrn === null) break;
        afterUrn = step.lastUrn;
      }
      assert.equal(deleted, entry!.delete);
      for (const [i, urn] of urns.entries()) assert.deepEqual(await versionsOf(store, urn, 'globalTags'), [`v${2 + i}`, `v${1 + i}`]);
      assert.equal((await service.preview()).filter((p) => p.aspect === 'globalTags' && p.delete > 0).length, 0);
    });

    it("narrows DataHub's applyRetention to one urn and to urns with more than attemptWithVersion versions", async () => {
      const few = urnOf('apply-few');
      const many = urnOf('apply-many');
      await writeVersions(store, few, 'ownership', 3);
      await writeVersions(store, many, 'ownership', 10);
      await writeVersions(store, urnOf('apply-other'), 'ownership', 10);
      await setPolicy(store, policies, versioned('dataset', 'ownership', { version: { maxVersions: 2 } }));
      const result = await service.applyRetention({ start: 0, count: 100, attemptWithVersion: 5, aspectName: 'ownership', urn: many });
      assert.match(result, /^BulkApplyRetentionResult\(argStart=0, argCount=100, argAttemptWithVersion=5, argUrn=urn:li:dataset:.*, rowsHandled=8,/);
      assert.equal((await versionsOf(store, many, 'ownership')).length, 2);
      assert.equal((await versionsOf(store, urnOf('apply-other'), 'ownership')).length, 10, 'another urn is left alone');
      await service.applyRetention({ start: 0, count: 100, attemptWithVersion: 5, aspectName: null, urn: null });
      assert.equal((await versionsOf(store, urnOf('apply-other'), 'ownership')).length, 2);
      assert.equal((await versionsOf(store, few, 'ownership')).length, 3, 'three versions are not more than attemptWithVersion 5');
    });

    it('runs the daily policy once on schedule across two schedulers, deleting exactly the rows older than its age', async () => {
      const urn = urnOf('daily');
      await store.aspects.write({
        ops: [{ kind: 'aspect', entityType: 'dataset', urn, aspect: 'status', value: { removed: false }, systemMetadata: null }],
        actor: 'test',
        now: START,
      });
      // One row an hour over the 10 days before the run's time (03:00), so 7 days keep 7 * 24 rows.
      const runAt = Date.UTC(2026, 10, 24, 3, 0);
      const stamps = Array.from({ length: 240 }, (_, i) => runAt - (i + 1) * HOUR + HOUR / 2);
      await store.aspects.write({ ops: stamps.map((ts) => profile(urn, ts)), actor: 'test', now: START });

      // A second process: its own connection, policies, task runner and service, on the same database.
      const otherPolicies = new RetentionPolicies();
      const otherStore = await openStore(db.config, { retention: otherPolicies });
      await otherPolicies.load(otherStore.retention);
      const otherRunner = new TaskRunner(otherStore, quiet, { clock });
      await otherRunner.start();
      const otherService = new RetentionService(
        otherStore,
        otherPolicies,
        new TaskRetentionRunner(
          otherStore,
          otherRunner,
          otherPolicies,
          new TimeseriesOperations(otherStore, otherRunner, quiet, clock),
          quiet,
          clock,
        ),
        quiet,
        { maxDeletePercent: 99 },
        clock,
      );
      after(async () => {
        await otherRunner.stop();
        await otherStore.database.close();
      });
      const schedulers = [new Scheduler(store, 'n1', quiet, { clock }), new Scheduler(otherStore, 'n2', quiet, { clock })];
      schedulers[0]!.register(retentionJob(service, 3 * HOUR));
      schedulers[1]!.register(retentionJob(otherService, 3 * HOUR));
      // At start each scheduler sees yesterday's 03:00 occurrence as due: one of them runs it, before the policy exists.
      now = runAt - 1;
      await Promise.all(schedulers.map((s) => s.tick()));
      const first = (await service.runs(10)).filter((r) => r.trigger === 'schedule');
      await setPolicy(store, policies, versioned('dataset', 'datasetProfile', { time: { maxAgeInSeconds: 7 * 86_400 } }));
      await otherPolicies.reload();
      now = runAt + 30_000;
      const preview = (await service.preview()).find((p) => p.aspect === 'datasetProfile')!;
      assert.deepEqual([preview.delete, preview.total], [72, 240]);
      await Promise.all(schedulers.map((s) => s.tick()));
      await Promise.all(schedulers.map((s) => s.tick()));
      const runs = (await service.runs(10)).filter((r) => r.trigger === 'schedule');
      assert.equal(runs.length, first.length + 1, 'one run for the occurrence, not one per scheduler');
      const run = runs[0]!;
      const started = run.outcomes.find((o) => o.aspect === 'datasetProfile')!;
      assert.equal(started.outcome, 'started');
      assert.equal(started.cutoffMillis, runAt + 30_000 - 7 * DAY);
      assert.equal(started.rowsToDelete, preview.delete, 'the preview counted the rows the run deletes');
      await waitForTruncations(store);
      const task = truncationRecord((await store.tasks.getTask(parseId(started.taskId!)))!);
      assert.equal(task.state, 'completed');
      assert.equal(task.rowsDeleted, started.rowsToDelete);
      assert.equal(task.retentionRun, `${run.nodeId}:${run.number}`);
      const left = (await store.timeseries.queryTimeseries({ entityType: 'dataset', aspect: 'datasetProfile', urn, limit: 10_000 })).map(
        (e) => e.timestampMillis,
      );
      assert.equal(left.length, 7 * 24);
      assert.ok(left.every((ts) => ts >= runAt + 30_000 - 7 * DAY));
    });

    it('skips an index a run would empty beyond the allowed share, with the reason, until a run is confirmed', async () => {
      const urn = urnOf('guarded');
      await store.aspects.write({
        ops: [
          { kind: 'aspect', entityType: 'dataset', urn, aspect: 'status', value: { removed: false }, systemMetadata: null },
          ...Array.from({ length: 50 }, (_, i): WriteOp => ({ ...profile(urn, now - 30 * DAY - i * HOUR), aspect: 'datasetUsageStatistics' })),
        ],
        actor: 'test',
        now,
      });
      await setPolicy(store, policies, versioned('dataset', 'datasetUsageStatistics', { time: { maxAgeInSeconds: 86_400 } }));
      const skipped = await runToEnd(service, false);
      const outcome = skipped.outcomes.find((o) => o.aspect === 'datasetUsageStatistics')!;
      assert.equal(outcome.outcome, 'skipped');
      assert.match(outcome.reason!, /100\.00% of the index \(50 of 50 rows\).*ALMANAC_RETENTION_MAX_DELETE_PERCENT \(99%\)/);
      assert.equal(
        (await store.timeseries.countTimeseriesBefore({ entityType: 'dataset', aspect: 'datasetUsageStatistics' }, Number.MAX_SAFE_INTEGER)).total,
        50,
      );
      const preview = (await service.preview()).find((p) => p.aspect === 'datasetUsageStatistics')!;
      assert.equal(preview.needsConfirmation, true);

      const confirmed = await runToEnd(service, true);
      assert.equal(confirmed.outcomes.find((o) => o.aspect === 'datasetUsageStatistics')!.outcome, 'started');
      await waitForTruncations(store);
      assert.equal(
        (await store.timeseries.countTimeseriesBefore({ entityType: 'dataset', aspect: 'datasetUsageStatistics' }, Number.MAX_SAFE_INTEGER)).total,
        0,
      );
    });

    it('prunes task records that ended before the bound, never a running one', async () => {
      const before = (await store.tasks.listTasks({ limit: 1000 })).length;
      assert.ok(before > 0);
      const pruned = await store.tasks.pruneTasks(now + DAY);
      const left = await store.tasks.listTasks({ limit: 1000 });
      assert.equal(pruned, before - left.length);
      assert.ok(left.every((t) => t.state === 'running'));
    });
  });
}

const parseId = (id: string) => {
  const i = id.lastIndexOf(':');
  return { nodeId: id.slice(0, i), number: Number(id.slice(i + 1)) };
};

async function runToEnd(service: RetentionService, confirm: boolean) {
  const run = await service.runAndWait({ trigger: 'manual', confirm, versions: false }, RETENTION_ACTOR);
  assert.ok(run, 'no other run was under way');
  return run;
}

/** Until no truncation task of the store runs any more. */
async function waitForTruncations(store: Store): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await store.tasks.listTasks({ state: 'running', kind: 'truncateTimeseriesAspect', limit: 10 })).length === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail('truncations still running');
}
