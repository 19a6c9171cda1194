import type pg from 'pg';
import { named } from './named-query.ts';

/**
 * Work a transaction leaves for its end, written so that the parts of several collectors join into ONE statement
 * sent just before COMMIT (a round trip each would cost a timeseries batch more than the work itself). `with` writes
 * WITH items (`name AS (...)`), naming them through `name` and its parameters through `param` (its first value is
 * `param(1)`), since the joined statement numbers both; `select` is what the statement's SELECT list must evaluate
 * (a WITH item that changes rows runs whether or not it is used, one that only reads does not).
 */
export interface CommitPart {
  readonly with: (name: (local: string) => string, param: (n: number) => string) => string;
  readonly select?: (name: (local: string) => string) => string;
  readonly values: readonly unknown[];
  /**
   * Plan the statement on every call when this part is in it (not prepared): a generic plan made while a table it
   * reads by `= ANY(...)` was small (a new database, an index emptied for a rebuild) stays a scan of that table as it
   * grows, until its statistics change (the next ANALYZE; none during a bulk load without autovacuum).
   */
  readonly planEachTime?: boolean;
}

/** What a transaction's statements left for its end: items collected per collector, each made into parts by its flush. */
interface Pending {
  readonly items: unknown[];
  readonly flush: (client: pg.ClientBase, items: unknown[]) => Promise<readonly CommitPart[]>;
}

/** The open transaction of each client (inTransaction's), with what it collected; gone when the transaction ends. */
const open = new WeakMap<pg.ClientBase, Map<object, Pending>>();

/**
 * Collects `items` for the end of the transaction `client` is in (inTransaction's): just before its COMMIT, each
 * collector's `flush` runs once with all it collected, and the parts every flush returns run as one statement, the
 * transaction's last. A rollback drops them with the transaction. The change log takes its offsets there, so the lock
 * that orders them is held from then to the commit only.
 */
export function atCommit<T>(
  client: pg.ClientBase,
  collector: object,
  items: readonly T[],
  flush: (client: pg.ClientBase, items: T[]) => Promise<readonly CommitPart[]>,
): void {
  const pending = open.get(client);
  if (!pending) throw new Error('atCommit outside inTransaction');
  const found = pending.get(collector);
  // One by one: a spread of a large batch's items (every column path of 200 datasets) could pass the engine's limit on arguments.
  if (found) for (const item of items) found.items.push(item);
  else pending.set(collector, { items: [...items], flush: flush as Pending['flush'] });
}

/** The parts as one statement: each part's names and parameters numbered after the parts before it. */
function joined(parts: readonly CommitPart[]): pg.QueryConfig {
  const items: string[] = [];
  const selects: string[] = [];
  const values: unknown[] = [];
  parts.forEach((part, i) => {
    const name = (local: string) => `p${i}_${local}`;
    const offset = values.length;
    items.push(part.with(name, (n) => `$${offset + n}`));
    if (part.select) selects.push(part.select(name));
    values.push(...part.values);
  });
  const text = `WITH ${items.join(',\n')}\nSELECT ${selects.length > 0 ? selects.join(', ') : '1'}`;
  return parts.some((p) => p.planEachTime) ? { text, values } : named(text, values);
}

/**
 * A pooled connection taken for several statements, and `release` to give it back. The pool listens for an idle
 * connection's loss, not for a taken one's: a connection cut between two statements (a failover, an administrator's
 * pg_terminate_backend) raised its error with no listener, an uncaught exception that ended the process. Heard here,
 * the loss reaches the holder as its next statement's failure, and the pool drops the connection when it comes back.
 */
export async function takeConnection(pool: pg.Pool): Promise<{ client: pg.PoolClient; release: () => void }> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onLoss = (e: Error): void => {
    lost = e;
  };
  client.on('error', onLoss);
  return {
    client,
    release: () => {
      client.off('error', onLoss);
      client.release(lost);
    },
  };
}

/**
 * Runs `fn` in one transaction on one pooled connection: committed when it returns, rolled back when it throws.
 * `begin` opens it (statements without parameters, sent together: a mode, a SET LOCAL).
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const { client, release } = await takeConnection(pool);
  const pending = new Map<object, Pending>();
  open.set(client, pending);
  try {
    await client.query(begin);
    const result = await fn(client);
    const parts: CommitPart[] = [];
    for (const p of pending.values()) parts.push(...(await p.flush(client, p.items)));
    if (parts.length > 0) await client.query(joined(parts));
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    open.delete(client);
    release();
  }
}
