// CLI start-up: wall time from spawning `almanac` to its exit, for `--help` and for a read (`get` of one dataset
// against a server running on SQLite in this process), beside `node -e 0` (the floor: Node itself) and the same
// commands run from TypeScript through tsx (what a stale or missing dist/ falls back to). Median of N runs each.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { distState, buildDist } from '../scripts/dist.mjs';
import { createSqliteDatabase } from '../test/support/databases.ts';
import { mcp } from '../test/support/fixtures.ts';
import { ROOT, childEnv } from '../test/support/process.ts';
import { startTestServer } from '../test/support/server.ts';
import { fmt, intFlag, printTable } from './support.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,bench.startup,PROD)';
const BIN = path.join(ROOT, 'bin/almanac.mjs');
// The TypeScript path, as bin/almanac.mjs takes it when dist/ does not match src/.
const FROM_TS = `import { register } from 'tsx/esm/api'; register(); const { run } = await import('./src/cli/main.ts'); await run(['node', 'almanac', ...process.argv.slice(1)]);`;

/** Milliseconds from spawn to exit of each run (spawned asynchronously: the server answering `get` runs in this process). */
async function times(file: string, args: readonly string[], env: NodeJS.ProcessEnv, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const child = spawn(file, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (status !== 0) throw new Error(`${file} ${args.join(' ')} exited ${status}: ${stderr}`);
  }
  return out.sort((a, b) => a - b);
}

export default async function cliStartup(args: string[]): Promise<void> {
  const runs = intFlag(args, 'runs', 9);
  if (distState() !== 'fresh') await buildDist();
  const db = await createSqliteDatabase();
  const server = await startTestServer(db);
  try {
    const ingested = await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal: mcp(URN, 'status', { removed: false }) } });
    if (ingested.status !== 200) throw new Error(`ingest answered ${ingested.status}`);
    const env = childEnv({ DATAHUB_GMS_URL: server.url, DATAHUB_GMS_TOKEN: server.adminToken });
    const node = process.execPath;
    const cases: Array<[string, string, readonly string[]]> = [
      ['node -e 0 (the floor)', node, ['-e', '0']],
      ['almanac --help', BIN, ['--help']],
      ['almanac get <urn>', BIN, ['get', URN]],
      ['almanac --help, from TypeScript (tsx)', node, ['--input-type=module', '-e', FROM_TS, '--help']],
      ['almanac get <urn>, from TypeScript (tsx)', node, ['--input-type=module', '-e', FROM_TS, 'get', URN]],
    ];
    const rows: string[][] = [];
    let floor = 0;
    for (const [name, file, argv] of cases) {
      const t = await times(file, argv, env, runs);
      const median = t[Math.floor(t.length / 2)]!;
      if (rows.length === 0) floor = median;
      rows.push([name, fmt(median), fmt(t[0]!), fmt(t.at(-1)!), rows.length === 0 ? '' : `+${fmt(median - floor)}`]);
    }
    console.log(`${runs} runs each on ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}; milliseconds from spawn to exit`);
    printTable(['command', 'median ms', 'min ms', 'max ms', 'over node -e 0'], rows);
  } finally {
    await server.close();
    await db.drop();
  }
}
