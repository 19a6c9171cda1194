// PgBouncer in transaction mode in front of a PostgreSQL server, for the tests: Debian's `pgbouncer` on a free
// port, configured in a temporary directory, run as the `postgres` user when this is root (PgBouncer refuses root).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, postgresUser } from './embedded-postgres.mjs';

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];
const START_TIMEOUT_MS = 15_000;

/** The pgbouncer binary, or undefined. */
export function pgbouncerBinary() {
  const found = CANDIDATES.find((p) => fs.existsSync(p));
  if (found) return found;
  try {
    return execFileSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts PgBouncer (pool_mode = transaction) forwarding every database name to the server `serverUrl` names, with its
 * user and password. Answers `{ url(database), stop }` (`url` swaps the server's host and port for the pooler's), or
 * `{ unavailable }`.
 */
export async function startPgBouncer(serverUrl, { tmpDir = os.tmpdir() } = {}) {
  const binary = pgbouncerBinary();
  if (!binary) return { unavailable: 'pgbouncer is not installed (apt-get install -y pgbouncer)' };
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const dir = fs.mkdtempSync(path.join(tmpDir, 'almanac-pgbouncer-'));
  const port = await freePort();
  const quote = (s) => `"${s.replace(/"/g, '""')}"`;
  fs.writeFileSync(path.join(dir, 'users.txt'), `${quote(user)} ${quote(password)}\n`);
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 2000',
      'default_pool_size = 20',
      'server_reset_query =',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? postgresUser() : {};
  if (asRoot) for (const f of ['', 'users.txt', 'pgbouncer.ini']) fs.chownSync(path.join(dir, f), ids.uid, ids.gid);
  const child = spawn(binary, [path.join(dir, 'pgbouncer.ini')], { ...ids, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  try {
    await new Promise((resolve, reject) => {
      let log = '';
      const timer = setTimeout(
        () => reject(new Error(`pgbouncer did not start within ${START_TIMEOUT_MS} ms: ${log.slice(-500)}`)),
        START_TIMEOUT_MS,
      );
      const read = (d) => {
        log += d;
        if (/process up|listening on/.test(log)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`pgbouncer exited ${code}: ${log.trim().slice(-500)}`));
      });
    });
  } catch (e) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    return { unavailable: e.message };
  }
  child.stdout.resume();
  child.stderr.resume();
  return {
    url: (database) => {
      const u = new URL(serverUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      if (database !== undefined) u.pathname = `/${database}`;
      return u.toString();
    },
    stop: async () => {
      process.off('exit', killOnExit);
      child.kill('SIGINT');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
