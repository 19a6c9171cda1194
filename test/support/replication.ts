import type pg from 'pg';
import crypto from 'node:crypto';
import { replicaControl, startReplicaCluster, type ReplicaCluster } from '../../scripts/replica-cluster.mjs';
import { onDatabase, queryAt as query, type TestDatabase } from './databases.ts';

/** A primary with a streaming replica: the run's (`run-tests.mjs --replicas`), or one built for this file. */
export interface Replication {
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  /** A fresh database on the primary, once the replica has it too; its env reads from the replica. */
  createDatabase(): Promise<TestDatabase & { readonly replicaUrl: string }>;
  /** Runs SQL on the replica's copy of `db` (pg_wal_replay_pause(), ...). */
  onReplica(db: { readonly replicaUrl: string }, sql: string): Promise<pg.QueryResult>;
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  close(): Promise<void>;
}

/** The replication pair for this file, or why there is none (in CI, a failure rather than a skip). */
export async function replication(): Promise<Replication | { readonly skip: string }> {
  const given = process.env.ALMANAC_TEST_REPLICATION;
  const started = given ? (JSON.parse(given) as ReplicaCluster) : await startReplicaCluster();
  if (started.unavailable !== undefined) {
    if (process.env.CI) throw new Error(`the read-replica tier cannot run: ${started.unavailable}`);
    return { skip: started.unavailable };
  }
  const cluster = started as ReplicaCluster;
  return {
    primaryUrl: cluster.primaryUrl,
    replicaUrl: cluster.replicaUrl,
    async createDatabase() {
      const name = `almanac_replica_${crypto.randomBytes(6).toString('hex')}`;
      await query(cluster.primaryUrl, `CREATE DATABASE ${name}`);
      const url = onDatabase(cluster.primaryUrl, name);
      const replicaUrl = onDatabase(cluster.replicaUrl, name);
      // The replica has the database once it has replayed its creation.
      for (let i = 0; ; i++) {
        const r = await query(cluster.replicaUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`);
        if (r.rowCount) break;
        if (i > 300) throw new Error(`the replica did not replay CREATE DATABASE ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return {
        name: 'postgres',
        config: { kind: 'postgres', url, readUrls: [replicaUrl] },
        url,
        replicaUrl,
        env: { ALMANAC_DATABASE_URL: url, ALMANAC_DATABASE_READ_URLS: replicaUrl },
        drop: () => query(cluster.primaryUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined),
      };
    },
    onReplica: (db, sql) => query(db.replicaUrl, sql),
    stopReplica: () => replicaControl(cluster.control, 'stop'),
    startReplica: () => replicaControl(cluster.control, 'start'),
    close: async () => {
      if (!given) await cluster.stop();
    },
  };
}
