// Retention: (1) the dry run's count when one day holds millions of rows, against the range count of that day the
// dry run made before bucket counts (the same engine, the same table, measured in the same run); (2) a policy run
// against the equivalent truncation (the same cutoff, identical data), each over HTTP until its task completes.
import type { Store, WriteOp } from '../src/storage/store.ts';
import { openStore } from '../src/storage/open-store.ts';
import { partitionTable } from '../src/storage/partitions.ts';
import type { TestDatabase } from '../test/support/databases.ts';
import { startTestServer, type TestServer } from '../test/support/server.ts';
import Database from 'better-sqlite3';
import pg from 'pg';
import { benchBackends, fmt, intFlag, percentile, printTable, timed } from './support.ts';

const DAY = 86_400_000;
const PROFILE = { entityType: 'dataset', aspect: 'datasetProfile' } as const;
/** Midnight UTC today: every row is older. */
const END = Math.floor(Date.now() / DAY) * DAY;

interface Shape {
  readonly rows: number;
  readonly days: number;
  /** Rows of the one dense day, in the middle of the range (0: none). */
  readonly dense: number;
}

const denseStart = (shape: Shape) => END - Math.floor(shape.days / 2) * DAY;

async function load(store: Store, shape: Shape): Promise<void> {
  const sparse = shape.rows - shape.dense;
  const stamp = (j: number) =>
    j < sparse
      ? END - shape.days * DAY + Math.floor((j * shape.days * DAY) / sparse)
      : denseStart(shape) + Math.floor(((j - sparse) * DAY) / shape.dense);
  for (let start = 0; start < shape.rows; start += 5000) {
    const ops: WriteOp[] = [];
    for (let j = start; j < Math.min(shape.rows, start + 5000); j++) {
      const ts = stamp(j);
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,bench.table_${j % 1000},PROD)`;
      const event = { timestampMillis: ts, eventGranularity: { unit: 'DAY', multiple: 1 }, rowCount: j, columnCount: 12 };
      ops.push({ kind: 'timeseries', ...PROFILE, urn, timestampMillis: ts, docId: `d${j}`, event, systemMetadata: null });
    }
    await store.aspects.write({ ops, actor: 'urn:li:corpuser:bench', now: END });
  }
}

async function loaded(backend: { create: () => Promise<TestDatabase> }, shape: Shape): Promise<{ db: TestDatabase; seconds: number }> {
  const db = await backend.create();
  const store = await openStore(db.config);
  const { seconds } = await timed(() => load(store, shape));
  await store.database.close();
  return { db, seconds };
}

async function samples(n: number, run: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await timed(run)).seconds * 1000);
  return out.sort((a, b) => a - b);
}

/** The count the dry run made inside the boundary day before buckets: one range count over that day's table. */
async function dayRangeCount(db: TestDatabase, cutoff: number): Promise<number[]> {
  const start = Math.floor(cutoff / DAY) * DAY;
  if (db.config.kind === 'sqlite') {
    const d = new Database(db.config.path, { readonly: true });
    const id = (d.prepare('SELECT id FROM ts_indices WHERE aspect = ?').get(PROFILE.aspect) as { id: number }).id;
    const g = (d.prepare('SELECT generation FROM ts_partitions WHERE index_id = ? AND start_ms = ?').get(id, start) as { generation: number })
      .generation;
    const q = d.prepare(`SELECT COUNT(*) AS n FROM "${partitionTable(id, start, g)}" WHERE ts < ?`);
    const out = await samples(20, async () => q.get(cutoff));
    d.close();
    return out;
  }
  const c = new pg.Client({ connectionString: db.config.url });
  await c.connect();
  const id = (await c.query<{ id: number }>('SELECT id FROM ts_indices WHERE aspect = $1', [PROFILE.aspect])).rows[0]!.id;
  const g = (await c.query<{ generation: string }>('SELECT generation FROM ts_partitions WHERE index_id = $1 AND start_ms = $2', [id, start]))
    .rows[0]!.generation;
  const table = partitionTable(id, start, Number(g));
  const out = await samples(20, () => c.query(`SELECT COUNT(*) FROM ${table} WHERE ts < $1`, [cutoff]));
  await c.end();
  return out;
}

async function waitTask(server: TestServer, id: string): Promise<{ state: string; rowsDeleted: number }> {
  for (;;) {
    const task = (await server.request('GET', `/api/tasks/${id}?waitMillis=60000`)).json;
    if (task.state !== 'running') return task;
  }
}

/** A policy run until its truncation completes, and the same truncation asked for directly, on identical copies. */
async function policyAgainstTruncation(backend: { create: () => Promise<TestDatabase> }, shape: Shape) {
  const maxAgeInSeconds = Math.floor(shape.days / 2) * 86_400 + 3_600;
  const a = await loaded(backend, shape);
  const b = await loaded(backend, shape);
  try {
    const serverA = await startTestServer(a.db, { ALMANAC_RETENTION_SCHEDULE: 'off' });
    const set = await serverA.request('POST', '/api/retention', {
      body: { entity: 'dataset', aspect: 'datasetProfile', config: { retention: { time: { maxAgeInSeconds } } } },
    });
    if (set.status !== 200) throw new Error(set.text);
    const policy = await timed(async () => {
      const started = (await serverA.request('POST', '/api/retention/run', { body: {} })).json;
      const run = (await serverA.request('GET', `/api/retention/runs/${started.id}?waitMillis=60000`)).json;
      const outcome = run.outcomes.find((o: { aspect: string }) => o.aspect === 'datasetProfile');
      if (outcome?.outcome !== 'started') throw new Error(`retention run: ${JSON.stringify(run)}`);
      return { cutoff: outcome.cutoffMillis as number, task: await waitTask(serverA, outcome.taskId) };
    });
    await serverA.close();
    const serverB = await startTestServer(b.db, { ALMANAC_RETENTION_SCHEDULE: 'off' });
    const direct = await timed(async () => {
      const res = await serverB.request('POST', '/operations?action=truncateTimeseriesAspect', {
        body: { ...PROFILE, endTimeMillis: policy.result.cutoff, dryRun: false },
      });
      if (res.status !== 200) throw new Error(res.text);
      return waitTask(serverB, res.json.value);
    });
    await serverB.close();
    if (policy.result.task.rowsDeleted !== direct.result.rowsDeleted) throw new Error('the policy and the truncation deleted different rows');
    return { rows: direct.result.rowsDeleted, policySeconds: policy.seconds, truncateSeconds: direct.seconds };
  } finally {
    await a.db.drop();
    await b.db.drop();
  }
}

export default async function retentionBench(args: string[]): Promise<void> {
  const shape: Shape = { rows: intFlag(args, 'rows', 10_000_000), days: intFlag(args, 'days', 1000), dense: intFlag(args, 'dense', 2_000_000) };
  const runShape: Shape = { rows: intFlag(args, 'run-rows', 1_000_000), days: 1000, dense: 0 };
  for (const backend of await benchBackends(args)) {
    const { db, seconds } = await loaded(backend, shape);
    const cutoff = denseStart(shape) + DAY / 2 + 12_345;
    let dry: number[];
    let ceiling: number[];
    try {
      const server = await startTestServer(db, { ALMANAC_RETENTION_SCHEDULE: 'off' });
      const body = { ...PROFILE, endTimeMillis: cutoff };
      const ask = async () => {
        const res = await server.request('POST', '/operations?action=truncateTimeseriesAspect', { body });
        if (res.status !== 200) throw new Error(res.text);
      };
      await samples(20, ask); // warm-up
      dry = await samples(50, ask);
      await server.close();
      ceiling = await dayRangeCount(db, cutoff);
    } finally {
      await db.drop();
    }
    const run = await policyAgainstTruncation(backend, runShape);
    console.log(
      `\n### ${backend.name}: ${fmt(shape.rows)} rows over ${fmt(shape.days)} days, ${fmt(shape.dense)} of them in one day (loaded in ${fmt(seconds, 0)} s)\n`,
    );
    printTable(
      ['measure', 'p50', 'p99'],
      [
        ['dry run, cutoff mid-way through the dense day, over HTTP', `${fmt(percentile(dry, 50), 2)} ms`, `${fmt(percentile(dry, 99), 2)} ms`],
        [
          'before buckets: one range count of that day (same engine, no HTTP)',
          `${fmt(percentile(ceiling, 50), 2)} ms`,
          `${fmt(percentile(ceiling, 99), 2)} ms`,
        ],
      ],
    );
    console.log('');
    printTable(
      [`${fmt(runShape.rows)} rows, cutoff mid-way`, 'rows deleted', 'HTTP until the truncation completes'],
      [
        ['retention policy run', fmt(run.rows), `${fmt(run.policySeconds * 1000, 1)} ms`],
        ['truncateTimeseriesAspect, same cutoff', fmt(run.rows), `${fmt(run.truncateSeconds * 1000, 1)} ms`],
        ['policy / truncation', '', `${fmt(run.policySeconds / run.truncateSeconds, 2)}×`],
      ],
    );
  }
}
