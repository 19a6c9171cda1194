// A PostgreSQL primary and one streaming replica of its own, for the read-replica tier: built on free ports in a
// temporary directory from the binaries this machine has (Debian's /usr/lib/postgresql/<n>/bin, else the embedded
// package's), started and stopped with pg_ctl (so a test can stop and start the replica by its directory), removed
// afterwards. As root, the servers run as the `postgres` system user, as scripts/embedded-postgres.mjs does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, platformBinaries, postgresUser, run } from './embedded-postgres.mjs';

// Data a test run throws away need not survive a crash. Commits stay synchronous: with synchronous_commit=off the
// WAL reaches a replica only when the WAL writer flushes it (every 200 ms), so reads right after a write would all
// go to the primary (still fresh, but the tier would show the replica serving little).
const SERVER_OPTIONS = '-c fsync=off -c full_page_writes=off -c max_connections=300';
const PRIMARY_OPTIONS = '-c wal_level=replica -c max_wal_senders=5 -c wal_keep_size=256MB';
const REPLICA_OPTIONS = '-c hot_standby=on -c hot_standby_feedback=on -c wal_receiver_status_interval=1s';

/** Debian's newest PostgreSQL, else the embedded package's binaries: `{ bin }` or `{ unavailable }`. */
async function binaries() {
  const debian = '/usr/lib/postgresql';
  const versions = fs.existsSync(debian)
    ? fs
        .readdirSync(debian)
        .filter((v) => fs.existsSync(path.join(debian, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return { bin: path.join(debian, versions[0], 'bin') };
  const found = await platformBinaries();
  return found.unavailable ? found : { bin: path.join(found.nativeDir, 'bin'), nativeDir: found.nativeDir };
}

/** How to run a PostgreSQL program as the user that owns the clusters. */
function runner(user) {
  return (bin, program, args) => run(path.join(bin, program), args, user);
}

const pgCtl = (cluster, action, extra = []) => [action, '-D', cluster.dir, '-w', '-t', '60', ...extra];

/** Starts one cluster on its port (pg_ctl, so it outlives nothing but can be stopped by directory). */
function startArgs(cluster, socketDir) {
  return pgCtl(cluster, 'start', [
    '-l',
    path.join(cluster.dir, 'server.log'),
    '-o',
    `-p ${cluster.port} -c listen_addresses=127.0.0.1 -k ${socketDir} ${cluster.options}`,
  ]);
}

/**
 * Builds and starts the pair. Answers `{ primaryUrl, replicaUrl, control, stop }` (control: what `replicaControl`
 * needs, JSON-serialisable, so a test in another process can stop and start the replica), or `{ unavailable }`.
 */
export async function startReplicaCluster({ tmpDir = os.tmpdir() } = {}) {
  const found = await binaries();
  if (found.unavailable) return found;
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? postgresUser() : {};
  const root = fs.mkdtempSync(path.join(tmpDir, 'almanac-replicas-'));
  fs.chmodSync(root, 0o755);
  let bin = found.bin;
  const started = [];
  const exec = runner(user);
  const control = { bin, root, user, clusters: {} };
  const stop = async () => {
    for (const c of started.reverse()) await exec(control.bin, 'pg_ctl', pgCtl(c, 'stop', ['-m', 'immediate'])).catch(() => undefined);
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    if (asRoot) {
      fs.chownSync(root, user.uid, user.gid);
      if (found.nativeDir) {
        // The embedded binaries may sit where the postgres user cannot reach: a copy of its own beside the clusters.
        const copy = path.join(root, 'pg');
        fs.cpSync(found.nativeDir, copy, { recursive: true, verbatimSymlinks: true });
        bin = control.bin = path.join(copy, 'bin');
      }
    }
    const primary = { dir: path.join(root, 'primary'), port: await freePort(), options: `${SERVER_OPTIONS} ${PRIMARY_OPTIONS}` };
    const replica = { dir: path.join(root, 'replica'), port: await freePort(), options: `${SERVER_OPTIONS} ${REPLICA_OPTIONS}` };
    control.clusters = { primary, replica };
    await exec(bin, 'initdb', [`--pgdata=${primary.dir}`, '--auth=trust', '--username=postgres', '--locale=C', '--encoding=UTF8']);
    fs.appendFileSync(path.join(primary.dir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\n');
    const conninfo = `host=127.0.0.1 port=${primary.port} user=postgres application_name=almanac_test_replica`;
    const basebackup = fs.existsSync(path.join(bin, 'pg_basebackup'));
    if (!basebackup) {
      // A cold copy of the primary's data directory before its first start is a consistent base to stream from.
      fs.cpSync(primary.dir, replica.dir, { recursive: true });
      if (asRoot) await run('/bin/chown', ['-R', `${user.uid}:${user.gid}`, replica.dir]);
    }
    await exec(bin, 'pg_ctl', startArgs(primary, root));
    started.push(primary);
    if (basebackup) {
      await exec(bin, 'pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-D',
        replica.dir,
        '-X',
        'stream',
        '-c',
        'fast',
      ]);
    }
    fs.writeFileSync(path.join(replica.dir, 'standby.signal'), '');
    fs.appendFileSync(path.join(replica.dir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\n`);
    if (asRoot) fs.chownSync(path.join(replica.dir, 'standby.signal'), user.uid, user.gid);
    fs.chmodSync(replica.dir, 0o700);
    await exec(bin, 'pg_ctl', startArgs(replica, root));
    started.push(replica);
    const url = (c) => `postgres://postgres@127.0.0.1:${c.port}/postgres`;
    await waitForStreaming(url(primary));
    return { primaryUrl: url(primary), replicaUrl: url(replica), control, stop };
  } catch (e) {
    await stop();
    return { unavailable: `the primary and replica did not start: ${e.message}` };
  }
}

/** Waits until the primary lists the replica as streaming. */
async function waitForStreaming(primaryUrl) {
  const client = new pg.Client({ connectionString: primaryUrl });
  await client.connect();
  try {
    for (let i = 0; i < 300; i++) {
      const r = await client.query("SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'");
      if (r.rowCount > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the replica did not start streaming within 30 s');
  } finally {
    await client.end();
  }
}

/** Stops (fast shutdown: sessions cut at once) or starts the replica of a cluster `startReplicaCluster` built. */
export async function replicaControl(control, action) {
  const replica = control.clusters.replica;
  const exec = runner(control.user);
  await exec(control.bin, 'pg_ctl', action === 'stop' ? pgCtl(replica, 'stop', ['-m', 'fast']) : startArgs(replica, control.root));
}
