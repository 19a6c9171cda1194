import type pg from 'pg';

const names = new Map<string, string>();

/**
 * A query PostgreSQL parses and plans once per connection instead of on every
 * call: the hot reads and writes (token check, entity reads, aspect writes) run
 * thousands of times a second with the same text.
 */
export function named(text: string, values: readonly unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    name = `almanac_${names.size + 1}`;
    names.set(text, name);
  }
  return { name, text, values: values as unknown[] };
}
