/** What the database itself looks like from this process, for operators' gauges; each field only where it applies. */
export interface DatabaseStats {
  /** PostgreSQL: the pool's open connections, those idle, and requests waiting for one. */
  readonly pool?: { readonly total: number; readonly idle: number; readonly waiting: number };
  /** SQLite: bytes in the write-ahead log file (it grows until a checkpoint truncates it). */
  readonly walBytes?: number;
}

export interface DatabasePort {
  /** Cheap: read from the driver's counters or one stat of a file, never a query. */
  databaseStats(): Promise<DatabaseStats>;
}
