/**
 * Counting facet values on SQLite (migration 30): each document row holds the numbers of its facet values
 * (`search_docs.facets`, sqlite/search-docs.ts), a search concatenates its matches' lists with SQLite's own
 * `group_concat`, and `facet_tally`, a function the store gives the connection, counts the numbers in one pass
 * and answers them as a JSON object `{"<value number>": count}` that `json_each` turns back into rows. SQLite has
 * no hash aggregate: counting rows per value needed a sort of every (match, value) pair, about four times the rest
 * of a word's facets.
 */

/** The separator of the numbers in a document's list and between the lists `group_concat` joins. */
export const FACET_SEP = ' ';

/** A document's list: its facet value numbers, distinct, ascending. */
export const facetList = (ids: Iterable<number>): string => [...new Set(ids)].sort((a, b) => a - b).join(FACET_SEP);

const ZERO = 48;
const NINE = 57;

/**
 * Counts each decimal number in `lists` (numbers separated by anything else; null or empty: none) and answers
 * `{"<number>": count}` as JSON text. A document lists a value once, so each count is of documents.
 */
export function facetTally(lists: unknown): string {
  if (typeof lists !== 'string') return '{}';
  const counts = new Map<number, number>();
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
  return JSON.stringify(Object.fromEntries(counts));
}
