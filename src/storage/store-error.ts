/**
 * The few driver failures a caller can act on, translated by each adapter from its driver's own codes (SQLite
 * result codes, PostgreSQL SQLSTATEs and socket errors). Everything else stays an unexpected error.
 */
export type StoreErrorKind =
  /** A unique constraint refused the write: another writer got there first. */
  | 'CONFLICT'
  /** The database cannot be reached or refused the connection; the request may succeed if retried. */
  | 'UNAVAILABLE';

export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** A write refused because entities it required (WriteBatch.requireEntities) do not exist; nothing was written. */
export class MissingEntities extends Error {
  constructor(readonly urns: readonly string[]) {
    super(`entities do not exist: ${urns.join(', ')}`);
    this.name = 'MissingEntities';
  }
}
