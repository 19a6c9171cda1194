import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStore } from '../../src/storage/open-store.ts';
import { PARTITION_MILLIS } from '../../src/storage/partitions.ts';
import type { WriteOp } from '../../src/storage/store.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { newTruncationTask } from '../../src/tasks/truncation/truncation-record.ts';
import { startTestServer } from '../support/server.ts';

const DAY0 = Date.UTC(2026, 0, 1);
const INDEX = { entityType: 'dataset', aspect: 'operation' } as const;
const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,erasure.t,PROD)';

/** What is physically in the database: day tables, live partitions and retired ones, read from the engine's own catalog. */
async function onDisk(db: TestDatabase): Promise<{ dayTables: number; live: number; retired: number }> {
  // Day tables are named ts_<index>_<day>[_<generation>]; their urn indexes end in _urn (SQLite lists them as indexes).
  const DAY_TABLE = /^ts_\d+_/;
  if (db.config.kind === 'sqlite') {
    const raw = new Database(db.config.path, { readonly: true });
    const names = (raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name);
    const count = (table: string) => (raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const out = { dayTables: names.filter((n) => DAY_TABLE.test(n)).length, live: count('ts_partitions'), retired: count('ts_retired') };
    raw.close();
    return out;
  }
  const client = new pg.Client({ connectionString: db.config.url });
  await client.connect();
  const names = (await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")).rows.map((r) => r.name);
  const count = async (table: string) => Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0]!.n);
  const out = { dayTables: names.filter((n) => DAY_TABLE.test(n)).length, live: await count('ts_partitions'), retired: await count('ts_retired') };
  await client.end();
  return out;
}

for (const backend of await backends()) {
  describe(`truncated rows never stay on disk: ${backend.name}`, { skip: backend.skip }, () => {
    it('drops at start-up the tables a completed task retired when a crash cut its reclaim short', async () => {
      const db = await backend.create();
      try {
        const store = await openStore(db.config);
        const ops: WriteOp[] = Array.from({ length: 5 }, (_, d) => ({
          kind: 'timeseries',
          ...INDEX,
          urn: URN,
          timestampMillis: DAY0 + d * PARTITION_MILLIS,
          docId: `d${d}`,
          event: { timestampMillis: DAY0 + d * PARTITION_MILLIS },
          systemMetadata: null,
        }));
        await store.aspects.write({ ops, actor: 'test', now: 1 });
        const created = await store.tasks.createTask(
          newTruncationTask(
            { nodeId: 'crashed-node', ownerPid: 1, ownerHost: 'elsewhere' },
            'urn:li:corpuser:datahub',
            {
              ...INDEX,
              cutoffMillis: DAY0 + 3 * PARTITION_MILLIS,
              strategy: 'rebuild',
              batchSize: 10_000,
              timeoutSeconds: null,
              requestsPerSecond: null,
              totalRows: 5,
              rowsToDelete: 3,
            },
            1,
          ),
        );
        assert.ok('created' in created);
        await store.truncation.retireTimeseriesPartitionsBefore(INDEX, DAY0 + 3 * PARTITION_MILLIS, { maxPartitions: 100 }, created.created);
        // The task completed; the process died before its reclaim dropped anything.
        await store.tasks.updateTask(created.created, { state: 'completed', endedAt: 2 });
        await store.database.close();
        assert.deepEqual(await onDisk(db), { dayTables: 5, live: 2, retired: 3 });

        const server = await startTestServer(db);
        try {
          const deadline = Date.now() + 15_000;
          while ((await onDisk(db)).retired > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
          assert.deepEqual(await onDisk(db), { dayTables: 2, live: 2, retired: 0 });
          const sizes = await server.request('POST', '/operations?action=getIndexSizes');
          const index = sizes.json.value.indexSizes.find((s: { aspectName: string }) => s.aspectName === 'operation');
          assert.equal(index.rowCount, 2);
        } finally {
          await server.close();
        }
      } finally {
        await db.drop();
      }
    });
  });
}
