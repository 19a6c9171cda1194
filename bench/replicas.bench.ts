// Read replicas: a mixed workload (90% reads, 10% writes) over 50 connections spread across three Almanac processes,
// on the primary alone and on the primary plus one streaming replica (both built for the run by
// scripts/replica-cluster.mjs); the share of reads the replica served; and what the freshness check adds to a
// replica read, timed in process. On one machine the replica competes with the primary for the same cores: the
// throughput figure shows the overhead, not the gain of a replica on a machine of its own.
import pg from 'pg';
import { startReplicaCluster, type ReplicaCluster } from '../scripts/replica-cluster.mjs';
import { loadConfig } from '../src/config.ts';
import { runInReadScope } from '../src/storage/read-scope.ts';
import { openStore } from '../src/storage/open-store.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../scripts/embedded-postgres.mjs';
import { childEnv, ROOT } from '../test/support/process.ts';
import { startTestServer } from '../test/support/server.ts';
import { fmt, intFlag, percentile, printTable } from './support.ts';

const PROCESSES = 3;
const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench.replicas.t${i},PROD)`;
const proposal = (i: number, description: string) => ({
  entityType: 'dataset',
  entityUrn: urnOf(i),
  changeType: 'UPSERT',
  aspectName: 'datasetProperties',
  aspect: { value: JSON.stringify({ description }), contentType: 'application/json' },
});

async function sql(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(text);
  await c.end();
}

/** The processes' reads per handle and fallbacks per reason, summed. */
async function routing(addresses: readonly string[]): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  for (const a of addresses) {
    for (const line of (await (await fetch(`${a}/metrics`)).text()).split('\n')) {
      const m = /^almanac_(?:db_reads_total\{handle="(primary|replica)\d*"|replica_fallbacks_total\{replica="\w+",reason="(\w+)")\} (\S+)$/.exec(
        line,
      );
      if (m) sums.set(m[1] ?? m[2]!, (sums.get(m[1] ?? m[2]!) ?? 0) + Number(m[3]));
    }
  }
  return sums;
}

/** A server process logging warnings only (a line per request would cost more than the work), ready once /ready says so. */
async function serverProcess(env: Record<string, string>): Promise<{ address: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: childEnv({ ...env, PORT: String(port), HOST: '127.0.0.1' }),
    stdio: 'ignore',
  });
  const address = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ready = await fetch(`${address}/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { address, child };
    if (i > 600 || child.exitCode !== null) throw new Error(`the server process on port ${port} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** 50 connections for `seconds`, each request a read with 90% chance, else a write, spread over the processes. */
async function mixedLoad(addresses: readonly string[], token: string, entities: number, connections: number, seconds: number) {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  const worker = async (w: number) => {
    const address = addresses[w % addresses.length]!;
    for (let n = 0; Date.now() < end; n++) {
      const i = Math.floor(Math.random() * entities);
      const start = performance.now();
      const res =
        Math.random() < 0.9
          ? await fetch(`${address}/aspects/${encodeURIComponent(urnOf(i))}?aspect=datasetProperties&version=0`, { headers })
          : await fetch(`${address}/aspects?action=ingestProposal`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ proposal: proposal(i, `w${w}.${n}`) }),
            });
      await res.arrayBuffer();
      latencies.push(performance.now() - start);
      if (res.status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, w) => worker(w)));
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}

/** What choosing the handle costs a read whose request's barrier has already answered (authentication sent it). */
async function freshnessCheck(primaryUrl: string, replicaUrl: string, samples: number): Promise<{ p50: number; p99: number; onReplica: number }> {
  const store = await openStore({ kind: 'postgres', url: primaryUrl, readUrls: [replicaUrl] });
  const router = store.readRouter!;
  const times: number[] = [];
  let onReplica = 0;
  // The listening connection opens on first use: wait for it (and the replica's first check) before timing.
  while ((await store.identity.authChangeMark()) === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (let i = 0; i < samples; i++) {
    const scope = router.newScope();
    await runInReadScope(scope, () => store.identity.authChangeMark());
    const start = performance.now();
    const replica = await router.choose(scope);
    times.push(performance.now() - start);
    if (replica) onReplica++;
  }
  await store.database.close();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), onReplica };
}

export default async function replicasBench(args: string[]): Promise<void> {
  const seconds = intFlag(args, 'seconds', 10);
  const entities = intFlag(args, 'entities', 500);
  const connections = intFlag(args, 'connections', 50);
  const started = await startReplicaCluster();
  if (started.unavailable !== undefined) {
    console.log(`(skipping: ${started.unavailable})`);
    return;
  }
  const cluster = started as ReplicaCluster;
  const rows: string[][] = [];
  try {
    const check = await freshnessCheck(cluster.primaryUrl, cluster.replicaUrl, 2_000);
    for (const withReplica of [false, true]) {
      const name = `bench_replicas_${withReplica ? 'on' : 'off'}`;
      await sql(cluster.primaryUrl, `CREATE DATABASE ${name}`);
      const url = (base: string) => Object.assign(new URL(base), { pathname: `/${name}` }).toString();
      const env: Record<string, string> = { ALMANAC_DATABASE_URL: url(cluster.primaryUrl), LOG_LEVEL: 'warn', ALMANAC_RATE_LIMIT_MAX: '0' };
      if (withReplica) env.ALMANAC_DATABASE_READ_URLS = url(cluster.replicaUrl);
      // One process in this one (it mints the token and seeds), two more as children.
      const first = await startTestServer(
        { name: 'postgres', config: loadConfig(env).database, url: env.ALMANAC_DATABASE_URL!, env, drop: async () => {} },
        env,
      );
      const others: Array<{ address: string; child: ChildProcess }> = [];
      try {
        for (let i = 1; i < PROCESSES; i++) others.push(await serverProcess(env));
        for (let i = 0; i < entities; i += 100) {
          const proposals = Array.from({ length: Math.min(100, entities - i) }, (_, j) => proposal(i + j, 'seed'));
          await first.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } });
        }
        const addresses = [first.url, ...others.map((o) => o.address)];
        const before = await routing(addresses);
        const load = await mixedLoad(addresses, first.adminToken, entities, connections, seconds);
        const after = await routing(addresses);
        const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
        const replicaReads = delta('replica');
        const allReads = replicaReads + delta('primary');
        const reasons = [...after.keys()].filter((k) => k !== 'primary' && k !== 'replica' && delta(k) > 0);
        rows.push([
          withReplica ? 'primary + 1 replica' : 'primary only',
          fmt(load.perSecond),
          fmt(load.p50, 2),
          fmt(load.p99, 2),
          withReplica ? `${fmt((100 * replicaReads) / Math.max(1, allReads), 1)}%` : '-',
          reasons.map((k) => `${k} ${fmt(delta(k))}`).join(', ') || '-',
          String(load.errors),
        ]);
      } finally {
        await Promise.all(others.map((o) => new Promise((resolve) => (o.child.kill('SIGTERM'), o.child.once('exit', resolve)))));
        await first.close();
        await sql(cluster.primaryUrl, `DROP DATABASE ${name} WITH (FORCE)`);
      }
    }
    printTable(
      ['setup (3 processes, 50 connections, 90% reads)', 'requests/s', 'p50 ms', 'p99 ms', 'reads on the replica', 'fallbacks', 'errors'],
      rows,
    );
    console.log();
    printTable(
      ['freshness check on a read (in process, after the request barrier)', 'p50 ms', 'p99 ms', 'served by the replica'],
      [['router.choose', fmt(check.p50, 4), fmt(check.p99, 4), `${check.onReplica} of 2,000`]],
    );
  } finally {
    await cluster.stop();
  }
}
