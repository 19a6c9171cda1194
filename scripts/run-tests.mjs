// Runs every test file under test/ with node's test runner, TypeScript loaded by tsx.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildDist } from './dist.mjs';
import { ensureSupportedNode } from './pinned-node.mjs';

ensureSupportedNode(import.meta.url);

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
// The CLI tests run bin/almanac.mjs, which runs dist/ only while it matches src/: build it so they test this tree.
await buildDist();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...selected], { stdio: 'inherit' });
process.exit(result.status ?? 1);
