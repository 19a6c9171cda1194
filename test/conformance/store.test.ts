import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PARTITION_MILLIS } from '../../src/storage/partitions.ts';
import type { Store, WriteOp } from '../../src/storage/store.ts';
import { backends } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const PROFILE = { entityType: 'dataset', aspect: 'datasetProfile' } as const;
const DAY0 = Date.UTC(2026, 0, 1);

const aspectOp = (urn: string, aspect: string, value: Record<string, unknown>, onlyIfAbsent = false): Extract<WriteOp, { kind: 'aspect' }> => ({
  kind: 'aspect',
  entityType: 'dataset',
  urn,
  aspect,
  value,
  systemMetadata: { runId: 'test' },
  onlyIfAbsent,
});

const profileOp = (urn: string, ts: number, rowCount: number, docId = `${urn}@${ts}`): WriteOp => ({
  kind: 'timeseries',
  ...PROFILE,
  urn,
  timestampMillis: ts,
  docId,
  event: { timestampMillis: ts, rowCount },
  systemMetadata: null,
});

for (const backend of await backends()) {
  describe(`storage conformance: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => (store = s));

    it('migrates twice without error', async () => {
      await store.database.migrate();
    });

    it('keeps the first value of a setting', async () => {
      assert.equal(await store.database.getOrInitSetting('k', () => 'first'), 'first');
      assert.equal(await store.database.getOrInitSetting('k', () => 'second'), 'first');
    });

    it('creates the entity on its first aspect and versions later writes', async () => {
      await store.aspects.write({
        ops: [aspectOp(DATASET, 'datasetKey', { name: 'db.users' }, true), aspectOp(DATASET, 'status', { removed: false })],
        actor: 'urn:li:corpuser:a',
        now: 1000,
      });
      assert.deepEqual(await store.aspects.existing([DATASET, OTHER]), new Set([DATASET]));
      await store.aspects.write({ ops: [aspectOp(DATASET, 'status', { removed: true })], actor: 'urn:li:corpuser:b', now: 2000 });
      await store.aspects.write({ ops: [aspectOp(DATASET, 'status', { removed: false })], actor: 'urn:li:corpuser:c', now: 3000 });

      const latest = await store.aspects.getAspect(DATASET, 'status');
      assert.deepEqual(latest?.value, { removed: false });
      assert.equal(latest?.createdBy, 'urn:li:corpuser:c');
      assert.equal(latest?.createdOn, 3000);
      assert.deepEqual((await store.aspects.getAspect(DATASET, 'status', 1))?.value, { removed: false });
      assert.equal((await store.aspects.getAspect(DATASET, 'status', 1))?.createdBy, 'urn:li:corpuser:a');
      assert.deepEqual((await store.aspects.getAspect(DATASET, 'status', 2))?.value, { removed: true });
      const history = await store.aspects.getAspectHistory(DATASET, 'status', 10);
      assert.deepEqual(
        history.map((h) => h.version),
        [0, 2, 1],
      );
      assert.deepEqual(
        history.map((h) => h.createdOn),
        [3000, 2000, 1000],
      );
    });

    it('does not version an identical value, and never rewrites a key aspect', async () => {
      await store.aspects.write({
        ops: [aspectOp(DATASET, 'status', { removed: false }), aspectOp(DATASET, 'datasetKey', { name: 'changed' }, true)],
        actor: 'urn:li:corpuser:d',
        now: 4000,
      });
      assert.equal((await store.aspects.getAspectHistory(DATASET, 'status', 10)).length, 3);
      assert.deepEqual((await store.aspects.getAspect(DATASET, 'datasetKey'))?.value, { name: 'db.users' });
    });

    it('returns latest aspects, filtered by name', async () => {
      const all = await store.aspects.getLatestAspects(DATASET);
      assert.deepEqual(all.map((a) => a.aspect).sort(), ['datasetKey', 'status']);
      const some = await store.aspects.getLatestAspects(DATASET, ['status']);
      assert.deepEqual(
        some.map((a) => a.aspect),
        ['status'],
      );
    });

    it('reads the named latest aspects of many entities at once, leaving out missing entities', async () => {
      const found = await store.aspects.getEntities([DATASET, OTHER, DATASET], ['status', 'deprecation']);
      assert.deepEqual([...found.keys()], [DATASET]);
      const aspects = found.get(DATASET)!;
      assert.deepEqual(
        aspects.map((a) => [a.aspect, a.version, a.value]),
        [['status', 0, { removed: false }]],
      );
      assert.equal(aspects[0]!.createdBy, 'urn:li:corpuser:c');
      assert.deepEqual((await store.aspects.getEntities([DATASET], [])).get(DATASET), []);
      assert.equal((await store.aspects.getEntities([], ['status'])).size, 0);
    });

    it('writes a batch atomically: a failing op leaves nothing behind', async () => {
      const bad = { ...aspectOp(OTHER, 'status', { removed: false }), value: undefined as unknown as Record<string, unknown> };
      await assert.rejects(store.aspects.write({ ops: [aspectOp(OTHER, 'datasetKey', {}, true), bad], actor: 'x', now: 1 }));
      assert.deepEqual(await store.aspects.existing([OTHER]), new Set());
    });

    it('stores timeseries events across day partitions, overwriting a re-ingested event', async () => {
      const ops = [0, 1, 2, 3].map((d) => profileOp(DATASET, DAY0 + d * PARTITION_MILLIS + 5, d));
      await store.aspects.write({ ops, actor: 'x', now: 1 });
      await store.aspects.write({ ops: [profileOp(DATASET, DAY0 + 5, 99)], actor: 'x', now: 2 });
      const events = await store.timeseries.queryTimeseries({ ...PROFILE, urn: DATASET, limit: 10 });
      assert.deepEqual(
        events.map((e) => e.event.rowCount),
        [3, 2, 1, 99],
      );
      const parts = await store.timeseries.listTimeseriesPartitions(PROFILE);
      assert.deepEqual(
        parts.map((p) => p.rowCount),
        [1, 1, 1, 1],
      );
      assert.equal(parts[0]!.startMillis, DAY0);
    });

    it('deduplicates the same event within one batch', async () => {
      await store.aspects.write({ ops: [profileOp(OTHER, DAY0 + 7, 1), profileOp(OTHER, DAY0 + 7, 2)], actor: 'x', now: 1 });
      const events = await store.timeseries.queryTimeseries({ ...PROFILE, urn: OTHER, limit: 10 });
      assert.deepEqual(
        events.map((e) => e.event.rowCount),
        [2],
      );
    });

    it('filters timeseries reads by time range and limit', async () => {
      const events = await store.timeseries.queryTimeseries({
        ...PROFILE,
        urn: DATASET,
        startTimeMillis: DAY0 + PARTITION_MILLIS,
        endTimeMillis: DAY0 + 2 * PARTITION_MILLIS + 5,
        limit: 10,
      });
      assert.deepEqual(
        events.map((e) => e.event.rowCount),
        [2, 1],
      );
      const one = await store.timeseries.queryTimeseries({ ...PROFILE, urn: DATASET, limit: 1 });
      assert.deepEqual(
        one.map((e) => e.event.rowCount),
        [3],
      );
    });

    it('counts rows strictly before a cutoff, including inside the boundary partition', async () => {
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, DAY0 + 2 * PARTITION_MILLIS + 5), { matching: 3, total: 5 });
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, DAY0 + 2 * PARTITION_MILLIS + 6), { matching: 4, total: 5 });
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, DAY0), { matching: 0, total: 5 });
      assert.deepEqual(await store.timeseries.countTimeseriesBefore({ entityType: 'dataset', aspect: 'operation' }, DAY0), { matching: 0, total: 0 });
    });

    it('reports index stats with rows, bytes and time range', async () => {
      const [stats] = await store.timeseries.timeseriesIndexStats();
      assert.equal(stats?.rowCount, 5);
      assert.ok((stats?.sizeBytes ?? 0) > 0);
      assert.equal(stats?.oldestTimestampMillis, DAY0 + 5);
      assert.equal(stats?.newestTimestampMillis, DAY0 + 3 * PARTITION_MILLIS + 5);
    });

    it('reports what each aspect write did: created, updated with the previous value and version, or unchanged', async () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.outcomes,PROD)';
      const first = await store.aspects.write({
        ops: [aspectOp(urn, 'datasetKey', { name: 'o' }, true), aspectOp(urn, 'status', { removed: false })],
        actor: 'a',
        now: 1,
      });
      assert.deepEqual(
        first.map((o) => o.outcome),
        ['created', 'created'],
      );
      const again = await store.aspects.write({
        ops: [aspectOp(urn, 'datasetKey', { name: 'o' }, true), aspectOp(urn, 'status', { removed: false })],
        actor: 'a',
        now: 2,
      });
      assert.deepEqual(
        again.map((o) => o.outcome),
        ['unchanged', 'unchanged'],
      );
      const [changed] = await store.aspects.write({ ops: [aspectOp(urn, 'status', { removed: true })], actor: 'a', now: 3 });
      assert.deepEqual(changed, {
        urn,
        aspect: 'status',
        outcome: 'updated',
        value: { removed: true },
        previous: { removed: false },
        previousVersion: 1,
      });
      assert.deepEqual((await store.aspects.getAspect(urn, 'status', 1))?.value, { removed: false });
    });

    it('writes one plain aspect alone (one statement on PostgreSQL) with the same outcomes, versions and sightings', async () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.plain,PROD)';
      const put = (value: Record<string, unknown>, now: number, runId: string) =>
        store.aspects.write({ ops: [{ ...aspectOp(urn, 'deprecation', value), systemMetadata: { runId } }], actor: `urn:li:corpuser:w${now}`, now });
      assert.deepEqual(await put({ deprecated: true, note: 'a' }, 10, 'r1'), [
        { urn, aspect: 'deprecation', outcome: 'created', value: { deprecated: true, note: 'a' } },
      ]);
      assert.deepEqual(await store.aspects.existing([urn]), new Set([urn]));
      assert.deepEqual(
        (await put({ deprecated: true, note: 'a' }, 20, 'r2')).map((o) => o.outcome),
        ['unchanged'],
      );
      const seen = await store.aspects.getAspect(urn, 'deprecation');
      assert.deepEqual([seen?.systemMetadata, seen?.createdOn, seen?.createdBy], [{ runId: 'r2' }, 10, 'urn:li:corpuser:w10']);
      assert.deepEqual(await put({ deprecated: false, note: 'b' }, 30, 'r3'), [
        {
          urn,
          aspect: 'deprecation',
          outcome: 'updated',
          value: { deprecated: false, note: 'b' },
          previous: { deprecated: true, note: 'a' },
          previousVersion: 1,
        },
      ]);
      await put({ deprecated: true, note: 'c' }, 40, 'r4');
      assert.deepEqual(
        (await store.aspects.getAspectHistory(urn, 'deprecation', 10)).map((a) => [a.version, a.value.note, a.createdOn, a.systemMetadata]),
        [
          [0, 'c', 40, { runId: 'r4' }],
          [2, 'b', 30, { runId: 'r3' }],
          [1, 'a', 10, { runId: 'r2' }],
        ],
      );
    });

    it('writes nothing when an entity the write requires is missing, and names every one missing', async () => {
      const present = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.present,PROD)';
      const absent = ['urn:li:dataset:(urn:li:dataPlatform:hive,db.absent1,PROD)', 'urn:li:dataset:(urn:li:dataPlatform:hive,db.absent2,PROD)'];
      await store.aspects.write({ ops: [aspectOp(present, 'deprecation', { deprecated: false, note: 'kept' })], actor: 'a', now: 1 });
      const batches: WriteOp[][] = [
        [aspectOp(present, 'deprecation', { deprecated: true, note: 'lost' })],
        [aspectOp(present, 'deprecation', { deprecated: true, note: 'lost' }), aspectOp(absent[0]!, 'status', { removed: false })],
      ];
      for (const ops of batches) {
        await assert.rejects(
          store.aspects.write({ ops, actor: 'a', now: 2, requireEntities: [present, ...absent, absent[0]!] }),
          (e: Error) => e.name === 'MissingEntities' && JSON.stringify((e as unknown as { urns: string[] }).urns) === JSON.stringify(absent),
        );
      }
      assert.deepEqual((await store.aspects.getAspect(present, 'deprecation'))?.value, { deprecated: false, note: 'kept' });
      assert.deepEqual(await store.aspects.existing(absent), new Set());
      const [written] = await store.aspects.write({ ops: batches[0]!, actor: 'a', now: 3, requireEntities: [present] });
      assert.equal(written?.outcome, 'updated');
    });

    it('runs an update function on the current value inside the write, in batch order', async () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.update,PROD)';
      const append = (tag: string): WriteOp => ({
        ...aspectOp(urn, 'globalTags', {}),
        update: (current) => ({ tags: [...((current?.tags as unknown[]) ?? []), { tag }] }),
      });
      const outcomes = await store.aspects.write({
        ops: [aspectOp(urn, 'datasetKey', { name: 'u' }, true), append('urn:li:tag:a'), append('urn:li:tag:b')],
        actor: 'a',
        now: 1,
      });
      assert.deepEqual(
        outcomes.map((o) => o.outcome),
        ['created', 'created', 'updated'],
      );
      assert.deepEqual((await store.aspects.getAspect(urn, 'globalTags'))?.value, { tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }] });
      // A throwing update aborts the whole batch.
      const failing: WriteOp = {
        ...aspectOp(urn, 'globalTags', {}),
        update: () => {
          throw new Error('refused');
        },
      };
      await assert.rejects(store.aspects.write({ ops: [aspectOp(urn, 'status', { removed: true }), failing], actor: 'a', now: 2 }), /refused/);
      assert.equal(await store.aspects.getAspect(urn, 'status'), undefined);
    });

    it("deletes one urn's rows of one index inside an inclusive window, keeping the partition counts exact", async () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.window,PROD)';
      const stamps = [DAY0 + 1, DAY0 + 2, DAY0 + PARTITION_MILLIS + 1, DAY0 + 2 * PARTITION_MILLIS + 1];
      await store.aspects.write({ ops: stamps.map((t, i) => profileOp(urn, t, i)), actor: 'a', now: 1 });
      const totalBefore = (await store.timeseries.countTimeseriesBefore(PROFILE, DAY0 + 10 * PARTITION_MILLIS)).total;
      const usage = {
        kind: 'timeseries',
        entityType: 'dataset',
        aspect: 'datasetUsageStatistics',
        urn,
        timestampMillis: DAY0 + 2,
        docId: 'u',
        event: { timestampMillis: DAY0 + 2 },
        systemMetadata: null,
      } as const;
      await store.aspects.write({ ops: [usage], actor: 'a', now: 1 });

      assert.equal(
        await store.timeseries.deleteTimeseriesRows(urn, { index: PROFILE, startMillis: DAY0 + 2, endMillis: DAY0 + PARTITION_MILLIS + 1 }),
        2,
      );
      const left = await store.timeseries.queryTimeseries({ ...PROFILE, urn, limit: 10 });
      assert.deepEqual(
        left.map((e) => e.timestampMillis),
        [DAY0 + 2 * PARTITION_MILLIS + 1, DAY0 + 1],
      );
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, DAY0 + 10 * PARTITION_MILLIS), {
        matching: totalBefore - 2,
        total: totalBefore - 2,
      });
      assert.equal((await store.timeseries.queryTimeseries({ entityType: 'dataset', aspect: 'datasetUsageStatistics', urn, limit: 10 })).length, 1);

      assert.equal(await store.timeseries.deleteTimeseriesRows(urn, { index: PROFILE }), 2);
      assert.equal(await store.timeseries.deleteTimeseriesRows(urn, { index: { entityType: 'chart', aspect: 'chartUsageStatistics' } }), 0);
      assert.equal(await store.timeseries.deleteTimeseriesRows(urn, {}), 1);
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, DAY0 + 10 * PARTITION_MILLIS), {
        matching: totalBefore - 4,
        total: totalBefore - 4,
      });
    });

    it('deletes every version of one aspect and leaves the entity and its other aspects', async () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.aspectdelete,PROD)';
      await store.aspects.write({
        ops: [
          aspectOp(urn, 'datasetKey', { name: 'x' }, true),
          aspectOp(urn, 'status', { removed: false }),
          aspectOp(urn, 'datasetProperties', { name: '1' }),
        ],
        actor: 'a',
        now: 1,
      });
      await store.aspects.write({ ops: [aspectOp(urn, 'datasetProperties', { name: '2' })], actor: 'a', now: 2 });
      assert.equal(await store.aspects.deleteAspect(urn, 'datasetProperties'), 2);
      assert.equal(await store.aspects.getAspect(urn, 'datasetProperties'), undefined);
      assert.deepEqual((await store.aspects.getAspect(urn, 'status'))?.value, { removed: false });
      assert.deepEqual(await store.aspects.existing([urn]), new Set([urn]));
      assert.equal(await store.aspects.deleteAspect(urn, 'datasetProperties'), 0);
      await store.aspects.deleteEntity(urn);
    });

    it('deletes an entity with all its versions and timeseries rows', async () => {
      const removed = await store.aspects.deleteEntity(DATASET);
      assert.equal(removed.aspectRows, 4);
      assert.equal(removed.timeseriesRows, 4);
      assert.deepEqual(await store.aspects.existing([DATASET]), new Set());
      assert.equal((await store.timeseries.queryTimeseries({ ...PROFILE, urn: DATASET, limit: 10 })).length, 0);
      assert.equal((await store.timeseries.queryTimeseries({ ...PROFILE, urn: OTHER, limit: 10 })).length, 1);
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, DAY0 + 10 * PARTITION_MILLIS), { matching: 1, total: 1 });
    });

    it('stores, finds and deletes access tokens', async () => {
      const token = {
        id: 'h1',
        name: 'n',
        description: null,
        actorUrn: 'urn:li:corpuser:a',
        ownerUrn: 'urn:li:corpuser:a',
        createdAt: 1,
        expiresAt: null,
      };
      await store.identity.insertAccessToken(token);
      assert.deepEqual(await store.identity.getAccessToken('h1'), token);
      assert.deepEqual(await store.identity.findTokenWithActor('h1'), { token, actorExists: false, actorInactive: false });
      await store.aspects.write({
        ops: [{ kind: 'aspect', entityType: 'corpuser', urn: token.actorUrn, aspect: 'corpUserKey', value: { username: 'a' }, systemMetadata: null }],
        actor: 'test',
        now: 1,
      });
      assert.deepEqual(await store.identity.findTokenWithActor('h1'), { token, actorExists: true, actorInactive: false });
      assert.equal(await store.identity.findTokenWithActor('h2'), undefined);
      assert.equal(await store.identity.deleteAccessToken('h1'), true);
      assert.equal(await store.identity.deleteAccessToken('h1'), false);
      assert.equal(await store.identity.getAccessToken('h1'), undefined);
    });
  });
}
