import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { ROOT, childEnv } from './process.ts';

export const ALMANAC_BIN = path.join(ROOT, 'bin/almanac.mjs');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliRunOptions {
  /** Environment on top of the parent's (minus Almanac's own variables). */
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  /** Written to standard input, which is then closed (never a terminal). */
  readonly input?: string;
}

/** Runs the real `almanac` binary as a user's shell would, and collects its exit status and output. */
export function runAlmanac(args: readonly string[], options: CliRunOptions = {}): Promise<CliResult> {
  return runProcess(ALMANAC_BIN, args, { ...options, env: childEnv(options.env ?? {}) });
}

/** Runs a program with an exact environment; standard input gets `input` (or nothing) and is closed. */
export function runProcess(
  file: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd ?? ROOT, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

const PTY_RUN = path.join(ROOT, 'test/support/pty-run.py');

/** Runs `almanac` in a pseudo-terminal (python3's pty module), typing each answer once its prompt shows. */
export async function inTerminal(
  args: string[],
  env: Record<string, string>,
  answers: Array<[string, string]>,
): Promise<{ status: number; screen: string }> {
  const job = { argv: [ALMANAC_BIN, ...args], cwd: ROOT, env: childEnv(env), answers };
  const { stdout } = await promisify(execFile)('python3', [PTY_RUN, JSON.stringify(job)]);
  return JSON.parse(stdout) as { status: number; screen: string };
}
