// GraphQL over loopback HTTP on a catalog of 50,000 datasets: the deprecation query
// against a bare node:http server, and updateDeprecation against the raw single-row
// transaction rate of the same engine, each ceiling measured in the same run.
import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Store, WriteOp } from '../src/storage/store.ts';
import type { TestDatabase } from '../test/support/databases.ts';
import { actorWithRole } from '../test/support/actors.ts';
import { startTestServer, type TestServer } from '../test/support/server.ts';
import { benchUrn, bodyOf, type LoadJob, type LoadResult } from './graphql-workload.ts';
import { benchBackends, fmt, intFlag, printTable, timed } from './support.ts';

const GENERATOR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-generator.ts');
const ADMIN = 'urn:li:corpuser:datahub';

/**
 * Runs the load generator in its own process. Also returns the CPU time this
 * process (where the server runs) spent per request: on 2 cores the generator
 * takes one, so CPU per request explains a rate better than the rate alone.
 */
async function load(job: LoadJob): Promise<LoadResult & { cpuMicros: number }> {
  const cpu = process.cpuUsage();
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', GENERATOR, JSON.stringify(job)], { maxBuffer: 1 << 20 });
  const used = process.cpuUsage(cpu);
  const result = JSON.parse(stdout.trim().split('\n').pop()!) as LoadResult;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`load run failed: ${JSON.stringify(result)}`);
  return { ...result, cpuMicros: (used.user + used.system) / result.requests };
}

/** Writes the catalog straight through the store, in batches of whole datasets. */
async function seedCatalog(store: Store, datasets: number): Promise<void> {
  const now = Date.now();
  const sm = { runId: 'bench', lastObserved: now };
  const batch = 1000;
  const batches = Array.from({ length: Math.ceil(datasets / batch) }, (_, b) => b);
  const writeBatch = async (b: number) => {
    const ops: WriteOp[] = [];
    for (let i = b * batch; i < Math.min(datasets, (b + 1) * batch); i++) {
      const urn = benchUrn(i);
      const op = (aspect: string, value: Record<string, unknown>, onlyIfAbsent = false): WriteOp => ({ kind: 'aspect', entityType: 'dataset', urn, aspect, value, systemMetadata: sm, onlyIfAbsent });
      ops.push(op('datasetKey', { platform: 'urn:li:dataPlatform:hive', name: `bench.table_${i}`, origin: 'PROD' }, true));
      ops.push(op('status', { removed: false }));
      ops.push(op('datasetProperties', { name: `table_${i}`, description: `Benchmark table ${i}` }));
      if (i % 4 === 0) ops.push(op('deprecation', { deprecated: true, decommissionTime: now + i, note: 'Use the new table', actor: ADMIN }));
    }
    await store.write({ ops, actor: ADMIN, now });
  };
  // A few batches at a time: PostgreSQL overlaps them on its pool, SQLite runs them one after another anyway.
  for (let i = 0; i < batches.length; i += 4) await Promise.all(batches.slice(i, i + 4).map(writeBatch));
}

/** The ceiling: node:http answering a small JSON body, nothing else. */
async function bareServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const body = JSON.stringify({ data: { dataset: { deprecation: { deprecated: false, decommissionTime: null } } }, extensions: {} });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/api/graphql`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Single-row upsert transactions, back to back, on a scratch SQLite file with the adapter's pragmas. */
async function rawSqliteTx(db: TestDatabase, seconds: number, rows: number): Promise<number> {
  if (db.config.kind !== 'sqlite') throw new Error('not sqlite');
  const raw = new Database(path.join(path.dirname(db.config.path), 'raw-tx.db'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.exec('CREATE TABLE IF NOT EXISTS raw (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const upsert = raw.prepare('INSERT INTO raw (id, v) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET v = excluded.v');
  const tx = raw.transaction((id: number, v: string) => upsert.run(id, v));
  let n = 0;
  const { seconds: took } = await timed(async () => {
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) for (let k = 0; k < 500; k++, n++) tx.immediate((n * 7919) % rows, `bench write ${n}`);
  });
  raw.close();
  return n / took;
}

/** Single-row upsert transactions from `connections` concurrent callers over a pool the size of the adapter's. */
async function rawPostgresTx(db: TestDatabase, seconds: number, rows: number, connections: number): Promise<number> {
  if (db.config.kind !== 'postgres') throw new Error('not postgres');
  const pool = new pg.Pool({ connectionString: db.config.url, max: 10 });
  await pool.query('CREATE TABLE IF NOT EXISTS raw (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const caller = async () => {
    while (performance.now() < end) {
      const i = n++;
      await pool.query('INSERT INTO raw (id, v) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET v = excluded.v', [(i * 7919) % rows, `bench write ${i}`]);
    }
  };
  const { seconds: took } = await timed(() => Promise.all(Array.from({ length: connections }, caller)));
  await pool.end();
  return n / took;
}

/**
 * A Reader whose only way to deprecate is a policy on the benchmark's datasets (a urn-prefix criterion), so each of its
 * writes is decided by reading and evaluating the policies; returns its raw token.
 */
async function policyWriter(server: TestServer): Promise<string> {
  const auth = await actorWithRole(server, 'bench-reader', 'Reader');
  await server.app.services.policies.create(
    { actorUrn: ADMIN, kind: 'user' },
    {
      type: 'METADATA',
      name: 'bench: the Reader deprecates the benchmark datasets',
      state: 'ACTIVE',
      privileges: ['EDIT_DEPRECATION_PRIVILEGE'],
      actors: { users: ['urn:li:corpuser:bench-reader'], resourceOwners: false, allUsers: false, allGroups: false },
      resources: { filter: { criteria: [{ field: 'URN', values: [benchUrn(0).slice(0, benchUrn(0).indexOf('table_'))], condition: 'STARTS_WITH' }] } },
    },
  );
  return auth.slice('Bearer '.length);
}

/** One request of each kind through the real server, so a broken setup fails loudly instead of measuring errors. */
async function verify(url: string, token: string, datasets: number): Promise<void> {
  for (const kind of ['query', 'update'] as const) {
    const job: LoadJob = { url, token, connections: 1, seconds: 1, body: { kind, datasets } };
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: bodyOf(job, 4) });
    const json = (await res.json()) as { data?: Record<string, unknown>; errors?: unknown };
    const ok = kind === 'query' ? (json.data?.dataset as { deprecation?: { deprecated?: boolean } })?.deprecation?.deprecated === true : json.data?.updateDeprecation === true;
    if (!ok || json.errors) throw new Error(`${kind} check failed: ${JSON.stringify(json)}`);
  }
}

const pct = (a: number, b: number) => `${fmt((a / b) * 100, 1)}%`;
const ms = (n: number) => fmt(n, n < 10 ? 2 : 1);

export default async function graphqlBench(args: string[]): Promise<void> {
  const datasets = intFlag(args, 'datasets', 50_000);
  const connections = intFlag(args, 'connections', 50);
  const seconds = intFlag(args, 'seconds', 10);
  const rounds = intFlag(args, 'rounds', 3);
  const rows: string[][] = [];
  for (const backend of await benchBackends(args)) {
    const db = await backend.create();
    const server = await startTestServer(db);
    const bare = await bareServer();
    try {
      const seeded = await timed(() => seedCatalog(server.app.services.store, datasets));
      console.log(`${db.name}: ${fmt(datasets)} datasets written in ${fmt(seeded.seconds, 1)} s`);
      const url = `${server.url}/api/graphql`;
      await verify(url, server.adminToken, datasets);
      const readerToken = await policyWriter(server);
      await verify(url, readerToken, datasets);
      const job = (target: string, kind: LoadJob['body']['kind'], secs = seconds): LoadJob => ({ url: target, token: server.adminToken, connections, seconds: secs, body: { kind, datasets } });
      // Warm-ups (JIT, document cache, connection pools) are not measured.
      await load(job(bare.url, 'query', 2));
      await load(job(url, 'query', 2));
      // Rounds interleave the ceiling with what it bounds, and the median round of each is reported:
      // on a shared 2-core machine one run of 10 s can be off by a third.
      type Run = Awaited<ReturnType<typeof load>>;
      const runs: Record<'ceiling' | 'floor' | 'query' | 'writes' | 'policyWrites', Run[]> = { ceiling: [], floor: [], query: [], writes: [], policyWrites: [] };
      const rawRuns: number[] = [];
      for (let r = 0; r < rounds; r++) {
        runs.ceiling.push(await load(job(bare.url, 'query')));
        runs.floor.push(await load(job(url, 'floor')));
        runs.query.push(await load(job(url, 'query')));
        runs.writes.push(await load(job(url, 'update')));
        runs.policyWrites.push(await load({ ...job(url, 'update'), token: readerToken }));
        rawRuns.push(db.name === 'sqlite' ? await rawSqliteTx(db, seconds, datasets) : await rawPostgresTx(db, seconds, datasets, connections));
      }
      const median = <T>(xs: T[], rate: (x: T) => number): T => [...xs].sort((a, b) => rate(a) - rate(b))[Math.floor(xs.length / 2)]!;
      const [ceiling, floor, query, writes, policyWrites] = [runs.ceiling, runs.floor, runs.query, runs.writes, runs.policyWrites].map((xs) => median(xs, (x) => x.perSecond)) as [Run, Run, Run, Run, Run];
      const rawTx = median(rawRuns, (x) => x);
      const spread = (k: keyof typeof runs) => runs[k].map((x) => fmt(x.perSecond)).join(' / ');
      console.log(`${db.name} rounds, req/s: node:http ${spread('ceiling')}; query ${spread('query')}; updateDeprecation ${spread('writes')}; by policy ${spread('policyWrites')}`);
      const name = db.name === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      const row = (what: string, r: Run, ratio: string) => [name, what, fmt(r.perSecond), ms(r.p50), ms(r.p99), fmt(r.cpuMicros), ratio];
      rows.push(row('bare node:http, small JSON (ceiling)', ceiling, '100%'));
      rows.push(row('GraphQL `{ __typename }` (HTTP + auth + GraphQL, no data)', floor, `${pct(floor.perSecond, ceiling.perSecond)} of node:http`));
      rows.push(row('dataset deprecation query, variables', query, `${pct(query.perSecond, ceiling.perSecond)} of node:http`));
      rows.push([name, 'raw single-row transaction (ceiling)', fmt(rawTx), '', '', '', '100%']);
      rows.push(row('updateDeprecation (each a new version)', writes, `${pct(writes.perSecond, rawTx)} of raw tx`));
      rows.push(row('updateDeprecation by a Reader a policy allows', policyWrites, `${pct(policyWrites.perSecond, writes.perSecond)} of an Admin's`));
    } finally {
      await bare.close();
      await server.close();
      await db.drop();
    }
  }
  console.log(`\n${fmt(datasets)} datasets, ${connections} connections, ${seconds} s per run, median of ${rounds} rounds, load generator (autocannon) in its own process on the same machine:\n`);
  printTable(['backend', 'measurement', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'ratio'], rows);
  console.log('\nserver CPU µs/req: CPU time of the benchmark process (the server) per request; on PostgreSQL the database server\'s own CPU is not included.');
}
