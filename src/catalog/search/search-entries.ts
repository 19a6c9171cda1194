import { DATAHUB_REGISTRY, type RegistrySearchable } from '../registry/datahub-registry.ts';
import { findAspectSpec } from '../registry/index.ts';
import type { Json } from '../../storage/store.ts';

/**
 * One value an aspect contributes to its entity's search document, as the index keeps it: which field, the value as
 * text (exact, for filters, facets and sorts), and how full-text search treats it. Derived from DataHub's
 * `@Searchable` annotations in the generated registry, never from a hand-written list.
 */
export interface SearchEntry {
  readonly field: string;
  readonly value: string;
  /** The value as a number, for DATETIME and COUNT fields (range filters and sorts compare numbers). */
  readonly number?: number;
  /** Full-text indexed: its words are matched by queries (plain ones only when `byDefault`, `/q field:` always). */
  readonly text: boolean;
  /** A plain query searches this field (DataHub's queryByDefault). */
  readonly byDefault: boolean;
  /** How much a match here weighs (DataHub's boostScore; 1 by default). */
  readonly boost: number;
  /** The entity's display name (`_entityName`, or a key's name): exact and prefix matches on it rank first. */
  readonly isName: boolean;
  readonly autocomplete: boolean;
}

/** Field types whose values are words people search for; the others (numbers, times, booleans, paths) are exact. */
const TEXT_TYPES = new Set(['TEXT', 'TEXT_PARTIAL', 'WORD_GRAM', 'KEYWORD', 'URN', 'URN_PARTIAL', undefined]);
const NUMBER_TYPES = new Set(['COUNT', 'DATETIME', 'DOUBLE']);
/** Longest exact value kept for filters and facets: longer texts (descriptions) are searched by their words only. */
export const MAX_EXACT_VALUE = 512;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The values at a path: `*` is every array element or map entry (a map entry indexes as `key=value`, as DataHub's do). */
function valuesAt(value: unknown, segments: readonly string[], out: unknown[]): void {
  if (segments.length === 0) {
    if (value !== undefined && value !== null) out.push(value);
    return;
  }
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    if (Array.isArray(value)) for (const v of value) valuesAt(v, rest, out);
    else if (isObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (rest.length === 0 && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) out.push(`${k}=${String(v)}`);
        else valuesAt(v, rest, out);
      }
    } else valuesAt(value, rest, out);
    return;
  }
  if (head.startsWith('$')) return; // map keys ($key): not indexed
  if (isObject(value)) valuesAt(value[head], rest, out);
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));

function entriesOf(s: RegistrySearchable, values: readonly unknown[], isKey: boolean, out: SearchEntry[]): void {
  const text = TEXT_TYPES.has(s.type);
  const isName = (s.fieldNameAliases ?? []).includes('_entityName') || (isKey && s.type === 'WORD_GRAM');
  for (const v of values) {
    const value = asText(v);
    const number = NUMBER_TYPES.has(s.type ?? '') && typeof v === 'number' ? v : undefined;
    out.push({
      field: s.name,
      value,
      ...(number !== undefined ? { number } : {}),
      text,
      byDefault: text && s.queryByDefault !== false,
      boost: s.boostScore ?? 1,
      isName,
      autocomplete: s.enableAutocomplete === true,
    });
  }
  const flag = (field: string, value: string, number?: number): void => {
    out.push({
      field,
      value,
      ...(number !== undefined ? { number } : {}),
      text: false,
      byDefault: false,
      boost: 1,
      isName: false,
      autocomplete: false,
    });
  };
  if (s.hasValuesFieldName) flag(s.hasValuesFieldName, String(values.length > 0));
  if (s.numValuesFieldName) flag(s.numValuesFieldName, String(values.length), values.length);
}

/**
 * Fields Almanac derives beside the annotated ones, each from one aspect: DataHub's UI and SDK filter on them.
 * (`_entityType` and `urn` belong to the entity, not an aspect: the index keeps them with the entity's row.)
 */
const DERIVED: ReadonlyMap<string, (value: Json) => SearchEntry[]> = new Map([
  [
    'upstreamLineage',
    (value: Json) => [
      {
        field: 'hasUpstreams',
        value: String(Array.isArray(value.upstreams) && value.upstreams.length > 0),
        text: false,
        byDefault: false,
        boost: 1,
        isName: false,
        autocomplete: false,
      },
    ],
  ],
]);

/** What one aspect value contributes to its entity's search document; nothing for an aspect without annotations. */
export function searchEntries(entityType: string, aspectName: string, value: Json): SearchEntry[] {
  const spec = findAspectSpec(entityType, aspectName);
  if (!spec || spec.kind === 'timeseries') return [];
  const out: SearchEntry[] = [];
  for (const s of DATAHUB_REGISTRY.aspects[aspectName]?.searchable ?? []) {
    const values: unknown[] = [];
    valuesAt(value, s.path.split('/'), values);
    entriesOf(s, values, spec.kind === 'key', out);
  }
  out.push(...(DERIVED.get(aspectName)?.(value) ?? []));
  return out;
}

/** Aspects whose values contribute anything: the store indexes only these. */
export const SEARCHABLE_ASPECTS: ReadonlySet<string> = new Set([
  ...Object.entries(DATAHUB_REGISTRY.aspects)
    .filter(([, a]) => (a.searchable?.length ?? 0) > 0 && a.kind !== 'timeseries')
    .map(([name]) => name),
  ...DERIVED.keys(),
]);
