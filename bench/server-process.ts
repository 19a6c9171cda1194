// A benchmark's server in a process of its own (bench/bench-server.ts), on a database the benchmark created: the load
// generator, in the benchmark's process, does not share the server's thread.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { TestDatabase } from '../test/support/databases.ts';
import { childEnv, ROOT } from '../test/support/process.ts';
import { timed } from './support.ts';

/** A server process of its own: its address, an admin token, and how to stop it. */
export interface BenchServer {
  readonly url: string;
  readonly adminToken: string;
  close(): Promise<void>;
}

/** Starts the server on `db`, with the parts `off` names turned off (`log`, `search`: bench/bench-server.ts). */
export async function serverProcess(db: TestDatabase, off: ReadonlyArray<'log' | 'search'> = []): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bench-server.ts', ...off.map((part) => `${part}=off`)], {
    cwd: ROOT,
    env: childEnv({ ...db.env, ALMANAC_RETENTION_SCHEDULE: 'off', ALMANAC_WEBHOOK_DELIVERY: 'false' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for await (const line of createInterface({ input: child.stdout! })) {
    const { url, token } = JSON.parse(line) as { url: string; token: string };
    return {
      url,
      adminToken: token,
      close: async () => {
        child.kill('SIGTERM');
        await exited;
      },
    };
  }
  throw new Error('the benchmark server exited before it was ready');
}

/** POSTs a JSON body as DataHub's Rest.li clients do, with the admin token; throws unless the answer is 200. */
export async function post(server: BenchServer, path: string, body: string): Promise<void> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0' },
    body,
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

/** POSTs each body in turn over `concurrency` requests in flight (post); the seconds it took. */
export async function postAll(server: BenchServer, path: string, bodies: readonly string[], concurrency: number): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) await post(server, path, bodies[next++]!);
  };
  return (await timed(() => Promise.all(Array.from({ length: concurrency }, worker)))).seconds;
}
