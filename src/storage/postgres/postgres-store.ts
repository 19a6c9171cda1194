import pg from 'pg';
import { composeStore } from '../compose-store.ts';
import type { Store, StoreHooks } from '../store.ts';
import { PostgresAspects } from './aspects.ts';
import { AUTH_LISTENER_NAME, PostgresAuthListener } from './auth-listener.ts';
import { PostgresChangeEvents } from './change-events.ts';
import { PostgresSearch } from './search.ts';
import { PostgresSearchIndex } from './search-index.ts';
import { sessionMatches, transactionMatches } from './search-session.ts';
import { PostgresDatabase } from './database.ts';
import { translatePostgresError } from './driver-errors.ts';
import { PostgresIdentity } from './identity.ts';
import { PostgresRelationships } from './relationships.ts';
import { PostgresRetention } from './retention.ts';
import { PostgresRuns } from './runs.ts';
import { PostgresSchedules } from './schedules.ts';
import { PostgresAudit } from './audit.ts';
import { PostgresTasks } from './tasks.ts';
import { PostgresTimeseries } from './timeseries.ts';
import { PostgresTruncation } from './truncation.ts';
import { PostgresUserAccess } from './user-access.ts';

/** BIGINT columns hold epoch millis and counts, all well inside 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * A client that prepares nothing by name: behind a transaction-mode pooler a statement prepared on one server
 * connection is missing on the next, so each query is parsed in its own unnamed statement instead.
 */
class UnnamedStatementClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config] = args;
    if (config !== null && typeof config === 'object' && 'name' in config) {
      const { name: _name, ...unnamed } = config as pg.QueryConfig;
      args[0] = unnamed;
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

export interface PostgresStoreOptions {
  /** The primary itself, for the connections that hold session state (LISTEN, the task node lock); default `url`. */
  readonly listenUrl?: string;
  readonly poolSize?: number;
  /**
   * Whether the pool may keep statements prepared by name (on by default). Off when the pool goes through a
   * transaction-mode pooler: there a statement outlives its transaction only on the server connection it was made on.
   */
  readonly namedStatements?: boolean;
  /** How long the pool waits for a connection before the read or write fails (no bound by default). */
  readonly connectTimeoutMillis?: number;
}

/** A PostgreSQL store and its listening connection, whose barriers also tell the primary's WAL position. */
export interface PostgresHandle {
  readonly store: Store;
  readonly listener: PostgresAuthListener;
}

/**
 * The production adapter, one part per capability over one pool (and, straight to the server, a search pool:
 * postgres/search-session.ts); several stateless Almanac processes may share one database.
 */
export function openPostgresStore(url: string, hooks: StoreHooks, options: PostgresStoreOptions = {}): PostgresHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types,
    connectionTimeoutMillis: options.connectTimeoutMillis,
    // No JIT: its compile time (a third of a second, from EXPLAIN ANALYZE of a search with its facets at 25,000
    // datasets) is paid by every statement whose estimate passes jit_above_cost, and Almanac's run in milliseconds.
    options: '-c jit=off',
    ...(options.namedStatements === false ? { Client: UnnamedStatementClient } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // A search's statements over every match run under settings of their own (postgres/search-session.ts).
  const matches =
    options.namedStatements === false
      ? transactionMatches(pool)
      : sessionMatches({ connectionString: url, types, connectionTimeoutMillis: options.connectTimeoutMillis });
  const timeseries = new PostgresTimeseries(pool);
  const searchIndex = new PostgresSearchIndex(pool, hooks.indexer);
  const relationships = new PostgresRelationships(pool, hooks.indexer, searchIndex);
  // Session state (LISTEN, a session's advisory lock) lives only on connections straight to the primary.
  const direct = options.listenUrl ?? url;
  const newClient = () => new pg.Client({ connectionString: direct, types });
  const authListener = new PostgresAuthListener(
    () => new pg.Client({ connectionString: direct, types, application_name: AUTH_LISTENER_NAME }),
    (channel, payload) => pool.query('SELECT pg_notify($1, $2)', [channel, payload]),
  );
  // Every part that changes a deprecation or ends a task records the event through this one, in its transaction.
  const changeEvents = new PostgresChangeEvents(pool, hooks.events, authListener);
  const tasks = new PostgresTasks(pool, newClient, changeEvents);
  const aspects = new PostgresAspects(pool, timeseries, relationships, hooks.retention, changeEvents);
  const store = composeStore(
    'postgres',
    {
      database: new PostgresDatabase(pool, relationships, searchIndex, tasks, authListener, matches),
      aspects,
      relationships,
      timeseries,
      truncation: new PostgresTruncation(pool, timeseries),
      tasks,
      identity: new PostgresIdentity(pool, authListener),
      retention: new PostgresRetention(pool),
      runs: new PostgresRuns(pool, timeseries, relationships, aspects, changeEvents),
      schedules: new PostgresSchedules(pool),
      userAccess: new PostgresUserAccess(pool),
      changeEvents,
      search: new PostgresSearch(hooks.documents, pool, searchIndex, matches),
      audit: new PostgresAudit(pool),
    },
    translatePostgresError,
  );
  return { store, listener: authListener };
}
