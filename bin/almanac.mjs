#!/usr/bin/env node
// Runs the compiled CLI in dist/ (built at `npm ci`, or `npm run build`) while it matches src/; otherwise runs the
// TypeScript directly through tsx, slower to start, and says so: a stale build never runs.
import { ensureSupportedNode } from '../scripts/pinned-node.mjs';

await ensureSupportedNode(import.meta.url);
const { distState } = await import('../scripts/dist.mjs');
const state = distState();
let cli;
if (state === 'fresh') {
  cli = await import('../dist/cli.js');
} else {
  process.stderr.write(
    `almanac: dist/ is ${state === 'missing' ? 'not built' : 'older than src/'}; running from TypeScript (slower start; \`npm run build\` compiles it)\n`,
  );
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli/main.ts');
}
await cli.run(process.argv);
