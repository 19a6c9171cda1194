import type { DatabaseConfig } from '../config.ts';
import { PostgresStore } from './postgres/postgres-store.ts';
import { SqliteStore } from './sqlite/sqlite-store.ts';
import type { Store } from './store.ts';

export interface OpenStoreOptions {
  /** Long-running servers move SQLite checkpoints to a worker thread; one-shot CLI commands do not. */
  readonly background?: boolean;
}

/** The one place that picks an adapter; the store is migrated before it is returned. */
export async function openStore(config: DatabaseConfig, options: OpenStoreOptions = {}): Promise<Store> {
  const store: Store =
    config.kind === 'sqlite'
      ? new SqliteStore(config.path, { backgroundCheckpoints: options.background ?? false })
      : new PostgresStore(config.url);
  try {
    await store.migrate();
  } catch (e) {
    await store.close().catch(() => undefined);
    throw e;
  }
  return store;
}
