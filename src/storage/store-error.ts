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
