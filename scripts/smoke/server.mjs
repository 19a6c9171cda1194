// A fresh Almanac server for one smoke run: this checkout's `bin/almanac.mjs serve` on a new SQLite file or a new
// PostgreSQL database, on a free port of 127.0.0.1, its log in the run's directory. The operator's setup a test
// instance of DataHub's suite needs is done with Almanac's own CLI: the root user's password (login mode) or a token.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const READY_TIMEOUT_MS = 120_000;

/** The parent's environment less anything Almanac or DataHub reads, so a run is not steered by the caller's shell. */
function cleanEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ALMANAC_|DATAHUB_|METADATA_SERVICE_|PORT$|HOST$)/.test(k)));
}

async function freshDatabase(dir, postgresUrl) {
  if (!postgresUrl) return { url: `sqlite:${path.join(dir, 'almanac.db')}`, drop: async () => {} };
  const name = `almanac_smoke_${crypto.randomBytes(6).toString('hex')}`;
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: postgresUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * Starts the server and waits for its `almanac ready` log line. `serverEnv` adds to (or overrides) the test
 * instance's settings. Returns `{ url, env, almanac(args), stop() }`.
 */
export async function startAlmanac({ root, dir, postgresUrl, serverEnv }) {
  fs.mkdirSync(dir, { recursive: true });
  const database = await freshDatabase(dir, postgresUrl);
  const env = {
    ...cleanEnv(),
    ALMANAC_HOME: dir,
    ALMANAC_DATABASE_URL: database.url,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    // As an operator sets it for a test instance: DataHub's suite signs up users with 4-character passwords.
    ALMANAC_PASSWORD_MIN_LENGTH: '4',
    ...serverEnv,
  };
  const logFile = path.join(dir, 'server.log');
  const log = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [path.join(root, 'bin/almanac.mjs'), 'serve'], { env, stdio: ['ignore', log, log] });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
    fs.closeSync(log);
    await database.drop();
  };
  let url;
  try {
    url = await waitReady(logFile, exited);
  } catch (e) {
    await stop();
    throw e;
  }
  const almanac = (args) => {
    const r = spawnSync(process.execPath, [path.join(root, 'bin/almanac.mjs'), ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`almanac ${args.slice(0, 2).join(' ')} exited ${r.status}: ${r.stderr.trim()}`);
    return r.stdout.trim();
  };
  return { url, env, logFile, almanac, stop };
}

async function waitReady(logFile, exited) {
  let gone;
  exited.then((status) => (gone = status));
  const start = Date.now();
  while (Date.now() - start < READY_TIMEOUT_MS) {
    if (gone !== undefined) throw new Error(`the server exited (${gone}) before it was ready; see ${logFile}`);
    for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
      if (!line.includes('"almanac ready"')) continue;
      const entry = JSON.parse(line);
      return entry.address.replace('0.0.0.0', '127.0.0.1');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server was not ready after ${READY_TIMEOUT_MS / 1000} s; see ${logFile}`);
}
