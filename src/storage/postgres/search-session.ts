import pg from 'pg';
import type { PoolStats } from '../ports/database.ts';
import { inTransaction } from './transaction.ts';

/**
 * The memory a statement over every match of a search may sort and hash in before it spills to disk, when the
 * server's own `work_mem` is less. PostgreSQL's default (4 MB) spilled a word's matches at a million entities (the
 * matches' sort, the hash of entities, the name tiers): one word with its facets, 180,000 matches, 2,150 ms p50 at
 * 4 MB, 1,571 at 16 MB, 1,556 at 32 MB, 1,627 at 64 MB. A statement holds a few such nodes, each bounded by this
 * (hashes by twice it, PostgreSQL's hash_mem_multiplier), for at most the search pool's connections at once.
 */
const SEARCH_WORK_MEM_BYTES = 16 * 1024 * 1024;

/**
 * The cost the planner gives a random page read in a search over every match, when the server's own
 * `random_page_cost` is more: PostgreSQL's docs' figure for storage whose random reads cost about as much as
 * sequential ones (SSDs, a cache that holds the index). Under the default 4, a word in 1% of a million entities (10,000
 * matches) joined them to the entities by a parallel scan of all 900,000 datasets and a hash (m: 126 ms), where a
 * seek per match takes 54 ms; a filter of a platform and a tag, 31.5 ms at p50 under 1.1, read 52.5 under 4.
 */
const SEARCH_RANDOM_PAGE_COST = 1.1;

/**
 * The settings of a statement over every match, as one SELECT: `work_mem` at least SEARCH_WORK_MEM_BYTES,
 * `random_page_cost` at most SEARCH_RANDOM_PAGE_COST (a larger `work_mem` or a smaller cost of the server's is kept),
 * and no JIT compilation (this statement's estimated cost passes `jit_above_cost` from about 100,000 entities:
 * compiling it took 50 to 80 ms of a 250 ms statement, one word with its facets at 100,000 entities). `local`: until
 * the transaction ends (SET LOCAL), else for the session.
 */
export const searchSettingsSql = (local: boolean): string =>
  `SELECT set_config('work_mem', CASE WHEN pg_size_bytes(current_setting('work_mem')) < ${SEARCH_WORK_MEM_BYTES}
      THEN '${SEARCH_WORK_MEM_BYTES / 1024}kB' ELSE current_setting('work_mem') END, ${local}), set_config('jit', 'off', ${local}),
    set_config('random_page_cost', LEAST(current_setting('random_page_cost')::float8, ${SEARCH_RANDOM_PAGE_COST})::text, ${local})`;

/** Runs a search's statements over every match (page, total and facets) under searchSettingsSql's settings. */
export interface MatchesRunner {
  run(sql: string, params: readonly unknown[]): Promise<Array<Record<string, unknown>>>;
  /** The search pool's connections; undefined without a pool of its own. */
  stats(): PoolStats | undefined;
  close(): Promise<void>;
}

type Rows = Array<Record<string, unknown>>;

/**
 * Through a transaction-mode pooler (PgBouncer): a session's settings would stay on whichever server connection ran
 * them, so each statement runs in a read-only transaction of its own that sets them LOCAL, three round trips. JIT
 * too: the main pool asks for `jit=off` when it connects, but such a pooler may drop start-up options (PgBouncer with
 * `options` in `ignore_startup_parameters`, as scripts/pgbouncer.mjs sets it).
 */
export function transactionMatches(pool: pg.Pool): MatchesRunner {
  return {
    run: (sql, params) =>
      inTransaction(pool, async (c) => (await c.query(sql, params as unknown[])).rows as Rows, `BEGIN READ ONLY; ${searchSettingsSql(true)}`),
    stats: () => undefined,
    close: async () => undefined,
  };
}

/** The name the search pool's connections show in `pg_stat_activity`. */
export const SEARCH_SESSION_NAME = 'almanac-search';

/** The connections a process's search pool opens at most, beside its main pool's. */
export const SEARCH_POOL_SIZE = 4;

/**
 * How long an idle connection of the search pool stays open: longer than the main pool's 10 s, since searches come
 * less often than writes and a new connection (a backend started, the settings sent) costs more than the round trips
 * the pool saves.
 */
const SEARCH_IDLE_MILLIS = 60_000;

/**
 * Straight to the server: a pool of its own (at most SEARCH_POOL_SIZE connections, read-only sessions) whose sessions
 * take the settings when they connect, so each statement is one round trip; the writes' pool keeps the server's own
 * settings. The transaction per statement was two more round trips: an exact name over HTTP at 4 connections, 800 ->
 * 1,015 to 1,173 requests/s on a million entities.
 */
export function sessionMatches(config: pg.PoolConfig): MatchesRunner {
  const pool = new pg.Pool({
    ...config,
    max: SEARCH_POOL_SIZE,
    idleTimeoutMillis: SEARCH_IDLE_MILLIS,
    application_name: SEARCH_SESSION_NAME,
    options: [config.options, '-c default_transaction_read_only=on'].filter((o) => o).join(' '),
    // Awaited before the connection is handed out; if it fails, the connection is closed and the statement fails.
    onConnect: async (client) => {
      await client.query(searchSettingsSql(false));
    },
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return {
    run: async (sql, params) => (await pool.query(sql, params as unknown[])).rows as Rows,
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
