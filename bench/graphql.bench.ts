// GraphQL over loopback HTTP on a catalog of 50,000 datasets, against ceilings that do the same database work in the
// same run (bench/ceiling-server.ts): the deprecation query against a bare node:http server reading the same row by
// primary key from the same database, updateDeprecation against the same server running one single-row upsert
// transaction per request. The load generator is wrk, in its own process; rounds interleave every measurement.
// Two more rows price what the request path adds: the query on a second server over the same database with
// ALMANAC_METRICS=false (the cost of metrics), and updateDeprecation by a Reader whom a DataHub policy allows (the cost
// of evaluating policies, against the Admin, whose role grants it).
import type { Store, WriteOp } from '../src/storage/store.ts';
import { actorWithRole } from '../test/support/actors.ts';
import { startTestServer, type TestServer } from '../test/support/server.ts';
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
    await store.aspects.write({ ops, actor: ADMIN, now });
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

/** A Reader, and a policy that lets exactly that user deprecate every dataset: each write is decided by the policy. */
async function readerAllowedByPolicy(server: TestServer): Promise<string> {
  const auth = await actorWithRole(server, 'bench-reader', 'Reader');
  const input = {
    type: 'METADATA',
    name: 'bench: the reader deprecates datasets',
    state: 'ACTIVE',
    privileges: ['EDIT_DEPRECATION_PRIVILEGE'],
    resources: { type: 'dataset', allResources: true },
    actors: { users: ['urn:li:corpuser:bench-reader'], resourceOwners: false, allUsers: false, allGroups: false },
  };
  const res = await fetch(`${server.url}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.adminToken}` },
    body: JSON.stringify({ query: 'mutation p($input: PolicyUpdateInput!) { createPolicy(input: $input) }', variables: { input } }),
  });
  const json = (await res.json()) as { data?: { createPolicy?: string }; errors?: unknown };
  if (!json.data?.createPolicy) throw new Error(`policy setup failed: ${JSON.stringify(json)}`);
  return auth.slice('Bearer '.length);
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
    const unmetered = await startTestServer(db, { ALMANAC_METRICS: 'false' });
    try {
      const seeded = await timed(() => seedCatalog(server.app.services.store, datasets));
      console.log(`${db.name}: ${fmt(datasets)} datasets written in ${fmt(seeded.seconds, 1)} s`);
      const url = `${server.url}/api/graphql`;
      await verify(url, server.adminToken, datasets);
      const unmeteredUrl = `${unmetered.url}/api/graphql`;
      const readerToken = await readerAllowedByPolicy(server);
      const job = (target: string, kind: WrkJob['kind'], secs = seconds, token = server.adminToken): WrkJob => ({
        url: target,
        token,
        connections,
        seconds: secs,
        kind,
        datasets,
      });
      // Warm-ups (JIT, document cache, connection pools) are not measured.
      for (const [target, kind] of [
        [ceiling.url, 'query'],
        [url, 'query'],
        [unmeteredUrl, 'query'],
        [ceiling.url, 'update'],
        [url, 'update'],
      ] as const)
        await wrk(job(target, kind, 2));
      await wrk(job(url, 'update', 2, readerToken));
      // Rounds interleave each ceiling with what it bounds, and the median round of each is reported: on a shared
      // 2-core machine one run of 10 s can be off by a third.
      const runs: Record<'readCeiling' | 'floor' | 'query' | 'unmetered' | 'writeCeiling' | 'writes' | 'policyWrites', WrkResult[]> = {
        readCeiling: [],
        floor: [],
        query: [],
        unmetered: [],
        writeCeiling: [],
        writes: [],
        policyWrites: [],
      };
      for (let r = 0; r < rounds; r++) {
        runs.readCeiling.push(await wrk(job(ceiling.url, 'query')));
        runs.query.push(await wrk(job(url, 'query')));
        runs.unmetered.push(await wrk(job(unmeteredUrl, 'query')));
        runs.floor.push(await wrk(job(url, 'floor')));
        runs.writeCeiling.push(await wrk(job(ceiling.url, 'update')));
        // Each write run adds versions and WAL for the next to carry: the two orders alternate between rounds.
        const adminWrites = async () => runs.writes.push(await wrk(job(url, 'update')));
        const readerWrites = async () => runs.policyWrites.push(await wrk(job(url, 'update', seconds, readerToken)));
        for (const run of r % 2 === 0 ? [adminWrites, readerWrites] : [readerWrites, adminWrites]) await run();
      }
      const median = (xs: WrkResult[]): WrkResult => [...xs].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(xs.length / 2)]!;
      const m = Object.fromEntries(Object.entries(runs).map(([k, xs]) => [k, median(xs)])) as Record<keyof typeof runs, WrkResult>;
      const spread = (k: keyof typeof runs) => runs[k].map((x) => fmt(x.perSecond)).join(' / ');
      console.log(
        `${db.name} rounds, req/s: read ceiling ${spread('readCeiling')}; query ${spread('query')}; write ceiling ${spread('writeCeiling')}; updateDeprecation ${spread('writes')}`,
      );
      const name = db.name === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      // Each measurement beside the ceiling that bounds it.
      const lines: Array<[string, keyof typeof runs, 'readCeiling' | 'writeCeiling']> = [
        ['read ceiling: node:http, one row by primary key', 'readCeiling', 'readCeiling'],
        ['dataset deprecation query', 'query', 'readCeiling'],
        ['the same query, ALMANAC_METRICS=false (what metrics cost)', 'unmetered', 'readCeiling'],
        ['GraphQL `{ __typename }` (HTTP + auth + GraphQL, no data)', 'floor', 'readCeiling'],
        ['write ceiling: node:http, one single-row upsert transaction', 'writeCeiling', 'writeCeiling'],
        ['updateDeprecation (each a new version)', 'writes', 'writeCeiling'],
        ['updateDeprecation by a Reader a policy allows (what policies cost)', 'policyWrites', 'writeCeiling'],
      ];
      for (const [what, k, ceiling] of lines) {
        const r = m[k];
        rows.push([name, what, fmt(r.perSecond), ms(r.p50), ms(r.p99), pct(r.perSecond, m[ceiling].perSecond), times(r.p99, m[ceiling].p99)]);
      }
      console.log(
        `${name}: metrics cost ${pct(m.unmetered.perSecond - m.query.perSecond, m.unmetered.perSecond)} of the query's throughput; ` +
          `policy evaluation costs ${pct(m.writes.perSecond - m.policyWrites.perSecond, m.writes.perSecond)} of updateDeprecation's`,
      );
    } finally {
      await unmetered.close();
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
