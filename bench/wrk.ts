// Runs wrk (Debian's package; installed here if missing) as the load generator: a C program in its own process, so it
// takes far less of the two cores than a Node.js generator would, and slows the ceilings no more than Almanac.
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrk-load.lua');
const BODY_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrk-body.lua');

export interface WrkJob {
  readonly url: string;
  readonly token: string;
  readonly connections: number;
  readonly seconds: number;
  readonly kind: 'floor' | 'query' | 'update';
  readonly datasets: number;
}

/** One fixed request sent again and again (wrk-body.lua). */
export interface WrkFixedJob {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly token?: string;
  readonly body?: string;
  readonly connections: number;
  readonly seconds: number;
}

export interface WrkResult {
  readonly perSecond: number;
  /** Latencies in milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
}

/** Installs wrk from Debian's packages when it is not on PATH (the benchmark's only system dependency). */
export function ensureWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return;
  } catch (e) {
    // wrk --version exits 1 after printing its banner; only a missing binary is ENOENT.
    if ((e as { code?: string }).code !== 'ENOENT') return;
  }
  console.log('installing wrk (apt-get install wrk)');
  execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk'], { stdio: 'inherit' });
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const duration = (text: string): number => {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) throw new Error(`wrk: unreadable latency ${text}`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
};

/** One wrk run; throws if any response was not 2xx or a socket failed, so errors are never measured as speed. */
export async function wrk(job: WrkJob | WrkFixedJob): Promise<WrkResult> {
  const threads = String(Math.min(2, job.connections));
  const script =
    'method' in job
      ? [BODY_SCRIPT, job.url, '--', job.method, job.token ?? '-', job.body ?? '-']
      : [SCRIPT, job.url, '--', job.kind, String(job.datasets), job.token];
  // A slow request is measured, not dropped: wrk's default 2 s timeout would count it as a socket error.
  const args = ['-t', threads, '-c', String(job.connections), '-d', `${job.seconds}s`, '--timeout', '30s', '--latency', '-s', ...script];
  const { stdout } = await promisify(execFile)('wrk', args, { maxBuffer: 1 << 20 });
  if (/Non-2xx or 3xx responses|Socket errors/.test(stdout)) throw new Error(`wrk run failed:\n${stdout}`);
  const field = (re: RegExp) => {
    const m = re.exec(stdout);
    if (!m) throw new Error(`wrk: no ${re} in\n${stdout}`);
    return m[1]!;
  };
  return {
    perSecond: Number(field(/Requests\/sec:\s+([\d.]+)/)),
    p50: duration(field(/^\s+50%\s+(\S+)/m)),
    p99: duration(field(/^\s+99%\s+(\S+)/m)),
    requests: Number(field(/(\d+) requests in/)),
  };
}
