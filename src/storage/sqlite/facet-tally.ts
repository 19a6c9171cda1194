/**
 * Counting facet values on SQLite (migration 30): each document row holds the numbers of its facet values
 * (`search_docs.facets`, sqlite/search-docs.ts), and a search counts its matches' lists with two functions the store
 * gives the connection. SQLite has no hash aggregate: counting rows per value needed a sort of every (match, value)
 * pair, about four times the rest of a word's facets.
 *
 * - `facet_tally(text)`: the lists SQLite's own `group_concat` joined, counted in one pass (the cheaper: one call);
 * - `facet_count(list)`: an aggregate, a call per match, for the match sets whose joined lists would pass
 *   MAX_JOINED_BYTES (a string that long is past what V8 holds).
 *
 * Both answer a JSON object `{"<value number>": count}` that `json_each` turns back into rows.
 */
import type Database from 'better-sqlite3';

/** A document's list: its facet value numbers, distinct, ascending, separated by spaces. */
export const facetList = (ids: Iterable<number>): string => [...new Set(ids)].sort((a, b) => a - b).join(' ');

/**
 * The most characters of lists the search joins into one string for facet_tally: past it (a few million matches
 * with many values each) it counts them one by one with facet_count. V8's longest string is about 512 Mi characters.
 */
export const MAX_JOINED_BYTES = 256 * 1024 * 1024;

const ZERO = 48;
const NINE = 57;

/** Adds one to `counts` for each decimal number in `lists` (numbers separated by anything else; not text: none). */
function addNumbers(counts: Map<number, number>, lists: unknown): Map<number, number> {
  if (typeof lists !== 'string') return counts;
  let n = 0;
  let inNumber = false;
  for (let i = 0; i <= lists.length; i++) {
    const c = i < lists.length ? lists.charCodeAt(i) : -1;
    if (c >= ZERO && c <= NINE) {
      n = n * 10 + (c - ZERO);
      inNumber = true;
    } else if (inNumber) {
      counts.set(n, (counts.get(n) ?? 0) + 1);
      n = 0;
      inNumber = false;
    }
  }
  return counts;
}

const asJson = (counts: Map<number, number>): string => JSON.stringify(Object.fromEntries(counts));

/** `{"<number>": count}` of the numbers in the joined lists: a document lists a value once, so each count is of documents. */
export const facetTally = (lists: unknown): string => asJson(addNumbers(new Map(), lists));

/** Gives the connection facet_tally and facet_count. */
export function registerFacetFunctions(db: Database.Database): void {
  db.function('facet_tally', { deterministic: true }, facetTally);
  db.aggregate('facet_count', { start: () => new Map<number, number>(), step: addNumbers, result: asJson });
}
