import { aspectIndexer } from '../catalog/relationships/aspect-indexer.ts';
import { changeEventRules } from '../catalog/events/change-event-rules.ts';
import { searchDocuments } from '../catalog/search/search-documents.ts';
import { DEFAULT_REPLICA_MAX_LAG_MILLIS, DEFAULT_SQLITE_CACHE_MIB, type DatabaseConfig, type PostgresConfig } from '../config.ts';
import { openPostgresStore } from './postgres/postgres-store.ts';
import { PostgresReplicaSet } from './postgres/replica-set.ts';
import type { ReadRouter } from './read-routing.ts';
import type { CheckpointSettings } from './sqlite/database.ts';
import { openSqliteStore } from './sqlite/sqlite-store.ts';
import { KEEP_ALL_VERSIONS, type AspectIndexer, type Store, type StoreHooks, type VersionRetention } from './store.ts';

export interface OpenStoreOptions {
  /** Long-running servers move SQLite checkpoints to a worker thread; one-shot CLI commands do not. */
  readonly background?: boolean;
  /** SQLite's background checkpoints' cadence and bound, where not the default (tests shorten them). */
  readonly checkpoints?: CheckpointSettings;
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
      ? openSqliteStore(config.path, hooks, {
          backgroundCheckpoints: options.background ?? false,
          checkpoints: options.checkpoints,
          cacheMib: config.cacheMib ?? DEFAULT_SQLITE_CACHE_MIB,
        })
      : openPostgres(config, hooks);
  try {
    await store.database.migrate();
  } catch (e) {
    await store.database.close().catch(() => undefined);
    throw e;
  }
  return store;
}

/**
 * Whether the pools go through a pooler: a listener address apart from the pool's says so. Then no statement is
 * prepared by name and searches take their settings per transaction (postgres/search-session.ts), on the primary's
 * pool and the replicas'.
 */
export const throughPooler = (config: Pick<PostgresConfig, 'url' | 'listenUrl'>): boolean =>
  config.listenUrl !== undefined && config.listenUrl !== config.url;

/**
 * The primary's store and, with ALMANAC_DATABASE_READ_URLS, the router that lets its replicas answer reads (closed
 * with the store).
 */
function openPostgres(config: PostgresConfig, hooks: StoreHooks): Store {
  const namedStatements = !throughPooler(config);
  const { store, listener } = openPostgresStore(config.url, hooks, { listenUrl: config.listenUrl, namedStatements });
  const readUrls = config.readUrls ?? [];
  if (readUrls.length === 0) return store;
  const replicas = readUrls.map((url) => ({
    url,
    store: openPostgresStore(url, hooks, { namedStatements, connectTimeoutMillis: REPLICA_CONNECT_MILLIS }).store,
  }));
  const readRouter: ReadRouter = new PostgresReplicaSet(listener, replicas, config.replicaMaxLagMillis ?? DEFAULT_REPLICA_MAX_LAG_MILLIS);
  const close = store.database.close;
  return {
    ...store,
    readRouter,
    database: {
      ...store.database,
      close: async () => {
        await readRouter.close();
        await close();
      },
    },
  };
}

/** A replica that takes longer than this to give a connection is skipped for that read (the primary answers). */
const REPLICA_CONNECT_MILLIS = 1_000;
