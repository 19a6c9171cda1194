import { createHash } from 'node:crypto';
import type { SearchCriterion, SearchFilter } from './ports/search.ts';
import { FACET_FIELD_SET, FACET_FIELDS } from './search-facet-fields.ts';
import type { SearchDialect, SearchRules } from './search-sql.ts';

/**
 * The search keys (SQLite migrations 26 to 28, PostgreSQL 27 to 29): each entity's exact values of the default facet
 * fields (storage/search-facet-fields.ts), typed by its entity type (facetKey), its values of VALUE_KEY_FIELDS and
 * which of those fields it holds, whether it is soft-deleted, and its type, as a set of words each engine's own full-text machinery indexes: a row of the FTS5 table `search_keys` on
 * SQLite (rowid = the document's number, no positions kept), a tsvector under GIN on PostgreSQL. A filter on those
 * fields alone becomes one full-text expression, so the engine intersects the values' lists of entities itself, where
 * the SQL filter seeks `search_fields` once per candidate (a platform and a tag over 100,000 entities on SQLite: 40 ms
 * against 8), and counts its matches itself.
 */

/**
 * The fields a filter's expression over the keys may name on both engines: the facet fields and the soft-deletion
 * flag (SQLite's keyed filters also name VALUE_KEY_FIELDS: DOC_KEY_FIELDS).
 */
export const KEY_FIELDS: ReadonlySet<string> = new Set([...FACET_FIELD_SET, 'removed']);

/** The has-value flags every dataset carries (`true` or `false`). */
const HAS_VALUE_FLAGS = ['hasDescription', 'hasTags', 'hasOwners', 'hasGlossaryTerms'];

/**
 * The fields both engines find entities by through their keys alone (SQLite migration 27, PostgreSQL 29): fields with
 * many values per entity, or values most entities share, so that an index entry per value is a random b-tree write on
 * every ingest for little a filter cannot get from the keys: a dataset's 10 to 50 column paths and the has-value
 * flags. Their `search_fields` rows stay (facets, sorts, an entity's own values, a check of one candidate by urn), but
 * the index on (field, folded, urn), and PostgreSQL's trigram index, leave them out. A filter or `/q` on one reads the distinct values it selects from `search_key_values`
 * and their entities from the keys. The facet fields stay in that index too: a word search with a facet filter checks
 * each candidate there, in a range a few megabytes long, where a seek by urn lands anywhere in the whole table (at a
 * million entities the deprecation facet's check per match cost twice as much that way). Changing this list needs a
 * migration (the index's condition and every document's keys).
 */
export const VALUE_KEY_FIELDS: ReadonlySet<string> = new Set(['fieldPaths', ...HAS_VALUE_FLAGS]);

/** Field names as an SQL list (`'a', 'b'`): constants of this module, never a caller's text. */
export const sqlFieldList = (fields: Iterable<string>): string => [...fields].map((f) => `'${f}'`).join(', ');

/** VALUE_KEY_FIELDS as an SQL list. */
export const VALUE_FIELDS_SQL = sqlFieldList(VALUE_KEY_FIELDS);

/**
 * The term every read of `search_fields` (as `alias`, say `x.`) by value carries: the index on (field, folded, urn)
 * holds only the rows it selects, and SQLite reads a partial index only for a query that says its terms (PostgreSQL
 * proves it from them at once, whatever its parameters).
 */
export const valueIndexTerm = (alias: string): string => `${alias}field NOT IN (${VALUE_FIELDS_SQL})`;

/** The fields that give a document keys. */
export const DOC_KEY_FIELDS: ReadonlySet<string> = new Set([...KEY_FIELDS, ...VALUE_KEY_FIELDS]);

/** The fields whose `search_fields` rows a document's value keys come from (all but the soft-deletion flag). */
export const DOC_VALUE_ROWS: readonly string[] = [...DOC_KEY_FIELDS].filter((f) => f !== 'removed');

/** The `search_fields` rows that say an entity is soft-deleted: the rows REMOVED_KEY stands for. */
export const REMOVED_ROWS = `field = 'removed' AND folded = 'true'`;

/** REMOVED_ROWS over a row read into JavaScript. */
export const isRemovedRow = (row: { readonly field: string; readonly folded: string }): boolean => row.field === 'removed' && row.folded === 'true';

/** The key of a soft-deleted document. Value keys are `k` and hex digits: no value key is this word. */
export const REMOVED_KEY = 'rm';

/**
 * A value's key: `k` and 80 bits of SHA-256 of the field, U+0001 and the value, in hex (two of a million distinct values
 * share one with a chance of about 1 in 10^12). KEY_SQL computes the same in PostgreSQL.
 */
export function searchKey(field: string, value: string): string {
  const text = `${field}\u0001${value}`;
  let key = recentKeys.get(text);
  if (key === undefined) {
    key = `k${createHash('sha256').update(text).digest('hex').slice(0, 20)}`;
    if (recentKeys.size >= RECENT_KEYS) recentKeys.clear();
    recentKeys.set(text, key);
  }
  return key;
}

/**
 * Keys computed lately, by text: most values recur (a platform, a tag, a column name), and a hash costs more than a
 * lookup (a dataset's keys were 4% of an ingest's time). Emptied when full.
 */
const recentKeys = new Map<string, string>();
const RECENT_KEYS = 50_000;

/** searchKey in PostgreSQL's SQL, over two text expressions. */
export const searchKeySql = (field: string, value: string): string =>
  `'k' || left(encode(sha256(convert_to(${field} || chr(1) || ${value}, 'UTF8')), 'hex'), 20)`;

/** searchKey in PostgreSQL's SQL, over the columns `field` and `value`. */
export const KEY_SQL = searchKeySql('field', 'value');

/**
 * The key of a facet field's value for an entity of one type: the field, prefixed with the type and U+0003 (in no
 * field name), as searchKey's field. A facet value's key is its type's: a filter's keys select the asked types
 * themselves, so its count is the engine's own answer to one expression, with no list of every entity of a type in it
 * (a type's list was as long as the catalog, and doubled the count's time).
 */
export const facetKey = (entityType: string, field: string, value: string): string => searchKey(`${entityType}\u0003${field}`, value);

/** facetKey in PostgreSQL's SQL, over text expressions for the type, the field and the value. */
export const facetKeySql = (entityType: string, field: string, value: string): string => searchKeySql(`${entityType} || chr(3) || ${field}`, value);

/**
 * The key of a PostgreSQL keys row's source in SQL: a facet row's (`field` and `value`, for an entity of type
 * `entityType`), or REMOVED_KEY for a soft-deletion row (NULL field). Text expressions. Migration 28's, frozen with it
 * (the writes and migration 29 use docKeysAggSql).
 */
export const rowKeySql = (entityType: string, field: string, value: string): string =>
  `CASE WHEN ${field} IS NULL THEN '${REMOVED_KEY}' ELSE ${facetKeySql(entityType, field, value)} END`;

/**
 * A PostgreSQL keys row's sources as `(urn, field, value)`: the facet rows and, with a NULL field, the soft-deletion
 * rows of the entities `urns` selects (a condition on `urn`, or `true` for all). Migration 28's, frozen with it (the
 * writes and migration 29 use docKeySourcesSql).
 */
export const keySourcesSql = (urns: string): string => `SELECT urn, field, value FROM search_facets WHERE ${urns}
  UNION ALL
  SELECT urn, NULL, NULL FROM search_fields WHERE ${urns} AND ${REMOVED_ROWS}`;

/**
 * Migration 29's text is built from docKeySourcesSql, docKeysAggSql, VALUE_FIELDS_SQL and
 * valueIndexTerm, which the writes use too: a change to any of them changes what the writes put in the keys, so it
 * comes with a migration that writes every entity's keys again, and with 29's text frozen as it was first.
 *
 * A PostgreSQL keys row's sources since migration 29, as `(urn, kind, field, value)`: each facet row (`f`), each
 * soft-deletion row (`r`) and each value of VALUE_KEY_FIELDS (`v`) of the entities `urns` selects (a condition on
 * `urn`, or `true` for all). docKeysAggSql makes them keys, as keysOf does. The facet rows are read from `facets`:
 * `search_fields` (the same values, with each aspect's copy of one: the keys are distinct), or, in migration 29's
 * text, `search_facets`, which held them alone until migration 30.
 */
export const docKeySourcesSql = (
  urns: string,
  facets: 'search_fields' | 'search_facets' = 'search_fields',
): string => `SELECT urn, 'f' AS kind, field, value FROM ${facets} WHERE ${urns}${facets === 'search_fields' ? ` AND field IN (${sqlFieldList(FACET_FIELDS)})` : ''}
  UNION ALL
  SELECT urn, 'r', NULL, NULL FROM search_fields WHERE ${urns} AND ${REMOVED_ROWS}
  UNION ALL
  SELECT urn, 'v', field, value FROM search_fields WHERE ${urns} AND field IN (${VALUE_FIELDS_SQL})`;

/**
 * The most values of VALUE_KEY_FIELDS whose keys a PostgreSQL keys row holds. A tsvector stops at 1 MB (about 49,000
 * keys: a nested schema can have more paths), and a wide one is rewritten whole on every change of the entity's keys;
 * an entity with more holds OVERFLOW_KEY instead of its value keys, and a read of values through the keys checks
 * those few entities' rows (valueKeysOf's `ofValue` on PostgreSQL).
 */
export const MAX_VALUE_KEYS = 1000;

/** The key of an entity whose values of VALUE_KEY_FIELDS are too many to be keys (no value key is this word). */
export const OVERFLOW_KEY = 'ov';

/**
 * A PostgreSQL entity's keys as an array, aggregated over docKeySourcesSql's rows `x` (its LEFT JOIN's empty row
 * left out) for an entity of type `entityType`: every row's key and, from the value rows, each of their fields'
 * presence (presenceKey); past MAX_VALUE_KEYS values, OVERFLOW_KEY in place of the value keys. NULL when it has none.
 */
export const docKeysAggSql = (entityType: string): string => {
  const key = docKeySql(entityType, 'x.kind', 'x.field', 'x.value');
  const presence = `array_agg(DISTINCT ${searchKeySql(`chr(2) || x.field`, `''`)}) FILTER (WHERE x.kind = 'v')`;
  return `CASE WHEN count(DISTINCT x.field || chr(1) || x.value) FILTER (WHERE x.kind = 'v') > ${MAX_VALUE_KEYS}
      THEN array_append(array_agg(DISTINCT ${key}) FILTER (WHERE x.urn IS NOT NULL AND x.kind <> 'v') || ${presence}, '${OVERFLOW_KEY}')
      ELSE array_agg(DISTINCT ${key}) FILTER (WHERE x.urn IS NOT NULL) || ${presence} END`;
};

/** The key of one of docKeySourcesSql's rows (text expressions), for an entity of type `entityType`. */
const docKeySql = (entityType: string, kind: string, field: string, value: string): string =>
  `CASE ${kind} WHEN 'f' THEN ${facetKeySql(entityType, field, value)} WHEN 'r' THEN '${REMOVED_KEY}' ELSE ${searchKeySql(field, value)} END`;

/**
 * The key of an entity type, which every document with keys holds: a group of criteria with no facet value (a column
 * path, a flag) selects the asked types with it.
 */
export const typeKey = (entityType: string): string => searchKey('\u0003', entityType);

/** typeKey in PostgreSQL's SQL, over a text expression. */
export const typeKeySql = (entityType: string): string => searchKeySql('chr(3)', entityType);

/** How an engine's full-text expressions say AND, OR and AND NOT. */
export interface KeySyntax {
  readonly and: string;
  readonly or: string;
  readonly andNot: string;
}

export const FTS5_KEYS: KeySyntax = { and: ' AND ', or: ' OR ', andNot: ' NOT ' };
export const TSQUERY_KEYS: KeySyntax = { and: ' & ', or: ' | ', andNot: ' & !' };

/** The key of "holds some value of `field`" (U+0002 is in no field name, so no value key is this one). */
export const presenceKey = (field: string): string => searchKey(`\u0002${field}`, '');

/**
 * A document's keys: its facet values' (facetKey, its type's), its other key fields' values, the presence of each
 * VALUE_KEY_FIELDS field it holds, and, if it is soft-deleted, REMOVED_KEY; then its type's key. Empty if it has none
 * of the others.
 */
export function keysOf(values: ReadonlyArray<{ readonly field: string; readonly value: string }>, removed: boolean, entityType: string): string[] {
  const keys = new Set(values.map((v) => valueKey(entityType, v.field, v.value)));
  for (const v of values) if (VALUE_KEY_FIELDS.has(v.field)) keys.add(presenceKey(v.field));
  if (removed) keys.add(REMOVED_KEY);
  if (keys.size > 0) keys.add(typeKey(entityType));
  return [...keys];
}

/** A key field's value's key in a document of `entityType`: its type's for a facet field, REMOVED_KEY for the flag. */
const valueKey = (entityType: string, field: string, value: string): string =>
  FACET_FIELD_SET.has(field) ? facetKey(entityType, field, value) : field === 'removed' ? REMOVED_KEY : searchKey(field, value);

/** The flags (`true` or `false`) a key stands for: `false` is "holds no `true`". */
const FLAGS: ReadonlySet<string> = new Set(['removed', 'deprecated', ...HAS_VALUE_FLAGS]);

/** One criterion as `[positive, expression]` for entities of `entityType`, or undefined if the keys cannot answer it exactly. */
function criterionKeys(
  c: SearchCriterion,
  entityType: string,
  rules: SearchRules,
  syntax: KeySyntax,
  fields: ReadonlySet<string>,
): [boolean, string] | undefined {
  const field = rules.baseField(c.field);
  const condition = c.condition ?? 'EQUAL';
  if ((condition !== 'EQUAL' && condition !== 'IN') || c.values.length === 0) return undefined;
  const negated = c.negated === true;
  // A false flag is "holds no `true`", as the SQL filter reads it (storage/search-sql.ts): an entity may hold both
  // values (a dataset's hasTags from its tags and from its columns'). Any other field's `false` is the SQL's to read.
  if (c.values.every((v) => v === 'false')) {
    return FLAGS.has(field) && fields.has(field) ? [negated, valueKey(entityType, field, 'true')] : undefined;
  }
  if (field === 'removed') return c.values.every((v) => v === 'true') ? [!negated, REMOVED_KEY] : undefined;
  if (!fields.has(field)) return undefined;
  return [!negated, `(${c.values.map((v) => valueKey(entityType, field, v)).join(syntax.or)})`];
}

/**
 * One AND group for entities of `entityType`: its positive criteria AND-ed (with the type's key when none is a facet
 * value's, which would carry the type), each negative one NOT-ed; undefined if any criterion is not a key's or none
 * is positive.
 */
function groupKeys(
  group: readonly SearchCriterion[],
  entityType: string,
  rules: SearchRules,
  syntax: KeySyntax,
  fields: ReadonlySet<string>,
): string | undefined {
  const positive: string[] = [];
  const negative: string[] = [];
  let typed = false;
  for (const c of group) {
    const k = criterionKeys(c, entityType, rules, syntax, fields);
    if (k === undefined) return undefined;
    (k[0] ? positive : negative).push(k[1]);
    if (k[0] && FACET_FIELD_SET.has(rules.baseField(c.field))) typed = true;
  }
  if (positive.length === 0) return undefined;
  if (!typed) positive.push(typeKey(entityType));
  return negative.reduce((expr, n) => `(${expr}${syntax.andNot}${n})`, `(${positive.join(syntax.and)})`);
}

/** The most keys one filter's expression names (types times each group's values, and a type's key per group). */
const MAX_FILTER_KEYS = 256;

/**
 * DataHub's orFilters as one full-text expression over the keys: entities of one of `types` (the registry's names) in
 * any group whose every criterion holds, soft-deleted ones left out unless `includeRemoved`; or undefined when some
 * criterion is not an equality on one of the engine's key `fields` (the SQL filter answers those). Each group is
 * written once per type, with that type's keys.
 */
export function filterKeys(
  filter: SearchFilter,
  includeRemoved: boolean,
  types: readonly string[],
  rules: SearchRules,
  syntax: KeySyntax,
  fields: ReadonlySet<string>,
): string | undefined {
  if (filter.length === 0 || types.length === 0) return undefined;
  // Each group is written once per type: past a few hundred keys, parsing the expression costs more than the SQL
  // filter's seeks (FTS5 parses an OR of n keys in time growing with n squared).
  const keys = types.length * filter.reduce((n, g) => n + g.reduce((m, c) => m + Math.max(1, c.values.length), 1), 0);
  if (keys > MAX_FILTER_KEYS) return undefined;
  const branches: string[] = [];
  for (const t of types) {
    for (const g of filter) {
      const expr = groupKeys(g, t, rules, syntax, fields);
      if (expr === undefined) return undefined;
      branches.push(expr);
    }
  }
  const any = branches.length === 1 ? branches[0]! : `(${branches.join(syntax.or)})`;
  return includeRemoved ? any : `(${any}${syntax.andNot}${REMOVED_KEY})`;
}

/**
 * SearchDialect.valueKeys over an engine's keys: `holding` selects the entities holding a key (the placeholder of a
 * parameter), `ofValue` those holding the key of a value of search_key_values `v` (an SQL fragment over `v`'s
 * columns, so one lookup per value the condition selects: a CONTAIN may select thousands of values, and one OR of
 * them all costs FTS5 time in the square of their number to parse).
 */
export function valueKeysOf(
  param: (params: unknown[], value: unknown) => string,
  holding: (key: string) => string,
  ofValue: (field: string, condition: string) => string,
): NonNullable<SearchDialect['valueKeys']> {
  return {
    fields: VALUE_KEY_FIELDS,
    indexed: valueIndexTerm,
    holding: (params, field, condition) =>
      condition === undefined ? holding(param(params, presenceKey(field))) : ofValue(param(params, field), condition),
  };
}
