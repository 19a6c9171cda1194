import pg from 'pg';
import { composeStore } from '../compose-store.ts';
import type { Store, StoreHooks } from '../store.ts';
import { PostgresAspects } from './aspects.ts';
import { PostgresAuthListener } from './auth-listener.ts';
import { PostgresChangeEvents } from './change-events.ts';
import { PostgresSearch } from './search.ts';
import { PostgresSearchIndex } from './search-index.ts';
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
 * The production adapter, one part per capability over one pool; several stateless Almanac processes may share
 * one database.
 */
export function openPostgresStore(url: string, hooks: StoreHooks, poolSize = 10): Store {
  // No JIT: its compile time (a third of a second, from EXPLAIN ANALYZE of a search with its facets at 25,000
  // datasets) is paid by every statement whose estimate passes jit_above_cost, and Almanac's run in milliseconds.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types, options: '-c jit=off' });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const timeseries = new PostgresTimeseries(pool);
  const searchIndex = new PostgresSearchIndex(pool, hooks.indexer);
  const relationships = new PostgresRelationships(pool, hooks.indexer, searchIndex);
  const newClient = () => new pg.Client({ connectionString: url, types });
  // Every part that changes a deprecation or ends a task records the event through this one, in its transaction.
  const authListener = new PostgresAuthListener(newClient);
  const changeEvents = new PostgresChangeEvents(pool, hooks.events, authListener);
  const tasks = new PostgresTasks(pool, newClient, changeEvents);
  const aspects = new PostgresAspects(pool, timeseries, relationships, hooks.retention, changeEvents);
  return composeStore(
    'postgres',
    {
      database: new PostgresDatabase(pool, relationships, searchIndex, tasks, authListener),
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
      search: new PostgresSearch(hooks.documents, pool, searchIndex),
      audit: new PostgresAudit(pool),
    },
    translatePostgresError,
  );
}
