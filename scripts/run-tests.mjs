// Runs every test file under test/ with node's test runner, TypeScript loaded by tsx. When no PostgreSQL answers at
// the test URL, the PostgreSQL tier runs on an embedded one (scripts/embedded-postgres.mjs) instead of being skipped.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildDist } from './dist.mjs';
import { postgresForTests } from './embedded-postgres.mjs';
import { ensureSupportedNode } from './pinned-node.mjs';

await ensureSupportedNode(import.meta.url);

const files = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : e.name.endsWith('.test.ts') ? [p] : [];
  });

const only = process.argv.slice(2);
const selected = files('test')
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (selected.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

const env = { ...process.env };
const postgres = await postgresForTests(env.ALMANAC_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
env.ALMANAC_TEST_POSTGRES_URL = postgres.url;

// The CLI tests run bin/almanac.mjs, which runs dist/ only while it matches src/: build it so they test this tree.
await buildDist();
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...selected], { stdio: 'inherit', env });
// Interrupted, the runner stops the tests, then the embedded PostgreSQL, before it exits.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const status = await new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
if (postgres.stop) {
  await postgres.stop();
  console.log('Embedded PostgreSQL stopped');
}
process.exit(status);
