import type pg from 'pg';

/** Work a transaction's statements left for its end: run in order, after `fn` returns and before COMMIT. */
const beforeCommit = new WeakMap<pg.ClientBase, Array<(client: pg.ClientBase) => Promise<void>>>();

/**
 * Runs `step` as the last statements of the transaction `client` is in (inTransaction's), just before its COMMIT.
 * The change log takes its offsets there, so the lock that orders them is held from then to the commit only.
 */
export function atCommit(client: pg.ClientBase, step: (client: pg.ClientBase) => Promise<void>): void {
  const steps = beforeCommit.get(client);
  if (!steps) throw new Error('atCommit outside inTransaction');
  steps.push(step);
}

/** Runs `fn` in one transaction on one pooled connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const steps: Array<(client: pg.ClientBase) => Promise<void>> = [];
  beforeCommit.set(client, steps);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    for (const step of steps) await step(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    beforeCommit.delete(client);
    client.release();
  }
}
