import type { SearchEntry } from './ports/search-index.ts';

/** One full-text row: a field's words, all its values together, under the field's boost. */
export interface SearchTextRow {
  readonly field: string;
  readonly boost: number;
  readonly byDefault: boolean;
  readonly words: string;
}

/** The text rows of one aspect's entries, one per field that has words: what both engines' full-text tables hold. */
export function searchTextRows(entries: readonly SearchEntry[]): SearchTextRow[] {
  const texts = new Map<string, { boost: number; byDefault: boolean; words: string[] }>();
  for (const e of entries) {
    if (e.words === undefined || e.words === '') continue;
    const t = texts.get(e.field) ?? { boost: e.boost, byDefault: e.byDefault, words: [] };
    t.words.push(e.words);
    texts.set(e.field, t);
  }
  return [...texts].map(([field, t]) => ({ field, boost: t.boost, byDefault: t.byDefault, words: t.words.join(' ') }));
}
