import { DEPRECATION_STATES } from '../deprecation-lifecycle.ts';
import { badRequest } from '../errors.ts';
import type { SearchDocument, SearchFilter, SortCriterion } from '../../storage/store.ts';
import { baseFieldName } from './search-document.ts';

/** DataHub's search filter and sort, as the search port takes them. */
export type { SearchCriterion, SearchFilter, SortCriterion } from '../../storage/store.ts';

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Numbers (epoch millis, counts) compare as numbers; anything else as text. */
function compare(v: unknown, x: string): number {
  const n = Number(x);
  if (typeof v === 'number' && x.trim() !== '' && Number.isFinite(n)) return v - n;
  const s = text(v);
  return s < x ? -1 : s > x ? 1 : 0;
}

type Test = (values: readonly unknown[], wanted: readonly string[]) => boolean;
const some =
  (test: (v: unknown, x: string) => boolean): Test =>
  (values, wanted) =>
    values.some((v) => wanted.some((x) => test(v, x)));

/** The conditions Almanac applies, with DataHub's meaning on exact (keyword) values. */
const CONDITIONS: Readonly<Record<string, Test>> = {
  EQUAL: some((v, x) => text(v) === x),
  IN: some((v, x) => text(v) === x),
  IEQUAL: some((v, x) => text(v).toLowerCase() === x.toLowerCase()),
  CONTAIN: some((v, x) => text(v).includes(x)),
  START_WITH: some((v, x) => text(v).startsWith(x)),
  END_WITH: some((v, x) => text(v).endsWith(x)),
  GREATER_THAN: some((v, x) => compare(v, x) > 0),
  GREATER_THAN_OR_EQUAL_TO: some((v, x) => compare(v, x) >= 0),
  LESS_THAN: some((v, x) => compare(v, x) < 0),
  LESS_THAN_OR_EQUAL_TO: some((v, x) => compare(v, x) <= 0),
  EXISTS: (values) => values.length > 0,
};

/** Checks a filter up front, so a bad one is a 400 naming it before anything is read. */
export function checkFilter(filter: SearchFilter): void {
  filter.forEach((group, i) =>
    group.forEach((c, j) => {
      const condition = c.condition ?? 'EQUAL';
      if (!CONDITIONS[condition]) {
        throw badRequest(
          `orFilters[${i}].and[${j}] (${c.field}): condition ${condition} is not supported; Almanac applies ${Object.keys(CONDITIONS).join(', ')}`,
        );
      }
      if (condition !== 'EXISTS' && c.values.length === 0) throw badRequest(`orFilters[${i}].and[${j}] (${c.field}): give at least one value`);
      const unknownState = c.field === 'deprecationState' ? c.values.find((v) => !(DEPRECATION_STATES as readonly string[]).includes(v)) : undefined;
      if (unknownState !== undefined) {
        throw badRequest(`orFilters[${i}].and[${j}] (deprecationState): unknown value ${unknownState}; use ${DEPRECATION_STATES.join(', ')}`);
      }
    }),
  );
}

/** Whether the document matches the filter. A field the document lacks matches no value (negated: matches). */
export function matchesFilter(doc: SearchDocument, filter: SearchFilter): boolean {
  if (filter.length === 0) return true;
  return filter.some((group) =>
    group.every((c) => CONDITIONS[c.condition ?? 'EQUAL']!(doc.get(baseFieldName(c.field)) ?? [], c.values) !== (c.negated === true)),
  );
}

/** Every field a filter or sort names. */
export const filterFields = (filter: SearchFilter, sort: readonly SortCriterion[] = []): string[] => [
  ...new Set([...filter.flat().map((c) => baseFieldName(c.field)), ...sort.map((s) => baseFieldName(s.field))]),
];

/**
 * Almanac's full-text match: the whole query, trimmed, as a case-insensitive
 * substring of the urn or of any value of the document. `*` or nothing matches
 * everything. No tokens, stemming, ranking, field syntax or other wildcards.
 */
export function matchesText(doc: SearchDocument, query: string | undefined): boolean {
  if (query === undefined) return true;
  const needle = query.toLowerCase();
  for (const values of doc.values()) for (const v of values) if (text(v).toLowerCase().includes(needle)) return true;
  return false;
}

/** The query as matchesText takes it: undefined for match-all. */
export const fullTextQuery = (query: string | undefined | null): string | undefined => {
  const q = (query ?? '').trim();
  return q === '' || q === '*' ? undefined : q;
};

/** Sorts documents by the criteria, then by urn; a document without a value sorts last either way (as Elasticsearch). */
export function compareDocuments(a: SearchDocument, b: SearchDocument, sort: readonly SortCriterion[]): number {
  for (const s of sort) {
    const av = a.get(baseFieldName(s.field))?.[0];
    const bv = b.get(baseFieldName(s.field))?.[0];
    if (av === undefined || bv === undefined) {
      if (av !== bv) return av === undefined ? 1 : -1;
      continue;
    }
    const c = typeof av === 'number' && typeof bv === 'number' ? av - bv : text(av) < text(bv) ? -1 : text(av) > text(bv) ? 1 : 0;
    if (c !== 0) return s.order === 'DESCENDING' ? -c : c;
  }
  const au = String(a.get('urn')?.[0]);
  const bu = String(b.get('urn')?.[0]);
  return au < bu ? -1 : au > bu ? 1 : 0;
}
