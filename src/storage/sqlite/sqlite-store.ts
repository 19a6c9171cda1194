import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { composeStore } from '../compose-store.ts';
import type { Store, StoreHooks } from '../store.ts';
import { SqliteAspects } from './aspects.ts';
import { SqliteDatabase, type SqliteOptions } from './database.ts';
import { translateSqliteError } from './driver-errors.ts';
import { SqliteIdentity } from './identity.ts';
import { SqliteRelationships } from './relationships.ts';
import { SqliteRetention } from './retention.ts';
import { SqliteChangeEvents } from './change-events.ts';
import { SqliteSearch } from './search.ts';
import { searchKey } from '../search-keys.ts';
import { registerFacetFunctions } from './facet-tally.ts';
import { SqliteSearchIndex } from './search-index.ts';
import { SqliteRuns } from './runs.ts';
import { SqliteSchedules } from './schedules.ts';
import { SqliteAudit } from './audit.ts';
import { StatementCache } from './statements.ts';
import { SqliteTasks } from './tasks.ts';
import { SqliteTimeseries } from './timeseries.ts';
import { SqliteTruncation } from './truncation.ts';
import { SqliteUserAccess } from './user-access.ts';

export type { SqliteOptions } from './database.ts';

/**
 * The embedded adapter: better-sqlite3 in WAL mode, one part per capability over one connection. Calls are
 * synchronous under the hood, so a write batch runs start to finish without another request interleaving.
 */
export function openSqliteStore(file: string, hooks: StoreHooks, options: SqliteOptions): Store {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  // Must precede the first table: lets a truncation hand pages back to the file system.
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_size_limit = 67108864');
  db.pragma(`cache_size = ${-1024 * options.cacheMib}`);
  // The key of a value in the search index (storage/search-keys.ts), for the migrations that fill the keys and the
  // searches that look a value's documents up by it.
  db.function('search_key', { deterministic: true }, (field, value) => searchKey(String(field), String(value)));
  // The count of each facet value over a search's matches (sqlite/facet-tally.ts).
  registerFacetFunctions(db);
  const statements = new StatementCache(db);
  const sql = (text: string) => statements.get(text);
  const timeseries = new SqliteTimeseries(db, file);
  // Every part that changes a deprecation or ends a task records the event through this one, in its transaction.
  const changeEvents = new SqliteChangeEvents(db, sql, hooks.events);
  const tasks = new SqliteTasks(db, sql, changeEvents);
  const searchIndex = new SqliteSearchIndex(db, sql, hooks.indexer);
  const relationships = new SqliteRelationships(db, sql, hooks.indexer, searchIndex);
  const aspects = new SqliteAspects(db, statements, timeseries, relationships, hooks.retention, changeEvents);
  return composeStore(
    'sqlite',
    {
      database: new SqliteDatabase(db, file, statements, relationships, options),
      aspects,
      relationships,
      timeseries,
      truncation: new SqliteTruncation(db, timeseries, tasks),
      tasks,
      identity: new SqliteIdentity(db, sql),
      retention: new SqliteRetention(db, sql),
      runs: new SqliteRuns(db, sql, timeseries, relationships, aspects, changeEvents),
      schedules: new SqliteSchedules(sql),
      userAccess: new SqliteUserAccess(db, sql),
      changeEvents,
      search: new SqliteSearch(db, hooks.documents, searchIndex),
      audit: new SqliteAudit(sql),
    },
    translateSqliteError,
  );
}
