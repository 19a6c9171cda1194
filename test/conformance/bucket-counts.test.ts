import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUCKET_MILLIS, PARTITION_MILLIS } from '../../src/storage/partitions.ts';
import type { Store, WriteOp } from '../../src/storage/store.ts';
import { backends } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

const DAY0 = Date.UTC(2026, 2, 1);
const INDEX = { entityType: 'dataset', aspect: 'datasetProfile' } as const;
const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,buckets.t${i % 3},PROD)`;

/** A fixed pseudo-random sequence, so a failure repeats. */
function random(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const event = (ts: number, i: number): WriteOp => ({
  kind: 'timeseries',
  ...INDEX,
  urn: urnOf(i),
  timestampMillis: ts,
  docId: `b${i}`,
  event: { timestampMillis: ts },
  systemMetadata: null,
});

for (const backend of await backends()) {
  describe(`counts before a cutoff inside a day, from bucket counts: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => (store = s));
    const next = random(7);
    const stamps: number[] = [];
    /** Compares the store's count with the rows it returns, at cutoffs across the days written. */
    const check = async (label: string) => {
      const rows = (await Promise.all([0, 1, 2].map((i) => store.timeseries.queryTimeseries({ ...INDEX, urn: urnOf(i), limit: 100_000 })))).flat();
      const all = rows.map((e) => e.timestampMillis);
      const cutoffs = [
        DAY0 + 1,
        DAY0 + BUCKET_MILLIS,
        DAY0 + BUCKET_MILLIS + 1,
        ...Array.from({ length: 40 }, () => DAY0 + Math.floor(next() * 2 * PARTITION_MILLIS)),
      ];
      for (const cutoff of cutoffs) {
        const counted = await store.timeseries.countTimeseriesBefore(INDEX, cutoff);
        assert.deepEqual(counted, { matching: all.filter((ts) => ts < cutoff).length, total: all.length }, `${label}, cutoff ${cutoff - DAY0}`);
      }
    };

    it('is exact as rows are written, in batches and one by one, and re-written', async () => {
      for (let i = 0; i < 3000; i++) stamps.push(DAY0 + Math.floor(next() * 2 * PARTITION_MILLIS));
      for (let i = 0; i < stamps.length; i += 500)
        await store.aspects.write({ ops: stamps.slice(i, i + 500).map((ts, k) => event(ts, i + k)), actor: 't', now: 1 });
      await check('written');
      // The same events again change nothing; a few new ones add to their buckets.
      await store.aspects.write({ ops: stamps.slice(0, 200).map((ts, k) => event(ts, k)), actor: 't', now: 1 });
      await store.aspects.write({ ops: [event(DAY0 + 5, 99_000), event(DAY0 + PARTITION_MILLIS + 7 * BUCKET_MILLIS, 99_001)], actor: 't', now: 1 });
      await check('re-written');
    });

    it('stays exact when rows go by a path that leaves the buckets behind (a urn delete, delete by query)', async () => {
      assert.ok(
        (await store.timeseries.deleteTimeseriesRows(urnOf(1), {
          index: INDEX,
          startMillis: DAY0 + 3 * BUCKET_MILLIS,
          endMillis: DAY0 + 30 * BUCKET_MILLIS,
        })) > 0,
      );
      await check('after a urn delete');
      assert.ok((await store.truncation.deleteTimeseriesRowsBefore(INDEX, DAY0 + 50 * BUCKET_MILLIS, 40)).rows > 0);
      await check('after delete by query');
    });

    it('stays exact after the boundary day is trimmed, either way (delete or rewrite)', async () => {
      await store.truncation.trimTimeseriesBoundary(INDEX, DAY0 + 60 * BUCKET_MILLIS + 123);
      await check('after a trim that deletes');
      await store.truncation.trimTimeseriesBoundary(INDEX, DAY0 + PARTITION_MILLIS - BUCKET_MILLIS / 2);
      await check('after a trim that rewrites');
      await store.aspects.write({ ops: [event(DAY0 + PARTITION_MILLIS - 1, 99_002)], actor: 't', now: 1 });
      await check('written after the rewrite');
    });
  });
}
