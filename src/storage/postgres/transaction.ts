import type pg from 'pg';

/** What a transaction's statements left for its end: items collected per collector, each written by its flush. */
interface Pending {
  readonly items: unknown[];
  readonly flush: (client: pg.ClientBase, items: unknown[]) => Promise<void>;
}

/** The open transaction of each client (inTransaction's), with what it collected; gone when the transaction ends. */
const open = new WeakMap<pg.ClientBase, Map<object, Pending>>();

/**
 * Collects `items` for the end of the transaction `client` is in (inTransaction's): just before its COMMIT, each
 * collector's `flush` runs once with all it collected. A rollback drops them with the transaction. The change log
 * takes its offsets there, so the lock that orders them is held from then to the commit only.
 */
export function atCommit<T>(
  client: pg.ClientBase,
  collector: object,
  items: readonly T[],
  flush: (client: pg.ClientBase, items: T[]) => Promise<void>,
): void {
  const pending = open.get(client);
  if (!pending) throw new Error('atCommit outside inTransaction');
  const found = pending.get(collector);
  if (found) found.items.push(...items);
  else pending.set(collector, { items: [...items], flush: flush as Pending['flush'] });
}

/** Runs `fn` in one transaction on one pooled connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const pending = new Map<object, Pending>();
  open.set(client, pending);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    for (const p of pending.values()) await p.flush(client, p.items);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    open.delete(client);
    client.release();
  }
}
