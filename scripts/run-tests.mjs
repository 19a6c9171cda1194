// Runs every test file under test/ with node's test runner, TypeScript loaded by tsx. When no PostgreSQL answers at
// the test URL, the PostgreSQL tier runs on an embedded one (scripts/embedded-postgres.mjs) instead of being skipped.
// --pgbouncer: the PostgreSQL tier's pools go through PgBouncer in transaction mode (scripts/pgbouncer.mjs), the
// listeners straight to the server. --replicas: the PostgreSQL tier runs on a primary and a streaming replica built
// for the run (scripts/replica-cluster.mjs), every server it starts reading from the replica.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildDist } from './dist.mjs';
import { postgresForTests } from './embedded-postgres.mjs';
import { startPgBouncer } from './pgbouncer.mjs';
import { startReplicaCluster } from './replica-cluster.mjs';
import { ensureSupportedNode } from './pinned-node.mjs';

await ensureSupportedNode(import.meta.url);

const files = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : e.name.endsWith('.test.ts') ? [p] : [];
  });

const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const selected = files('test')
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
// A name that matches no file is a mistake (a renamed file would silently leave a tier), not an empty selection.
const unmatched = only.filter((o) => !selected.some((f) => f.includes(o)));
if (selected.length === 0 || unmatched.length > 0) {
  console.error(`no test files matched ${unmatched.length > 0 ? unmatched.join(', ') : 'the selection'}`);
  process.exit(1);
}

const env = { ...process.env };
const stops = [];
const fail = async (message) => {
  console.error(message);
  for (const stop of stops) await stop();
  process.exit(1);
};
if (flags.has('--replicas')) {
  const cluster = await startReplicaCluster();
  if (cluster.unavailable) await fail(`--replicas: ${cluster.unavailable}`);
  console.log(`Primary at ${cluster.primaryUrl}, streaming replica at ${cluster.replicaUrl}`);
  stops.push(cluster.stop);
  env.ALMANAC_TEST_POSTGRES_URL = cluster.primaryUrl;
  env.ALMANAC_TEST_POSTGRES_READ_URL = cluster.replicaUrl;
  env.ALMANAC_TEST_REPLICATION = JSON.stringify(cluster);
} else {
  const postgres = await postgresForTests(env.ALMANAC_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  env.ALMANAC_TEST_POSTGRES_URL = postgres.url;
  if (postgres.stop) {
    stops.push(async () => {
      await postgres.stop();
      console.log('Embedded PostgreSQL stopped');
    });
  }
}
if (flags.has('--pgbouncer')) {
  const bouncer = await startPgBouncer(env.ALMANAC_TEST_POSTGRES_URL);
  if (bouncer.unavailable) await fail(`--pgbouncer: ${bouncer.unavailable}`);
  const direct = new URL(env.ALMANAC_TEST_POSTGRES_URL);
  console.log(`PgBouncer (transaction mode) at ${bouncer.url()}, in front of ${direct.host}`);
  stops.unshift(bouncer.stop);
  env.ALMANAC_TEST_POSTGRES_DIRECT_URL = env.ALMANAC_TEST_POSTGRES_URL;
  env.ALMANAC_TEST_POSTGRES_URL = bouncer.url(direct.pathname.slice(1));
}

// The CLI tests run bin/almanac.mjs, which runs dist/ only while it matches src/: build it so they test this tree.
await buildDist();
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...selected], { stdio: 'inherit', env });
// Interrupted, the runner stops the tests, then the embedded PostgreSQL, before it exits.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const status = await new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
for (const stop of stops) await stop();
process.exit(status);
