// Timeseries truncation: N rows in one index (plus a tenth as many in a second
// index that must stay untouched), truncated by 1%, 50% and 99% through the HTTP
// API until the task completes, against one plain `DELETE ... WHERE ts < cutoff`
// on an equivalent unpartitioned table of the same engine, measured in the same run.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { timeseriesDocId } from '../src/catalog/timeseries-doc-id.ts';
import { openStore } from '../src/storage/open-store.ts';
import { partitionTable } from '../src/storage/partitions.ts';
import type { Store, WriteOp } from '../src/storage/store.ts';
import { POSTGRES_ADMIN_URL, type TestDatabase } from '../test/support/databases.ts';
import { startTestServer, type TestServer } from '../test/support/server.ts';
import { benchBackends, fmt, intFlag, percentile, printTable, timed } from './support.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2022, 0, 1);
const FRACTIONS = [0.01, 0.5, 0.99];
const PROFILE = { entityType: 'dataset', aspect: 'datasetProfile' } as const;
const USAGE = { entityType: 'dataset', aspect: 'datasetUsageStatistics' } as const;
const RAW_DDL = `(ts BIGINT NOT NULL, doc_id TEXT NOT NULL, urn TEXT NOT NULL, event TEXT NOT NULL, system_metadata TEXT, PRIMARY KEY (ts, doc_id))`;

interface Shape {
  readonly rows: number;
  readonly days: number;
}

const mb = (bytes: number) => `${fmt(bytes / 1e6, 1)} MB`;

/** `rows` events spread evenly over `days` days, one dataset per row of a day (a daily profiling job). */
async function load(store: Store, index: typeof PROFILE | typeof USAGE, shape: Shape): Promise<void> {
  const datasets = Math.max(1, Math.round(shape.rows / shape.days));
  const sm = { runId: 'bench', lastObserved: T0 };
  for (let start = 0; start < shape.rows; start += 5000) {
    const ops: WriteOp[] = [];
    for (let j = start; j < Math.min(shape.rows, start + 5000); j++) {
      const ts = T0 + Math.floor((j * shape.days * DAY) / shape.rows);
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,bench.table_${j % datasets},PROD)`;
      const event =
        index === PROFILE
          ? { timestampMillis: ts, eventGranularity: { unit: 'DAY', multiple: 1 }, rowCount: j * 7, columnCount: 12, sizeInBytes: j * 512 }
          : { timestampMillis: ts, eventGranularity: { unit: 'DAY', multiple: 1 }, uniqueUserCount: j % 17, totalSqlQueries: j % 101 };
      ops.push({ kind: 'timeseries', ...index, urn, timestampMillis: ts, docId: timeseriesDocId(urn, event), event, systemMetadata: sm });
    }
    await store.aspects.write({ ops, actor: 'urn:li:corpuser:bench', now: T0 });
  }
}

/** One copy of the loaded database per scenario, so each truncation starts from the same data. */
interface Template {
  clone(): Promise<TestDatabase>;
  /** The raw ceiling: one DELETE on the unpartitioned copy of the index in `db`; returns rows and seconds. */
  rawDelete(db: TestDatabase, cutoff: number): Promise<{ rows: number; seconds: number }>;
  /** Bytes on disk: SQLite's database file (measured closed, after the last checkpoint), PostgreSQL's index relations (measured open). */
  footprint(db: TestDatabase, server: TestServer | undefined): Promise<number>;
  readonly footprintLabel: string;
  drop(): Promise<void>;
}

async function sqliteTemplate(base: TestDatabase): Promise<Template> {
  const file = (db: TestDatabase) => (db.config as { path: string }).path;
  const dir = path.dirname(file(base));
  const raw = path.join(dir, 'raw.db');
  // The unpartitioned equivalent: same columns, key and urn index, filled from the partitions in key order.
  const r = new Database(raw);
  r.pragma('journal_mode = WAL');
  r.exec(`CREATE TABLE raw ${RAW_DDL} WITHOUT ROWID`);
  r.exec(`ATTACH '${file(base)}' AS base`);
  const profileId = (r.prepare('SELECT id FROM base.ts_indices WHERE aspect = ?').get(PROFILE.aspect) as { id: number }).id;
  const days = r.prepare('SELECT start_ms, generation FROM base.ts_partitions WHERE index_id = ? ORDER BY start_ms').all(profileId) as Array<{
    start_ms: number;
    generation: number;
  }>;
  r.transaction(() => {
    for (const p of days) {
      r.exec(
        `INSERT INTO raw SELECT ts, doc_id, urn, event, system_metadata FROM base."${partitionTable(profileId, p.start_ms, p.generation)}" ORDER BY ts, doc_id`,
      );
    }
  })();
  r.exec('DETACH base');
  r.exec('CREATE INDEX raw_urn ON raw (urn, ts)');
  r.pragma('wal_checkpoint(TRUNCATE)');
  r.close();
  let n = 0;
  const copies: string[] = [];
  return {
    async clone() {
      const copyDir = path.join(dir, `scenario-${++n}`);
      fs.mkdirSync(copyDir);
      copies.push(copyDir);
      fs.copyFileSync(file(base), path.join(copyDir, 'almanac.db'));
      fs.copyFileSync(raw, path.join(copyDir, 'raw.db'));
      // Gigabytes of copied pages are written back in the background: wait for it, so it does not land in the timings.
      for (const f of ['almanac.db', 'raw.db']) {
        const fd = fs.openSync(path.join(copyDir, f), 'r+');
        fs.fsyncSync(fd);
        fs.closeSync(fd);
      }
      const p = path.join(copyDir, 'almanac.db');
      return {
        name: 'sqlite',
        config: { kind: 'sqlite', path: p },
        env: { ALMANAC_DATABASE_URL: `sqlite:${p}` },
        url: `sqlite:${p}`,
        drop: async () => fs.rmSync(copyDir, { recursive: true, force: true }),
      };
    },
    async rawDelete(db, cutoff) {
      const d = new Database(path.join(path.dirname(file(db)), 'raw.db'));
      // The store's own settings; checkpoints are left out of both sides (the server runs them on a worker thread).
      d.pragma('journal_mode = WAL');
      d.pragma('synchronous = NORMAL');
      d.pragma('cache_size = -65536');
      d.pragma('wal_autocheckpoint = 0');
      const { result, seconds } = await timed(async () => d.prepare('DELETE FROM raw WHERE ts < ?').run(cutoff).changes);
      d.close();
      return { rows: result, seconds };
    },
    footprintLabel: 'database file',
    async footprint(db, server) {
      if (server) return NaN;
      const p = file(db);
      return [p, `${p}-wal`].reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
    },
    async drop() {
      for (const c of copies) fs.rmSync(c, { recursive: true, force: true });
    },
  };
}

async function postgresTemplate(base: TestDatabase): Promise<Template> {
  const baseName = new URL(base.url).pathname.slice(1);
  const c = new pg.Client({ connectionString: base.url });
  await c.connect();
  const id = (await c.query<{ id: number }>('SELECT id FROM ts_indices WHERE aspect = $1', [PROFILE.aspect])).rows[0]!.id;
  await c.query(`CREATE TABLE raw ${RAW_DDL}`);
  const days = await c.query<{ start_ms: number; generation: number }>(
    'SELECT start_ms, generation FROM ts_partitions WHERE index_id = $1 ORDER BY start_ms',
    [id],
  );
  for (const p of days.rows) {
    await c.query(
      `INSERT INTO raw SELECT ts, doc_id, urn, event, system_metadata FROM ${partitionTable(id, Number(p.start_ms), Number(p.generation))} ORDER BY ts, doc_id`,
    );
  }
  await c.query('CREATE INDEX raw_urn ON raw (urn, ts)');
  await c.query('VACUUM ANALYZE');
  await c.end();
  const admin = async (sql: string) => {
    const a = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await a.connect();
    try {
      await a.query(sql);
    } finally {
      await a.end();
    }
  };
  let n = 0;
  return {
    async clone() {
      const name = `${baseName}_s${++n}`;
      await admin(`CREATE DATABASE ${name} TEMPLATE ${baseName} STRATEGY FILE_COPY`);
      const url = new URL(base.url);
      url.pathname = `/${name}`;
      return {
        name: 'postgres',
        config: { kind: 'postgres', url: url.toString() },
        url: url.toString(),
        env: { ALMANAC_DATABASE_URL: url.toString() },
        drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      };
    },
    async rawDelete(db, cutoff) {
      const d = new pg.Client({ connectionString: db.url });
      await d.connect();
      const { result, seconds } = await timed(() => d.query('DELETE FROM raw WHERE ts < $1', [cutoff]));
      await d.end();
      return { rows: result.rowCount ?? 0, seconds };
    },
    footprintLabel: 'index files',
    async footprint(_db, server) {
      return server ? indexBytes(server) : NaN;
    },
    drop: async () => undefined,
  };
}

async function indexBytes(server: TestServer): Promise<number> {
  const res = await server.request('POST', '/operations?action=getIndexSizes', { body: {} });
  return (res.json.value.indexSizes as Array<{ aspectName: string; sizeBytes: number }>).find((s) => s.aspectName === 'datasetprofile')!.sizeBytes;
}

async function indexRows(server: TestServer): Promise<Map<string, number>> {
  const res = await server.request('POST', '/operations?action=getIndexSizes', { body: {} });
  return new Map((res.json.value.indexSizes as Array<{ aspectName: string; rowCount: number }>).map((s) => [s.aspectName, s.rowCount]));
}

async function dryRunLatency(server: TestServer, cutoff: number): Promise<number> {
  const body = { ...PROFILE, endTimeMillis: cutoff };
  // Steady state: the first requests after start pay for JIT compilation and a cold page cache.
  for (let i = 0; i < 20; i++) await server.request('POST', '/operations?action=truncateTimeseriesAspect', { body });
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    const { seconds } = await timed(() => server.request('POST', '/operations?action=truncateTimeseriesAspect', { body }));
    samples.push(seconds * 1000);
  }
  return percentile(
    samples.sort((a, b) => a - b),
    50,
  );
}

interface Outcome {
  fraction: number;
  deleted: number;
  seconds: number;
  reclaimSeconds: number;
  raw: { rows: number; seconds: number };
  indexBefore: number;
  indexAfter: number;
  diskBefore: number;
  diskAfter: number;
}

async function truncateOnce(
  template: Template,
  shape: Shape,
  usageRows: number,
  fraction: number,
  first?: (server: TestServer) => Promise<void>,
): Promise<Outcome> {
  const db = await template.clone();
  try {
    // Half a day past the fraction, so the boundary partition is trimmed too.
    const cutoff = T0 + Math.round(fraction * shape.days) * DAY + DAY / 2;
    const closedBefore = await template.footprint(db, undefined);
    const server = await startTestServer(db);
    await first?.(server);
    const diskBefore = Number.isNaN(closedBefore) ? await template.footprint(db, server) : closedBefore;
    const indexBefore = await indexBytes(server);
    const started = process.hrtime.bigint();
    const res = await server.request('POST', '/operations?action=truncateTimeseriesAspect', {
      body: { ...PROFILE, endTimeMillis: cutoff, dryRun: false },
    });
    if (res.status !== 200) throw new Error(res.text);
    let task;
    do task = (await server.request('GET', `/api/tasks/${res.json.value}?waitMillis=60000`)).json;
    while (task.state === 'running');
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (task.state !== 'completed') throw new Error(`task ended ${task.state}: ${task.error}`);
    while (task.reclaimedBytes === null) {
      await sleep(10);
      task = (await server.request('GET', `/api/tasks/${res.json.value}`)).json;
    }
    const reclaimSeconds = Number(process.hrtime.bigint() - started) / 1e9 - seconds;
    const rows = await indexRows(server);
    if (rows.get('datasetprofile') !== shape.rows - task.rowsDeleted || rows.get('datasetusagestatistics') !== usageRows) {
      throw new Error(`unexpected row counts after truncation: ${JSON.stringify([...rows])}`);
    }
    const openAfter = await template.footprint(db, server);
    await server.close(); // SQLite: the last checkpoint shortens the file
    const diskAfter = Number.isNaN(openAfter) ? await template.footprint(db, undefined) : openAfter;
    const raw = await template.rawDelete(db, cutoff);
    if (raw.rows !== task.rowsDeleted) throw new Error(`raw DELETE removed ${raw.rows} rows, Almanac ${task.rowsDeleted}`);
    return { fraction, deleted: task.rowsDeleted, seconds, reclaimSeconds, raw, indexBefore, indexAfter: task.sizeBytesAfter, diskBefore, diskAfter };
  } finally {
    await db.drop();
  }
}

export default async function truncateBench(args: string[]): Promise<void> {
  const shape = { rows: intFlag(args, 'rows', 1_000_000), days: intFlag(args, 'days', 1000) };
  const usageRows = Math.max(1, Math.round(shape.rows / 10));
  for (const backend of await benchBackends(args)) {
    const base = await backend.create();
    let template: Template | undefined;
    try {
      const store = await openStore(base.config);
      const loaded = await timed(() => load(store, PROFILE, shape));
      await load(store, USAGE, { rows: usageRows, days: shape.days });
      await store.database.close();
      template = backend.name === 'sqlite' ? await sqliteTemplate(base) : await postgresTemplate(base);

      let dryRunMs = NaN;
      const measureDryRun = async (server: TestServer) => {
        dryRunMs = await dryRunLatency(server, T0 + Math.round(shape.days / 2) * DAY + DAY / 2);
      };
      const outcomes: Outcome[] = [];
      for (const [i, f] of FRACTIONS.entries()) outcomes.push(await truncateOnce(template, shape, usageRows, f, i === 0 ? measureDryRun : undefined));

      console.log(
        `\n### ${backend.name}: ${fmt(shape.rows)} rows over ${fmt(shape.days)} days, plus ${fmt(usageRows)} in an index that stays untouched\n`,
      );
      printTable(
        ['measure', 'value'],
        [
          ['load (store.aspects.write, 5,000-row batches)', `${fmt(shape.rows / loaded.seconds)} rows/s (${fmt(loaded.seconds, 1)} s)`],
          ['dry run at 50%, p50 of 20 over HTTP (after 20 warm-up)', `${fmt(dryRunMs, 2)} ms`],
        ],
      );
      console.log('');
      printTable(
        [
          'truncate',
          'rows deleted',
          'Almanac, HTTP until completed',
          'raw single DELETE',
          'ratio',
          'then reclaim',
          'index size',
          template.footprintLabel,
        ],
        outcomes.map((o) => [
          `${o.fraction * 100}%`,
          fmt(o.deleted),
          `${fmt(o.seconds * 1000, 1)} ms = ${fmt(o.deleted / o.seconds)} rows/s`,
          `${fmt(o.raw.seconds * 1000, 1)} ms = ${fmt(o.raw.rows / o.raw.seconds)} rows/s`,
          `${fmt(o.raw.seconds / o.seconds, 1)}×`,
          `${fmt(o.reclaimSeconds * 1000, 0)} ms`,
          `${mb(o.indexBefore)} → ${mb(o.indexAfter)}`,
          `${mb(o.diskBefore)} → ${mb(o.diskAfter)} (−${fmt((1 - o.diskAfter / o.diskBefore) * 100, 1)}%)`,
        ]),
      );
    } finally {
      await template?.drop();
      await base.drop();
    }
  }
}
