import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { openStore } from '../../src/storage/open-store.ts';
import type { WriteOp } from '../../src/storage/store.ts';
import { createSqliteDatabase } from '../support/databases.ts';

// SQLite's write-ahead log under a writer that never pauses, as a long ingest is (sqlite/checkpoint-worker.mjs): a
// checkpoint that never catches up must not let the log grow without bound. Here the bound is 2 MiB: the log stays
// under 7 MiB, where with the worker's checkpoints alone it reached 197 MiB (in 60 transactions; 40 here).

const MiB = 1024 * 1024;
const words = (i: number) => Array.from({ length: 1200 }, (_, k) => `word${(i * 31 + k) % 5000}`).join(' ');
const batch = (t: number): WriteOp[] =>
  Array.from({ length: 20 }, (_, k) => {
    const i = t * 20 + k;
    return {
      kind: 'aspect',
      entityType: 'dataset',
      urn: `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`,
      aspect: 'datasetProperties',
      value: { name: `t${i}`, description: words(i) },
      systemMetadata: null,
    };
  });

describe('sqlite: background checkpoints under a writer that never pauses', () => {
  it('keep the write-ahead log near its bound, and lose no write', async () => {
    const db = await createSqliteDatabase();
    assert.equal(db.config.kind, 'sqlite');
    const wal = `${db.config.kind === 'sqlite' ? db.config.path : ''}-wal`;
    const store = await openStore(db.config, { background: true, checkpoints: { intervalMs: 250, writerBytes: 2 * MiB } });
    let largest = 0;
    const transactions = 40;
    try {
      for (let t = 0; t < transactions; t++) {
        await store.aspects.write({ ops: batch(t), actor: 'urn:li:corpuser:test', now: Date.now() });
        largest = Math.max(largest, fs.statSync(wal).size);
      }
      const last = `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${transactions * 20 - 1},PROD)`;
      const [read] = await store.aspects.getLatestAspects(last, ['datasetProperties']);
      assert.equal((read?.value as { name?: string } | undefined)?.name, `t${transactions * 20 - 1}`);
    } finally {
      await store.database.close();
      await db.drop();
    }
    assert.ok(largest < 24 * MiB, `the log reached ${(largest / MiB).toFixed(1)} MiB`);
  });
});
