/** A connection pool's open connections, those idle, and requests waiting for one. */
export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

/** What the database itself looks like from this process, for operators' gauges; each field only where it applies. */
export interface DatabaseStats {
  /** PostgreSQL: the pool's. */
  readonly pool?: PoolStats;
  /** PostgreSQL straight to the server: the search pool's (postgres/search-session.ts). */
  readonly searchPool?: PoolStats;
  /** SQLite: bytes in the write-ahead log file (it grows until a checkpoint truncates it). */
  readonly walBytes?: number;
}

/** What DatabasePort only reads: a composition root may answer these from another handle (a read replica). */
export interface DatabaseReads {
  /** Cheap: read from the driver's counters or one stat of a file, never a query. */
  databaseStats(): Promise<DatabaseStats>;
}

/** What DatabasePort changes: always the primary database. */
export interface DatabaseWrites {
  /** Applies pending migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Returns the stored value, storing `init()` first if there is none (first writer wins). */
  getOrInitSetting(key: string, init: () => string): Promise<string>;
  /**
   * Shows that this process hears what other processes commit: on PostgreSQL, a notification sent through the pool
   * reaches the LISTEN connection (it does not through a transaction-mode pooler); throws saying why otherwise.
   * SQLite has nothing to check. A server calls it once at start.
   */
  checkListener(): Promise<void>;
}

/** The database as a whole: its schema, its lifetime, its settings and its gauges. */
export interface DatabasePort extends DatabaseReads, DatabaseWrites {}
