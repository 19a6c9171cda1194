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

/**
 * The store with every method's failures passed through `translate` (an adapter's driver-error table). Calls go
 * straight to the adapter, so its own internal calls are not translated twice.
 */
export function translatingErrors<S extends object>(store: S, translate: (e: unknown) => unknown): S {
  const wrapped = new Map<PropertyKey, unknown>();
  const fail = (e: unknown): never => {
    throw translate(e);
  };
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      let fn = wrapped.get(key);
      if (!fn) {
        fn = (...args: unknown[]) => {
          try {
            const result = (value as (...a: unknown[]) => unknown).apply(target, args);
            return result instanceof Promise ? result.catch(fail) : result;
          } catch (e) {
            return fail(e);
          }
        };
        wrapped.set(key, fn);
      }
      return fn;
    },
  });
}
