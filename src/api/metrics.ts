import client from 'prom-client';
import type { DatabaseStats, PoolStats } from '../storage/store.ts';
import type { ReadRoutingStats } from '../storage/read-routing.ts';
import type { TruncationRecord } from '../tasks/truncation/truncation-record.ts';

/** GraphQL operation names are chosen by clients: only well-formed ones are labels, and only so many. */
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_OPERATION_LABELS = 200;
const TASK_STATES = ['running', 'completed', 'failed', 'timed_out', 'cancelled'] as const;

/**
 * What operators scrape at GET /metrics (Prometheus text format, prom-client):
 * the request path, authentication failures, GraphQL operations, ingestion, and
 * truncation tasks as the database records them (shared by every process).
 */
/** What the gauges read when scraped, handed in by the composition root. */
export interface MetricSources {
  databaseStats(): Promise<DatabaseStats>;
  /** The latest truncation tasks recorded in the database, newest first. */
  truncations(limit: number): Promise<TruncationRecord[]>;
  /** With read replicas: reads per handle, fallbacks and each replica's state. */
  readRouting?: () => ReadRoutingStats;
}

export class Metrics {
  readonly registry = new client.Registry();
  private readonly operations = new Set<string>();

  readonly requests = new client.Histogram({
    name: 'almanac_http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, with their duration',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  readonly authFailures = new client.Counter({
    name: 'almanac_auth_failures_total',
    help: 'Requests refused 401, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly graphqlOperations = new client.Counter({
    name: 'almanac_graphql_operations_total',
    help: 'GraphQL operations by operation name ("anonymous" without one, "other" past the first 200 names) and outcome',
    labelNames: ['operation', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly scheduledRuns = new client.Counter({
    name: 'almanac_scheduled_runs_total',
    help: 'Occurrences of periodic jobs this process ran (each runs in one process only), by job and outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly ingested = new client.Counter({
    name: 'almanac_ingested_proposals_total',
    help: 'Proposals stored, by the route that took them',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  constructor(sources: MetricSources) {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'almanac_' });
    // Each backend reports what applies to it: no pool samples on SQLite, a WAL of 0 bytes on PostgreSQL.
    const poolGauge = (name: string, what: string, of: (stats: DatabaseStats) => PoolStats | undefined) =>
      new client.Gauge({
        name,
        help: `This process's PostgreSQL ${what}: open connections (total), idle ones, and requests waiting for one`,
        labelNames: ['state'] as const,
        registers: [this.registry],
        async collect() {
          const pool = of(await sources.databaseStats());
          if (pool) for (const state of ['total', 'idle', 'waiting'] as const) this.set({ state }, pool[state]);
        },
      });
    poolGauge('almanac_db_pool_connections', 'pool', (s) => s.pool);
    poolGauge(
      'almanac_db_search_pool_connections',
      "search pool, straight to the server (a search's statements over every match)",
      (s) => s.searchPool,
    );
    new client.Gauge({
      name: 'almanac_sqlite_wal_bytes',
      help: "Bytes in SQLite's write-ahead log file (a checkpoint truncates it)",
      registers: [this.registry],
      async collect() {
        const { walBytes } = await sources.databaseStats();
        if (walBytes !== undefined) this.set(walBytes);
      },
    });
    if (sources.readRouting) this.replicaMetrics(sources.readRouting);
    const tasks = () => sources.truncations(1000);
    new client.Gauge({
      name: 'almanac_truncation_tasks',
      help: 'Truncation tasks recorded in the database (the latest 1,000), by state',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const all = await tasks();
        for (const state of TASK_STATES) this.set({ state }, all.filter((t) => t.state === state).length);
      },
    });
    new client.Gauge({
      name: 'almanac_truncation_rows_deleted',
      help: 'Rows deleted by the recorded truncation tasks (the latest 1,000)',
      registers: [this.registry],
      async collect() {
        this.set((await tasks()).reduce((n, t) => n + t.rowsDeleted, 0));
      },
    });
    new client.Gauge({
      name: 'almanac_truncation_reclaimed_bytes',
      help: 'Bytes handed back to the file system by the reclaims of the recorded truncation tasks (the latest 1,000)',
      registers: [this.registry],
      async collect() {
        this.set((await tasks()).reduce((n, t) => n + (t.reclaimedBytes ?? 0), 0));
      },
    });
    new client.Gauge({
      name: 'almanac_truncation_task_seconds',
      help: 'Run time of the latest ended truncation task',
      registers: [this.registry],
      async collect() {
        const ended = (await tasks()).find((t) => t.endedAt !== null);
        this.set(ended ? (ended.endedAt! - ended.startedAt) / 1000 : 0);
      },
    });
  }

  /** Read replicas, read from the router when scraped: one label value per handle, so the labels stay bounded. */
  private replicaMetrics(stats: () => ReadRoutingStats): void {
    const registers = [this.registry];
    new client.Counter({
      name: 'almanac_db_reads_total',
      help: 'Reads of the parts replicas may serve, by the handle that answered them (primary, replica1, ...)',
      labelNames: ['handle'] as const,
      registers,
      collect() {
        this.reset();
        for (const [handle, n] of stats().reads) this.inc({ handle }, n);
      },
    });
    new client.Counter({
      name: 'almanac_replica_fallbacks_total',
      help: 'Reads a replica did not serve, by replica and reason (down, paused, lagging, behind, no_position, failed)',
      labelNames: ['replica', 'reason'] as const,
      registers,
      collect() {
        this.reset();
        for (const f of stats().fallbacks) this.inc({ replica: f.replica, reason: f.reason }, f.count);
      },
    });
    const gauges: ReadonlyArray<[string, string, (r: ReadRoutingStats['replicas'][number]) => number]> = [
      [
        'almanac_replica_lag_seconds',
        'How long ago the primary first stood at a WAL position the replica has not replayed (0: caught up)',
        (r) => r.lagMillis / 1000,
      ],
      ['almanac_replica_up', 'Whether the replica answered its last check (1) or not (0); paused replay counts as up', (r) => (r.up ? 1 : 0)],
      ['almanac_replica_replay_paused', 'Whether the replica reported its WAL replay paused at its last check', (r) => (r.paused ? 1 : 0)],
    ];
    for (const [name, help, value] of gauges) {
      new client.Gauge({
        name,
        help,
        labelNames: ['replica'] as const,
        registers,
        collect() {
          for (const r of stats().replicas) this.set({ replica: r.name }, value(r));
        },
      });
    }
  }

  /** A bounded label for a client-chosen operation name. */
  operationLabel(name: string | null | undefined): string {
    if (!name) return 'anonymous';
    if (!OPERATION_NAME.test(name)) return 'other';
    if (!this.operations.has(name) && this.operations.size >= MAX_OPERATION_LABELS) return 'other';
    this.operations.add(name);
    return name;
  }
}

/** A short, closed set of reasons for a 401, from the authenticator's messages. */
export function authFailureReason(message: string): string {
  if (/missing 'Authorization'/i.test(message)) return 'missing_header';
  if (/prefix/i.test(message)) return 'wrong_scheme';
  if (/expired/i.test(message)) return 'expired';
  if (/revoked/i.test(message)) return 'revoked';
  if (/actor .* does not exist|malformed or missing 'actor'/i.test(message)) return 'unknown_actor';
  if (/system client/i.test(message)) return 'bad_system_client';
  if (/is not active/i.test(message)) return 'inactive';
  if (/session has ended|session cookie/i.test(message)) return 'ended_session';
  return 'invalid_token';
}
