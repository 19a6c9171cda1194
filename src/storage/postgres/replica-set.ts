import pg from 'pg';
import type { FallbackReason, ReadRouter, ReadRoutingStats, ReplicaHandle } from '../read-routing.ts';
import type { ReadScope } from '../read-scope.ts';
import { StoreError } from '../store-error.ts';
import type { Store } from '../store.ts';
import type { PostgresAuthListener } from './auth-listener.ts';
import { PrimaryPositions } from './primary-positions.ts';
import { parseLsn } from './wal-lsn.ts';

/** How often each replica's replay position is read in the background (a read that finds it short asks at once). */
export const REPLICA_CHECK_MILLIS = 200;
/** How long a replica may take to connect or answer a check before it is taken for down. */
export const REPLICA_TIMEOUT_MILLIS = 1_000;
const CHECK_SQL = 'SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_wal_replay_paused() AS paused';
/** A replica's read failing with these is the replica's doing (replay cancelled it, it is read-only): the primary answers. */
const REPLICA_FAULTS = new Set(['40001', '40P01', '57014', '25006']);

/** One replica: the parts that read from it, and its replay position as last read. */
class Replica implements ReplicaHandle {
  replayed: number | undefined;
  paused = false;
  private checking: Promise<void> | undefined;

  constructor(
    readonly name: string,
    private readonly store: Store,
    private readonly checks: pg.Pool,
  ) {}

  get parts(): Store {
    return this.store;
  }

  get up(): boolean {
    return this.replayed !== undefined;
  }

  /** Reads the replay position again; checks asked for while one is on the way share it. */
  check(): Promise<void> {
    this.checking ??= this.checks
      .query<{ lsn: string | null; paused: boolean | null }>(CHECK_SQL)
      .then(
        (r) => {
          const row = r.rows[0]!;
          // A server not in recovery has no replay position: not a replica of anything, never read from.
          this.replayed = row.lsn === null ? undefined : parseLsn(row.lsn);
          this.paused = row.paused === true;
        },
        () => this.down(),
      )
      .finally(() => (this.checking = undefined));
    return this.checking;
  }

  down(): void {
    this.replayed = undefined;
  }

  async close(): Promise<void> {
    await this.checks.end().catch(() => undefined);
    await this.store.database.close().catch(() => undefined);
  }
}

/**
 * The freshness rule: a replica answers a request's read only when it has replayed past the primary's WAL position
 * read by a barrier sent after the request arrived (the listener's, usually the one authentication already sent),
 * so it holds every change committed before the request, in any process; otherwise the primary answers. A replica
 * down, paused or further behind than `maxLagMillis` is skipped without being asked; one that is merely short of the
 * position is asked once more (one query, shared by the reads waiting on it). Nothing here fails a read.
 */
export class PostgresReplicaSet implements ReadRouter {
  private readonly replicas: Replica[];
  private readonly positions = new PrimaryPositions();
  private readonly reads = new Map<string, number>();
  private readonly fallbacks = new Map<string, { replica: string; reason: FallbackReason; count: number }>();
  private readonly timer: NodeJS.Timeout;
  private turn = 0;

  constructor(
    private readonly listener: PostgresAuthListener,
    replicas: ReadonlyArray<{ readonly url: string; readonly store: Store }>,
    private readonly maxLagMillis: number,
  ) {
    this.replicas = replicas.map(({ url, store }, i) => {
      const checks = new pg.Pool({
        connectionString: url,
        max: 1,
        connectionTimeoutMillis: REPLICA_TIMEOUT_MILLIS,
        query_timeout: REPLICA_TIMEOUT_MILLIS,
      });
      // A replica going away cuts the idle connection: the next check fails and marks it down, nothing crashes.
      checks.on('error', () => undefined);
      return new Replica(`replica${i + 1}`, store, checks);
    });
    listener.onPosition = (lsn, at) => this.positions.add(lsn, at);
    const checkAll = () => this.replicas.forEach((r) => void r.check());
    checkAll();
    this.timer = setInterval(checkAll, REPLICA_CHECK_MILLIS).unref();
  }

  newScope(): ReadScope {
    return { after: this.listener.barriersSent, wrote: false };
  }

  async choose(scope: ReadScope | undefined): Promise<ReplicaHandle | undefined> {
    if (scope === undefined || scope.wrote) return this.served('primary');
    const known = scope.fresh as Replica | undefined;
    if (known?.up) return this.served(known.name, known);
    const target = await this.listener.position(scope.after);
    if (target === undefined) {
      for (const r of this.replicas) this.fellBack(r, 'no_position');
      return this.served('primary');
    }
    const first = this.turn++ % this.replicas.length;
    for (let i = 0; i < this.replicas.length; i++) {
      const r = this.replicas[(first + i) % this.replicas.length]!;
      const skip = this.skipReason(r);
      if (skip) {
        this.fellBack(r, skip);
        continue;
      }
      if (r.replayed! < target) await r.check();
      if (r.replayed === undefined || r.replayed < target) {
        this.fellBack(r, r.up ? 'behind' : 'down');
        continue;
      }
      scope.fresh = r;
      return this.served(r.name, r);
    }
    return this.served('primary');
  }

  readFailed(replica: ReplicaHandle, error: unknown): boolean {
    const r = replica as Replica;
    if (error instanceof StoreError && error.kind === 'UNAVAILABLE') {
      r.down();
    } else if (!REPLICA_FAULTS.has(String((error as { code?: unknown } | null)?.code))) {
      return false;
    }
    this.fellBack(r, 'failed');
    this.served('primary');
    return true;
  }

  stats(): ReadRoutingStats {
    const now = Date.now();
    return {
      reads: this.reads,
      fallbacks: [...this.fallbacks.values()],
      replicas: this.replicas.map((r) => ({ name: r.name, up: r.up, paused: r.paused, lagMillis: this.lagMillis(r, now) })),
    };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((r) => r.close()));
  }

  private skipReason(r: Replica): FallbackReason | undefined {
    if (!r.up) return 'down';
    if (r.paused) return 'paused';
    return this.lagMillis(r, Date.now()) > this.maxLagMillis ? 'lagging' : undefined;
  }

  private lagMillis(r: Replica, now: number): number {
    return r.replayed === undefined ? 0 : this.positions.lagMillis(r.replayed, now);
  }

  private served(handle: string, replica?: Replica): Replica | undefined {
    this.reads.set(handle, (this.reads.get(handle) ?? 0) + 1);
    return replica;
  }

  private fellBack(r: Replica, reason: FallbackReason): void {
    const key = `${r.name}:${reason}`;
    const entry = this.fallbacks.get(key);
    if (entry) entry.count++;
    else this.fallbacks.set(key, { replica: r.name, reason, count: 1 });
  }
}
