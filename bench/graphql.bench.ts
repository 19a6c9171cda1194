// GraphQL over loopback HTTP on a catalog of 50,000 datasets, against ceilings that do the same database work in the
// same run (bench/ceiling-server.ts): the deprecation query against a bare node:http server reading the same row by
// primary key from the same database, updateDeprecation against the same server running one single-row upsert
// transaction per request. The load generator is wrk, in its own process; rounds interleave every measurement.
import type { Store, WriteOp } from '../src/storage/store.ts';
import { startTestServer } from '../test/support/server.ts';
import { startCeilingServer } from './ceiling-server.ts';
import { benchUrn, bodyOf, type LoadJob } from './graphql-workload.ts';
import { benchBackends, fmt, intFlag, printTable, timed } from './support.ts';
import { ensureWrk, wrk, type WrkJob, type WrkResult } from './wrk.ts';

const ADMIN = 'urn:li:corpuser:datahub';

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
      const op = (aspect: string, value: Record<string, unknown>, onlyIfAbsent = false): WriteOp => ({
        kind: 'aspect',
        entityType: 'dataset',
        urn,
        aspect,
        value,
        systemMetadata: sm,
        onlyIfAbsent,
      });
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

/** One request of each kind through the real server, so a broken setup fails loudly instead of measuring errors. */
async function verify(url: string, token: string, datasets: number): Promise<void> {
  for (const kind of ['query', 'update'] as const) {
    const job: LoadJob = { url, token, connections: 1, seconds: 1, body: { kind, datasets } };
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: bodyOf(job, 4),
    });
    const json = (await res.json()) as { data?: Record<string, unknown>; errors?: unknown };
    const ok =
      kind === 'query'
        ? (json.data?.dataset as { deprecation?: { deprecated?: boolean } })?.deprecation?.deprecated === true
        : json.data?.updateDeprecation === true;
    if (!ok || json.errors) throw new Error(`${kind} check failed: ${JSON.stringify(json)}`);
  }
}

const pct = (a: number, b: number) => `${fmt((a / b) * 100, 1)}%`;
const ms = (n: number) => fmt(n, n < 10 ? 2 : 1);
const times = (a: number, b: number) => `${fmt(a / b, 1)}×`;

export default async function graphqlBench(args: string[]): Promise<void> {
  ensureWrk();
  const datasets = intFlag(args, 'datasets', 50_000);
  const connections = intFlag(args, 'connections', 50);
  const seconds = intFlag(args, 'seconds', 10);
  const rounds = intFlag(args, 'rounds', 3);
  const rows: string[][] = [];
  for (const backend of await benchBackends(args)) {
    const db = await backend.create();
    const server = await startTestServer(db);
    const ceiling = await startCeilingServer(db);
    try {
      const seeded = await timed(() => seedCatalog(server.app.services.store, datasets));
      console.log(`${db.name}: ${fmt(datasets)} datasets written in ${fmt(seeded.seconds, 1)} s`);
      const url = `${server.url}/api/graphql`;
      await verify(url, server.adminToken, datasets);
      const job = (target: string, kind: WrkJob['kind'], secs = seconds): WrkJob => ({
        url: target,
        token: server.adminToken,
        connections,
        seconds: secs,
        kind,
        datasets,
      });
      // Warm-ups (JIT, document cache, connection pools) are not measured.
      for (const [target, kind] of [
        [ceiling.url, 'query'],
        [url, 'query'],
        [ceiling.url, 'update'],
        [url, 'update'],
      ] as const)
        await wrk(job(target, kind, 2));
      // Rounds interleave each ceiling with what it bounds, and the median round of each is reported: on a shared
      // 2-core machine one run of 10 s can be off by a third.
      const runs: Record<'readCeiling' | 'floor' | 'query' | 'writeCeiling' | 'writes', WrkResult[]> = {
        readCeiling: [],
        floor: [],
        query: [],
        writeCeiling: [],
        writes: [],
      };
      for (let r = 0; r < rounds; r++) {
        runs.readCeiling.push(await wrk(job(ceiling.url, 'query')));
        runs.query.push(await wrk(job(url, 'query')));
        runs.floor.push(await wrk(job(url, 'floor')));
        runs.writeCeiling.push(await wrk(job(ceiling.url, 'update')));
        runs.writes.push(await wrk(job(url, 'update')));
      }
      const median = (xs: WrkResult[]): WrkResult => [...xs].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(xs.length / 2)]!;
      const m = Object.fromEntries(Object.entries(runs).map(([k, xs]) => [k, median(xs)])) as Record<keyof typeof runs, WrkResult>;
      const spread = (k: keyof typeof runs) => runs[k].map((x) => fmt(x.perSecond)).join(' / ');
      console.log(
        `${db.name} rounds, req/s: read ceiling ${spread('readCeiling')}; query ${spread('query')}; write ceiling ${spread('writeCeiling')}; updateDeprecation ${spread('writes')}`,
      );
      const name = db.name === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      const row = (what: string, r: WrkResult, ratio: string, p99: string) => [name, what, fmt(r.perSecond), ms(r.p50), ms(r.p99), ratio, p99];
      rows.push(row('read ceiling: node:http, one row by primary key', m.readCeiling, '100%', '1×'));
      rows.push(row('dataset deprecation query', m.query, pct(m.query.perSecond, m.readCeiling.perSecond), times(m.query.p99, m.readCeiling.p99)));
      rows.push(
        row(
          'GraphQL `{ __typename }` (HTTP + auth + GraphQL, no data)',
          m.floor,
          pct(m.floor.perSecond, m.readCeiling.perSecond),
          times(m.floor.p99, m.readCeiling.p99),
        ),
      );
      rows.push(row('write ceiling: node:http, one single-row upsert transaction', m.writeCeiling, '100%', '1×'));
      rows.push(
        row(
          'updateDeprecation (each a new version)',
          m.writes,
          pct(m.writes.perSecond, m.writeCeiling.perSecond),
          times(m.writes.p99, m.writeCeiling.p99),
        ),
      );
    } finally {
      await ceiling.close();
      await server.close();
      await db.drop();
    }
  }
  console.log(
    `\n${fmt(datasets)} datasets, ${connections} connections, ${seconds} s per run, median of ${rounds} rounds, wrk in its own process on the same machine:\n`,
  );
  printTable(['backend', 'measurement', 'req/s', 'p50 ms', 'p99 ms', 'of ceiling', 'p99 vs ceiling'], rows);
}
