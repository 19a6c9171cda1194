import type pg from 'pg';

const names = new Map<string, string>();

/**
 * A query PostgreSQL parses and plans once per connection instead of on every
 * call: the hot reads and writes (token check, entity reads, aspect writes) run
 * thousands of times a second with the same text. The text must be constant and
 * name its columns (a prepared `SELECT *` fails once its table gains a column);
 * behind a pooler, session pooling (or PgBouncer 1.21+) keeps this working.
 */
export function named(text: string, values: readonly unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    name = `almanac_${names.size + 1}`;
    names.set(text, name);
  }
  return { name, text, values: values as unknown[] };
}

/** `:name` parameters as PostgreSQL's `$n`, in first-use order, with the values to pass. */
export function positional(sql: string, values: Record<string, unknown>): { text: string; values: unknown[] } {
  const order: string[] = [];
  const text = sql.replace(/(?<!:):(\w+)/g, (_m, name: string) => {
    if (!order.includes(name)) order.push(name);
    return `$${order.indexOf(name) + 1}`;
  });
  return { text, values: order.map((n) => values[n]) };
}

/** Runs SQL written with `:name` parameters (the SQL both adapters share). */
export function runNamed<R extends pg.QueryResultRow>(
  db: pg.Pool | pg.PoolClient,
  sql: string,
  values: Record<string, unknown> = {},
): Promise<pg.QueryResult<R>> {
  const q = positional(sql, values);
  return db.query<R>(q.text, q.values);
}
