import { StoreError } from '../store-error.ts';

/** Socket-level failures of the connection itself (node's error codes). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs that mean the server went away or will not take the connection now (class 08, 57P01-57P03, 53300). */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * pg-pool's error when a full pool gives no connection within its `connectionTimeoutMillis` (a replica's pools set
 * one): unavailable, so that a read on a busy replica is answered by the primary (PostgresReplicaSet.readFailed).
 */
const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * pg's errors as the store's: a unique violation is a conflict; a lost or refused connection, or none free in time,
 * is unavailable.
 */
export function translatePostgresError(e: unknown): unknown {
  if (e instanceof StoreError || !(e instanceof Error)) return e;
  const code = (e as { code?: unknown }).code;
  if (code === '23505') return new StoreError('CONFLICT', 'a unique constraint refused the write', { cause: e });
  const lost =
    (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || SOCKET_CODES.has(code))) ||
    (code === '55000' && /not currently accepting connections/.test(e.message)) ||
    /^Connection terminated/.test(e.message) ||
    // A statement sent on a connection whose loss was heard between two statements (transaction.ts: takeConnection).
    /^Client has encountered a connection error and is not queryable/.test(e.message);
  if (lost) return new StoreError('UNAVAILABLE', 'the PostgreSQL server cannot be reached', { cause: e });
  return e.message === POOL_WAIT_TIMEOUT ? new StoreError('UNAVAILABLE', 'no PostgreSQL connection came free in time', { cause: e }) : e;
}
