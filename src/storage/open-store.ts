import { aspectIndexer } from '../catalog/relationships/aspect-indexer.ts';
import { changeEventRules } from '../catalog/events/change-event-rules.ts';
import { searchDocuments } from '../catalog/search/search-documents.ts';
import type { DatabaseConfig } from '../config.ts';
import { openPostgresStore } from './postgres/postgres-store.ts';
import { openSqliteStore } from './sqlite/sqlite-store.ts';
import { KEEP_ALL_VERSIONS, type AspectIndexer, type Store, type VersionRetention } from './store.ts';

export interface OpenStoreOptions {
  /** Long-running servers move SQLite checkpoints to a worker thread; one-shot CLI commands do not. */
  readonly background?: boolean;
  /** What the store indexes beside aspect values; the catalog's relationships and soft deletions unless a test gives another. */
  readonly indexer?: AspectIndexer;
  /** Versioned retention applied on write; none unless the caller gives the policies (app.ts). */
  readonly retention?: VersionRetention;
}

/**
 * The one place that picks an adapter; the store is migrated before it is returned. It is also where the adapter
 * gets the catalog's indexer (the registry's relationships) and search documents, so every store indexes and searches
 * alike.
 */
export async function openStore(config: DatabaseConfig, options: OpenStoreOptions = {}): Promise<Store> {
  const hooks = {
    indexer: options.indexer ?? aspectIndexer,
    retention: options.retention ?? KEEP_ALL_VERSIONS,
    documents: searchDocuments,
    events: changeEventRules,
  };
  // Each adapter's driver errors leave the store as StoreError (conflict, unavailable) or not at all (compose-store.ts).
  const store: Store =
    config.kind === 'sqlite'
      ? openSqliteStore(config.path, hooks, { backgroundCheckpoints: options.background ?? false })
      : openPostgresStore(config.url, hooks);
  try {
    await store.database.migrate();
  } catch (e) {
    await store.database.close().catch(() => undefined);
    throw e;
  }
  return store;
}
