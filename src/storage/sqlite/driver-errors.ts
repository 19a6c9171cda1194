import { StoreError } from '../store-error.ts';

/** better-sqlite3's errors as the store's: a unique violation is a conflict; a database locked past the busy timeout is unavailable. */
export function translateSqliteError(e: unknown): unknown {
  if (e instanceof StoreError || !(e instanceof Error)) return e;
  const code = (e as { code?: unknown }).code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return new StoreError('CONFLICT', 'a unique constraint refused the write', { cause: e });
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
    return new StoreError('UNAVAILABLE', 'the SQLite database is locked by another process', { cause: e });
  return e;
}
