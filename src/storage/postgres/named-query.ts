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
