import { DATAHUB_REGISTRY, type RegistrySearchable } from '../registry/datahub-registry.ts';
import { findAspectSpec } from '../registry/index.ts';
import { foldText, indexedText } from './search-tokens.ts';
import type { Json } from '../../storage/store.ts';
import type { SearchEntry } from '../../storage/ports/search-index.ts';

export type { SearchEntry };

/** Field types whose values are words people search for; the others (numbers, times, booleans, paths) are exact. */
const TEXT_TYPES = new Set(['TEXT', 'TEXT_PARTIAL', 'WORD_GRAM', 'KEYWORD', 'URN', 'URN_PARTIAL', undefined]);
const NUMBER_TYPES = new Set(['COUNT', 'DATETIME', 'DOUBLE']);
/** Longest exact value kept for filters and facets: longer texts (descriptions) are searched by their words only. */
export const MAX_EXACT_VALUE = 512;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The values at a path's segments from `i`: `*` is every array element or map entry (a map entry indexes as
 * `key=value`, as DataHub's do).
 */
function valuesAt(value: unknown, segments: readonly string[], i: number, out: unknown[]): void {
  if (i === segments.length) {
    if (value !== undefined && value !== null) out.push(value);
    return;
  }
  const head = segments[i]!;
  if (head === '*') {
    if (Array.isArray(value)) for (const v of value) valuesAt(v, segments, i + 1, out);
    else if (isObject(value)) {
      const last = i + 1 === segments.length;
      for (const k in value) {
        const v = value[k];
        if (last && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) out.push(`${k}=${String(v)}`);
        else valuesAt(v, segments, i + 1, out);
      }
    } else valuesAt(value, segments, i + 1, out);
    return;
  }
  if (head.startsWith('$')) return; // map keys ($key): not indexed
  if (isObject(value)) valuesAt(value[head], segments, i + 1, out);
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** A mutable entry while it is built. */
type Building = { -readonly [K in keyof SearchEntry]: SearchEntry[K] };

const flag = (field: string, value: string, number?: number): SearchEntry => {
  const e: Building = { field, value, folded: value, text: false, byDefault: false, boost: 1, isName: false, autocomplete: false };
  if (number !== undefined) e.number = number;
  return e;
};

const exact = (v: string): string => (v.length > MAX_EXACT_VALUE ? v.slice(0, MAX_EXACT_VALUE) : v);

/** One annotation as every write of its aspect reads it: computed once per annotation, not per value. */
interface Compiled {
  readonly s: RegistrySearchable;
  readonly segments: readonly string[];
  readonly text: boolean;
  readonly numeric: boolean;
  readonly byDefault: boolean;
  readonly boost: number;
  readonly autocomplete: boolean;
  /** The entity's name (an `_entityName` alias), or a key's name (a key's WORD_GRAM): the field it is kept under too. */
  readonly nameField: string | undefined;
}

function compile(s: RegistrySearchable, isKey: boolean): Compiled {
  const text = TEXT_TYPES.has(s.type);
  const isName = (s.fieldNameAliases ?? []).includes('_entityName') || (isKey && s.type === 'WORD_GRAM');
  return {
    s,
    segments: s.path.split('/'),
    text,
    numeric: NUMBER_TYPES.has(s.type ?? ''),
    byDefault: text && s.queryByDefault !== false,
    boost: s.boostScore ?? 1,
    autocomplete: s.enableAutocomplete === true,
    // The entity's name, under the one field name ranking and `_entityName` filters read, whatever the type calls it; a
    // key's name (a dataset's `db.table`) under its own, shown only when no aspect names the entity.
    nameField: isName ? (isKey ? '_entityKeyName' : '_entityName') : undefined,
  };
}

const compiledByAspect = new Map<string, readonly Compiled[]>();

/** The aspect's annotations, compiled on first use (an aspect is a key for every entity type or none). */
function compiledOf(aspectName: string, isKey: boolean): readonly Compiled[] {
  const key = `${isKey ? 'k' : 'a'}:${aspectName}`;
  let found = compiledByAspect.get(key);
  if (found === undefined) {
    found = (DATAHUB_REGISTRY.aspects[aspectName]?.searchable ?? []).map((s) => compile(s, isKey));
    compiledByAspect.set(key, found);
  }
  return found;
}

function entriesOf(c: Compiled, values: readonly unknown[], out: SearchEntry[]): void {
  const { s } = c;
  const names: SearchEntry[] = [];
  for (const v of values) {
    const value = asText(v);
    const folded = exact(foldText(value));
    const e: Building = {
      field: s.name,
      value: exact(value),
      folded,
      text: c.text,
      byDefault: c.byDefault,
      boost: c.boost,
      isName: c.nameField !== undefined,
      autocomplete: c.autocomplete,
    };
    if (c.text) e.words = indexedText(value);
    if (c.numeric && typeof v === 'number') e.number = v;
    out.push(e);
    if (c.nameField !== undefined) names.push({ ...flag(c.nameField, e.value), folded });
  }
  out.push(...names);
  if (s.hasValuesFieldName) out.push(flag(s.hasValuesFieldName, String(values.length > 0)));
  if (s.numValuesFieldName) out.push(flag(s.numValuesFieldName, String(values.length), values.length));
}

/** The field prefix DataHub filters an entity's structured property values under. */
export const STRUCTURED_PROPERTY_FIELD_PREFIX = 'structuredProperties.';

/** The search field of one structured property's values: `structuredProperties.` and the property urn's id. */
export const structuredPropertyField = (propertyUrn: string): string =>
  `${STRUCTURED_PROPERTY_FIELD_PREFIX}${propertyUrn.split(':').slice(3).join(':')}`;

/**
 * `structuredProperties.<qualified name>` for each value assigned (a number also as a number, for ranges), as DataHub
 * indexes them. The name is the property urn's id, which is its qualified name whenever DataHub's clients create one.
 */
function structuredPropertyEntries(value: Json): SearchEntry[] {
  const assignments = Array.isArray(value.properties) ? (value.properties as unknown[]).filter(isObject) : [];
  return assignments.flatMap((a) => {
    if (typeof a.propertyUrn !== 'string' || !Array.isArray(a.values)) return [];
    const field = structuredPropertyField(a.propertyUrn);
    return (a.values as unknown[]).filter(isObject).flatMap((v) => {
      if (typeof v.string === 'string') return [{ ...flag(field, exact(v.string)), folded: exact(foldText(v.string)) }];
      if (typeof v.double === 'number') return [flag(field, String(v.double), v.double)];
      return [];
    });
  });
}

/**
 * Fields Almanac derives beside the annotated ones, each from one aspect: DataHub's UI and SDK filter on them.
 * (`_entityType` and `urn` belong to the entity, not an aspect: the index keeps them with the entity's row.)
 */

const DERIVED: ReadonlyMap<string, (value: Json) => SearchEntry[]> = new Map([
  ['structuredProperties', structuredPropertyEntries],
  ['upstreamLineage', (value: Json) => [flag('hasUpstreams', String(Array.isArray(value.upstreams) && value.upstreams.length > 0))]],
  // When a deprecation is overdue depends on the time of the search: the index keeps the time, the query compares.
  [
    'deprecation',
    (value: Json) =>
      typeof value.decommissionTime === 'number' ? [flag('decommissionTime', String(value.decommissionTime), value.decommissionTime)] : [],
  ],
]);

/** DataHub's urn analysis drops these words (its datahub_stop_words filter). */
const URN_STOP_WORDS = new Set(['urn', 'li']);

/**
 * The urn's words, as DataHub indexes its `urn` field (`urn.delimited`, the urn_component analyzer): an id inside a
 * urn (a process instance's run id) is found by a plain search for it. Words only: not a name, so it adds to no
 * ranking tier, and it weighs the least a match can.
 */
function urnEntry(urn: string): SearchEntry {
  const words = indexedText(urn)
    .split(' ')
    .filter((w) => w !== '' && !URN_STOP_WORDS.has(w))
    .join(' ');
  return { ...flag('urn', exact(urn)), folded: exact(foldText(urn)), words, text: true, byDefault: true };
}

/**
 * What one aspect value contributes to its entity's search document; nothing for an aspect without annotations. The
 * key aspect, which every entity has, also carries the urn's words.
 */
export function searchEntries(entityType: string, aspectName: string, value: Json, urn?: string): SearchEntry[] {
  const spec = findAspectSpec(entityType, aspectName);
  if (!spec || spec.kind === 'timeseries') return [];
  const out: SearchEntry[] = spec.kind === 'key' && urn !== undefined ? [urnEntry(urn)] : [];
  for (const c of compiledOf(aspectName, spec.kind === 'key')) {
    const values: unknown[] = [];
    valuesAt(value, c.segments, 0, values);
    entriesOf(c, values, out);
  }
  out.push(...(DERIVED.get(aspectName)?.(value) ?? []));
  return out;
}

/**
 * Every boost a field queried by default can carry: the registry's `boostScore` of its text fields queried by default,
 * and 1 (the default, and the urn's words and derived fields). PostgreSQL's document rows keep a word under its
 * field's boost (postgres/search-docs.ts), and a search asks for it under each of these.
 */
export const DEFAULT_QUERY_BOOSTS: readonly number[] = [
  ...new Set([
    1,
    ...Object.values(DATAHUB_REGISTRY.aspects).flatMap((a) =>
      (a.searchable ?? []).filter((s) => TEXT_TYPES.has(s.type) && s.queryByDefault !== false).map((s) => s.boostScore ?? 1),
    ),
  ]),
].sort((a, b) => b - a);

/** Aspects whose values contribute anything: the store indexes only these. */
export const SEARCHABLE_ASPECTS: ReadonlySet<string> = new Set([
  ...Object.entries(DATAHUB_REGISTRY.aspects)
    .filter(([, a]) => a.kind === 'key' || ((a.searchable?.length ?? 0) > 0 && a.kind !== 'timeseries'))
    .map(([name]) => name),
  ...DERIVED.keys(),
]);

/** Every field name the index may hold, for checking filters: annotated names, their has-values and count flags, and derived ones. */
export const SEARCH_FIELD_NAMES: ReadonlySet<string> = new Set([
  '_entityName',
  '_entityKeyName',
  'hasUpstreams',
  'decommissionTime',
  ...Object.values(DATAHUB_REGISTRY.aspects).flatMap((a) =>
    (a.searchable ?? []).flatMap((s) => [
      s.name,
      ...(s.hasValuesFieldName ? [s.hasValuesFieldName] : []),
      ...(s.numValuesFieldName ? [s.numValuesFieldName] : []),
    ]),
  ),
]);

/** Fields whose values are flags (`true` or `false`): DataHub's BOOLEAN fields, has-values flags and derived ones. */
export const BOOLEAN_SEARCH_FIELDS: ReadonlySet<string> = new Set([
  'hasUpstreams',
  ...Object.values(DATAHUB_REGISTRY.aspects).flatMap((a) =>
    (a.searchable ?? []).flatMap((s) => [...(s.type === 'BOOLEAN' ? [s.name] : []), ...(s.hasValuesFieldName ? [s.hasValuesFieldName] : [])]),
  ),
]);
