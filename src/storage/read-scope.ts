import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one request has done so far that decides where its reads may go. The composition root starts one per
 * request (before authentication), and every routed read and write of that request finds it here.
 */
export interface ReadScope {
  /** The primary-position barriers sent before the request arrived: its reads need the position of a later one. */
  readonly after: number;
  /** Set when the request starts a write: its later reads go to the primary, which holds what it wrote. */
  wrote: boolean;
  /** The replica already shown fresh for this request, which its later reads use without asking again. */
  fresh?: unknown;
}

const scopes = new AsyncLocalStorage<ReadScope>();

/** The scope of the request this code runs for; undefined outside one (background jobs, start-up). */
export function currentReadScope(): ReadScope | undefined {
  return scopes.getStore();
}

/** Runs `fn` (and everything it starts) in `scope`. */
export function runInReadScope<T>(scope: ReadScope, fn: () => T): T {
  return scopes.run(scope, fn);
}
