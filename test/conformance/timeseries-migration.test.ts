import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStore } from '../../src/storage/open-store.ts';
import { PARTITION_MILLIS, partitionLabel } from '../../src/storage/partitions.ts';
import { POSTGRES_MIGRATIONS } from '../../src/storage/postgres/migrations.ts';
import { SQLITE_MIGRATIONS } from '../../src/storage/sqlite/migrations.ts';
import type { Store } from '../../src/storage/store.ts';
import { backends, createSqliteDatabase, type TestDatabase } from '../support/databases.ts';

// A database written before partitions had generations (schema version 3) keeps every row through the upgrade:
// on PostgreSQL the day partitions of a declaratively partitioned table become plain tables.

const DAY0 = Date.UTC(2025, 0, 1);
const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.old,PROD)';
const PROFILE = { entityType: 'dataset', aspect: 'datasetProfile' } as const;
const VERSION_3 = 3;
/** Three days of four events each, as version 3 stored them. */
const OLD_STAMPS = [0, 1, 2].flatMap((d) => [0, 1, 2, 3].map((h) => DAY0 + d * PARTITION_MILLIS + h * 3_600_000));
const COLUMNS = '(ts, doc_id, urn, event, system_metadata)';
const row = (ts: number) => [ts, `old-${ts}`, URN, JSON.stringify({ timestampMillis: ts }), null] as const;

async function writeVersion3Postgres(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
    for (const [i, sql] of POSTGRES_MIGRATIONS.slice(0, VERSION_3).entries()) {
      await c.query(sql);
      await c.query('INSERT INTO schema_migrations VALUES ($1, 0)', [i + 1]);
    }
    await c.query("INSERT INTO ts_indices (entity_type, aspect) VALUES ('dataset', 'datasetProfile')");
    await c.query(`CREATE TABLE ts_1 (ts BIGINT NOT NULL, doc_id TEXT NOT NULL, urn TEXT NOT NULL, event TEXT NOT NULL, system_metadata TEXT,
                     PRIMARY KEY (ts, doc_id)) PARTITION BY RANGE (ts)`);
    await c.query('CREATE INDEX ts_1_urn ON ts_1 (urn, ts)');
    for (let d = 0; d < 3; d++) {
      const start = DAY0 + d * PARTITION_MILLIS;
      await c.query(`CREATE TABLE ts_1_${partitionLabel(start)} PARTITION OF ts_1 FOR VALUES FROM (${start}) TO (${start + PARTITION_MILLIS})`);
      await c.query('INSERT INTO ts_partitions (index_id, start_ms, row_count) VALUES (1, $1, 4)', [start]);
    }
    for (const ts of OLD_STAMPS) await c.query(`INSERT INTO ts_1 ${COLUMNS} VALUES ($1, $2, $3, $4, $5)`, [...row(ts)]);
  } finally {
    await c.end();
  }
}

function writeVersion3Sqlite(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('auto_vacuum = INCREMENTAL');
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
    for (const [i, sql] of SQLITE_MIGRATIONS.slice(0, VERSION_3).entries()) {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations VALUES (?, 0)').run(i + 1);
    }
    db.exec("INSERT INTO ts_indices (entity_type, aspect) VALUES ('dataset', 'datasetProfile')");
    for (let d = 0; d < 3; d++) {
      const table = `ts_1_${partitionLabel(DAY0 + d * PARTITION_MILLIS)}`;
      db.exec(`CREATE TABLE "${table}" (ts INTEGER NOT NULL, doc_id TEXT NOT NULL, urn TEXT NOT NULL, event TEXT NOT NULL, system_metadata TEXT,
                 PRIMARY KEY (ts, doc_id)) WITHOUT ROWID; CREATE INDEX "${table}_urn" ON "${table}" (urn, ts);`);
      db.prepare('INSERT INTO ts_partitions (index_id, start_ms, row_count) VALUES (1, ?, 4)').run(DAY0 + d * PARTITION_MILLIS);
      for (const ts of OLD_STAMPS.slice(d * 4, d * 4 + 4)) db.prepare(`INSERT INTO "${table}" ${COLUMNS} VALUES (?, ?, ?, ?, ?)`).run(...row(ts));
    }
  } finally {
    db.close();
  }
}

const stamps = async (store: Store) =>
  (await store.timeseries.queryTimeseries({ ...PROFILE, urn: URN, limit: 100 })).map((e) => e.timestampMillis).sort((a, b) => a - b);

for (const backend of await backends()) {
  describe(`timeseries upgrade from schema version 3: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let store: Store;
    before(async () => {
      db = await backend.create();
      if (db.config.kind === 'postgres') await writeVersion3Postgres(db.config.url);
      else writeVersion3Sqlite(db.config.path);
      store = await openStore(db.config);
    });
    after(async () => {
      await store?.database.close();
      await db?.drop();
    });

    it('keeps every row, count and index size', async () => {
      assert.deepEqual(await stamps(store), OLD_STAMPS);
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, DAY0 + PARTITION_MILLIS + 1), { matching: 5, total: 12 });
      const [stats] = await store.timeseries.timeseriesIndexStats();
      assert.deepEqual([stats?.rowCount, stats?.oldestTimestampMillis, stats?.newestTimestampMillis], [12, OLD_STAMPS[0], OLD_STAMPS[11]]);
      assert.ok(stats!.sizeBytes > 0);
    });

    it('writes into, truncates and reclaims the old partitions like new ones', async () => {
      const late = DAY0 + 2 * PARTITION_MILLIS + 30 * 60_000;
      await store.aspects.write({
        ops: [
          { kind: 'timeseries', ...PROFILE, urn: URN, timestampMillis: late, docId: 'late', event: { timestampMillis: late }, systemMetadata: null },
        ],
        actor: 'test',
        now: 1,
      });
      const cutoff = DAY0 + 2 * PARTITION_MILLIS + 2 * 3_600_000;
      assert.deepEqual((await store.truncation.retireTimeseriesPartitionsBefore(PROFILE, cutoff, { maxPartitions: 10 })).rows, 8);
      assert.equal((await store.truncation.trimTimeseriesBoundary(PROFILE, cutoff)).rows, 3);
      for (let done = false; !done;) done = (await store.truncation.reclaimTimeseriesSpace(PROFILE, cutoff, 50)).done;
      assert.deepEqual(
        await stamps(store),
        OLD_STAMPS.filter((t) => t >= cutoff),
      );
      assert.deepEqual(await store.timeseries.countTimeseriesBefore(PROFILE, Number.MAX_SAFE_INTEGER), { matching: 2, total: 2 });
    });
  });
}

describe('reclaim on a SQLite file made without incremental auto_vacuum', () => {
  it('drops the retired tables and ends, though the file cannot shrink', async () => {
    const db = await createSqliteDatabase();
    try {
      // auto_vacuum can only change while the file has no table: this one already has one.
      const raw = new Database(db.config.kind === 'sqlite' ? db.config.path : '');
      raw.exec('CREATE TABLE made_elsewhere (x INTEGER)');
      raw.close();
      const store = await openStore(db.config);
      try {
        const ops = OLD_STAMPS.map((ts) => ({
          kind: 'timeseries' as const,
          ...PROFILE,
          urn: URN,
          timestampMillis: ts,
          docId: `e${ts}`,
          event: { pad: 'x'.repeat(2000) },
          systemMetadata: null,
        }));
        await store.aspects.write({ ops, actor: 'test', now: 1 });
        const cutoff = DAY0 + 2 * PARTITION_MILLIS;
        assert.equal((await store.truncation.retireTimeseriesPartitionsBefore(PROFILE, cutoff, { maxPartitions: 10 })).rows, 8);
        let freed = 0;
        let calls = 0;
        for (let done = false; !done && calls < 100; calls++) {
          const r = await store.truncation.reclaimTimeseriesSpace(PROFILE, cutoff, 50);
          freed += r.freedBytes;
          done = r.done;
        }
        assert.ok(calls < 100, 'reclaim said it was done');
        assert.ok(freed > 0);
        assert.deepEqual(
          await stamps(store),
          OLD_STAMPS.filter((t) => t >= cutoff),
        );
      } finally {
        await store.database.close();
      }
    } finally {
      await db.drop();
    }
  });
});
