import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { backends, type Backend } from './databases.ts';
import { useServer } from './lifecycle.ts';
import { ROOT, childEnv } from './process.ts';
import type { TestServer } from './server.ts';

// DataHub's real Python client (test/clients/requirements.txt) in <repo>/.venv-datahub, built by
// scripts/datahub-client-env.mjs, for the tests in test/clients/. Outside CI a client that cannot be built skips
// that tier; in CI it is a failure.

/** The virtual environment's python and `datahub` executables. */
export interface DatahubClientPaths {
  readonly python: string;
  readonly datahub: string;
}

type Built = DatahubClientPaths | { readonly reason: string };
const SCRIPT = pathToFileURL(path.join(ROOT, 'scripts/datahub-client-env.mjs')).href;
const CHILD_TIMEOUT_MS = 120_000;

/** scripts/datahub-client-env.mjs: builds the client unless its stamp matches the requirements. */
export async function buildDatahubClient(options: { reuseFailure?: boolean } = {}): Promise<Built> {
  const script = (await import(SCRIPT)) as { datahubClientEnv(options: { reuseFailure?: boolean }): Promise<Built> };
  return script.datahubClientEnv(options);
}

let built: Promise<Built> | undefined;
/** Built once per process; a build that just failed in another test file is not tried again. */
const build = (): Promise<Built> => (built ??= buildDatahubClient({ reuseFailure: true }));

/** undefined when the client is ready, otherwise why the tier is skipped; throws in CI. */
export async function datahubClientSkipReason(): Promise<string | undefined> {
  const env = await build();
  if (!('reason' in env)) return undefined;
  const reason = `DataHub's Python client cannot be built: ${env.reason}`;
  if (process.env.CI) throw new Error(`${reason}; CI must run the client tier`);
  return reason;
}

/** The backends the client tier runs on: none when the client cannot be built (environment.test.ts says why, once). */
export async function clientBackends(): Promise<Backend[]> {
  return (await datahubClientSkipReason()) === undefined ? backends() : [];
}

/** The client's python and `datahub`; rejects when it cannot be built. */
export async function datahubClientPaths(): Promise<DatahubClientPaths> {
  const env = await build();
  if ('reason' in env) throw new Error(env.reason);
  return env;
}

export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a client process with a fresh HOME (no ~/.datahubenv leaks in) unless one is given, telemetry off and no
 * __pycache__ in test/clients/py; never rejects. A fresh HOME is removed afterwards; a given one is the caller's.
 */
function run(command: string, args: readonly string[], env: Record<string, string>, stdin = '', givenHome?: string): Promise<ProcessResult> {
  const home = givenHome ?? fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-datahub-home-'));
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: childEnv({ HOME: home, DATAHUB_TELEMETRY_ENABLED: 'false', PYTHONDONTWRITEBYTECODE: '1', ...env }),
      timeout: CHILD_TIMEOUT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const done = (code: number | null, error = '') => {
      if (givenHome === undefined) fs.rmSync(home, { recursive: true, force: true });
      resolve({ code, stdout, stderr: stderr + error });
    };
    child.on('error', (e) => done(null, e.message));
    child.on('close', (code) => done(code));
    child.stdin.end(stdin);
  });
}

/**
 * Runs test/clients/py/<script> with `input` plus the server's url and admin token as JSON on stdin, and returns the
 * one JSON value it prints. A script that fails rejects with its stderr.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function runClientScript<T = any>(server: TestServer, script: string, input: Record<string, unknown> = {}): Promise<T> {
  const { python } = await datahubClientPaths();
  const res = await run(
    python,
    [path.join(ROOT, 'test/clients/py', script)],
    {},
    JSON.stringify({ server: server.url, token: server.adminToken, ...input }),
  );
  if (res.code !== 0) throw new Error(`${script} exited with ${res.code}:\n${res.stderr}`);
  try {
    return JSON.parse(res.stdout) as T;
  } catch {
    throw new Error(`${script} did not print one JSON value:\n${res.stdout}\n${res.stderr}`);
  }
}

/** Runs the real `datahub` CLI against the server, configured as users do (DATAHUB_GMS_URL, DATAHUB_GMS_TOKEN), whatever its exit status. */
export async function datahubCli(server: TestServer, ...args: string[]): Promise<ProcessResult> {
  const { datahub } = await datahubClientPaths();
  return run(datahub, args, { DATAHUB_GMS_URL: server.url, DATAHUB_GMS_TOKEN: server.adminToken });
}

/** As datahubCli; asserts it exits 0. */
export async function runDatahubCli(server: TestServer, ...args: string[]): Promise<ProcessResult> {
  const res = await datahubCli(server, ...args);
  assert.equal(res.code, 0, `datahub ${args.join(' ')}:\n${res.stdout}\n${res.stderr}`);
  return res;
}

/**
 * Runs the real `datahub` CLI with only HOME set (no DATAHUB_GMS_* variables), so it reads the ~/.datahubenv a
 * previous run in the same `home` wrote, as after `datahub init`; never rejects.
 */
export async function runDatahubCliAt(home: string, ...args: string[]): Promise<ProcessResult> {
  const { datahub } = await datahubClientPaths();
  return run(datahub, args, {}, '', home);
}

/** The latest value of one versioned aspect as stored (GET /aspects), or undefined when there is none. */
export async function storedAspect(server: TestServer, urn: string, aspect: string): Promise<Record<string, unknown> | undefined> {
  const res = await server.request('GET', `/aspects/${encodeURIComponent(urn)}?aspect=${aspect}&version=0`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`GET /aspects ${urn} ${aspect}: ${res.status} ${res.text}`);
  return Object.values(res.json.aspect as Record<string, Record<string, unknown>>)[0];
}

export interface ClientScriptRun<T> {
  readonly server: TestServer;
  readonly result: T;
}

/**
 * Registers hooks that start a server over a fresh database of the backend, let `seed` store what the script needs
 * and return its input, then run test/clients/py/<script> once; the tests assert on its result and read back.
 */
export function useClientScript<T = any>( // eslint-disable-line @typescript-eslint/no-explicit-any
  backend: Backend,
  script: string,
  seed: (server: TestServer) => Promise<Record<string, unknown>> | Record<string, unknown>,
): ClientScriptRun<T> {
  let server: TestServer | undefined;
  let result: T | undefined;
  useServer(backend, async (s) => {
    server = s;
    result = await runClientScript<T>(s, script, await seed(s));
  });
  return {
    get server() {
      assert.ok(server, 'the server has not started');
      return server;
    },
    get result() {
      assert.ok(result !== undefined, `${script} has not run`);
      return result;
    },
  };
}
