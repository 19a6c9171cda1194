import { createHash } from 'node:crypto';
import type { SearchCriterion, SearchFilter } from '../ports/search.ts';
import { FACET_FIELD_SET } from '../search-facet-fields.ts';
import type { SearchRules } from '../search-sql.ts';

/**
 * The search keys of SQLite's index (migration 26): each document's exact values of the default facet fields
 * (storage/search-facet-fields.ts), and whether it is soft-deleted, as the tokens of one row of the FTS5 table
 * `search_keys` (rowid = the document's number, no positions kept). A filter on those fields alone becomes one FTS5
 * expression, so FTS5 intersects the values' lists of documents in C, where SQL seeks `search_fields` once per
 * candidate: a platform and a tag over 100,000 entities, 60 ms in SQL against 8 (bench/search.bench.ts).
 */

/** The key of a soft-deleted document. Value keys are `k` and hex digits: no value key is this word. */
export const REMOVED_KEY = 'rm';

/** A value's key: `k` and 80 bits of SHA-1 of (field, value) in hex (two of a million distinct values share one with a chance of about 1 in 10^12). */
export function searchKey(field: string, value: string): string {
  return `k${createHash('sha1').update(field).update('\u0000').update(value).digest('hex').slice(0, 20)}`;
}

/** A document's keys row: its facet fields' values and, if it is soft-deleted, REMOVED_KEY; empty if it has none. */
export function keysRow(values: ReadonlyArray<{ readonly field: string; readonly value: string }>, removed: boolean): string {
  const keys = new Set(values.map((v) => searchKey(v.field, v.value)));
  if (removed) keys.add(REMOVED_KEY);
  return [...keys].join(' ');
}

/** The flags whose `false` means "holds no `true`", as the SQL filter reads a false flag (storage/search-sql.ts). */
const FLAGS = new Set(['removed', 'deprecated']);

/** One criterion as `[positive, expression]`, or undefined if the keys cannot answer it exactly. */
function criterionKeys(c: SearchCriterion, rules: SearchRules): [boolean, string] | undefined {
  const field = rules.baseField(c.field);
  const condition = c.condition ?? 'EQUAL';
  if ((condition !== 'EQUAL' && condition !== 'IN') || c.values.length === 0) return undefined;
  const negated = c.negated === true;
  if (FLAGS.has(field) && c.values.every((v) => v === 'false')) return [negated, key(field, 'true')];
  if (field === 'removed') return c.values.every((v) => v === 'true') ? [!negated, REMOVED_KEY] : undefined;
  if (!FACET_FIELD_SET.has(field)) return undefined;
  return [!negated, `(${c.values.map((v) => searchKey(field, v)).join(' OR ')})`];
}

const key = (field: string, value: string): string => (field === 'removed' ? REMOVED_KEY : searchKey(field, value));

/** One AND group as an FTS5 expression: its positive criteria AND-ed, each negative one NOT-ed; undefined if any criterion is not a key's or none is positive. */
function groupKeys(group: readonly SearchCriterion[], rules: SearchRules): string | undefined {
  const positive: string[] = [];
  const negative: string[] = [];
  for (const c of group) {
    const k = criterionKeys(c, rules);
    if (k === undefined) return undefined;
    (k[0] ? positive : negative).push(k[1]);
  }
  if (positive.length === 0) return undefined;
  return negative.reduce((expr, n) => `(${expr} NOT ${n})`, `(${positive.join(' AND ')})`);
}

/**
 * DataHub's orFilters as one FTS5 expression over the keys (any group whose every criterion holds, soft-deleted
 * documents left out unless `includeRemoved`), or undefined when some criterion is not an equality on a key field
 * (the SQL filter answers those).
 */
export function filterKeys(filter: SearchFilter, includeRemoved: boolean, rules: SearchRules): string | undefined {
  if (filter.length === 0) return undefined;
  const groups: string[] = [];
  for (const g of filter) {
    const expr = groupKeys(g, rules);
    if (expr === undefined) return undefined;
    groups.push(expr);
  }
  const any = groups.length === 1 ? groups[0]! : `(${groups.join(' OR ')})`;
  return includeRemoved ? any : `(${any} NOT ${REMOVED_KEY})`;
}
