import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The environment of a child process: the parent's, minus anything Almanac reads. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('ALMANAC_') || k.startsWith('DATAHUB_') || k === 'PORT') delete env[k];
  return { ...env, ...extra };
}

export interface ServerProcess {
  readonly address: string;
  readonly child: ChildProcess;
  /** The server's own pid (from its log), which differs from the child's when a wrapper (npm, an older Node) started it. */
  readonly serverPid: number;
  /** The JSON log lines it wrote after "almanac ready", parsed, as they arrive. */
  readonly log: ReadonlyArray<Record<string, unknown>>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `src/main.ts` (or `args`, e.g. the bin's `serve`, run by `command`, e.g. npm) in its own process on a free
 * port and waits for its "almanac ready" log line.
 */
export async function startServerProcess(
  env: Record<string, string>,
  args: readonly string[] = ['--import', 'tsx', 'src/main.ts'],
  command: string = process.execPath,
): Promise<ServerProcess> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let address: string | undefined;
  let serverPid = 0;
  const log: Array<Record<string, unknown>> = [];
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  for (let next = await lines.next(); !next.done; next = await lines.next()) {
    // npm writes its own lines ("> almanac@0.1.0 start") before the server's.
    if (!next.value.startsWith('{')) continue;
    const entry = JSON.parse(next.value) as { msg?: string; address?: string; pid?: number };
    if (entry.msg === 'almanac ready') {
      address = entry.address;
      serverPid = entry.pid ?? 0;
      break;
    }
  }
  if (!address) throw new Error(`server process did not start: ${stderr}`);
  // The rest of the log is kept for tests that read it (lines that are not JSON are left out).
  void (async () => {
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      try {
        log.push(JSON.parse(next.value) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  })();
  return {
    address,
    child,
    serverPid,
    log,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
