import type { ParsedSearchQuery as ParsedQuery } from './ports/search-index.ts';
import type { SearchCriterion, SearchFilter, SearchQuery } from './ports/search.ts';

/**
 * SQL over the search index, the same shape on both engines: `search_fields` holds each exact value an aspect
 * contributes (field, value, folded value, number), the engine's full-text table holds each text field's words, and
 * `entities` is the universe. A parsed query becomes one SELECT of `(urn, score)`; filters become EXISTS clauses on
 * `search_fields`. What differs between engines (placeholders, the full-text match, LIKE) comes from the dialect.
 */
export interface SearchDialect {
  /** A placeholder for the value (numbered or named: the text may use values in any order). */
  readonly param: (params: unknown[], value: unknown) => string;
  /** `SELECT urn, max(boost) AS score` of the rows whose words match (a phrase; the last word a prefix if asked). */
  readonly wordsMatch: (params: unknown[], words: readonly string[], prefix: boolean, field: string | undefined) => string;
  readonly like: 'LIKE' | 'ILIKE';
  /** `IN (...)` over a list of values, as one parameter. */
  readonly in: (params: unknown[], values: readonly unknown[]) => string;
  /** An ORDER BY key with missing values last. */
  readonly nullsLast: (expr: string, dir: 'ASC' | 'DESC') => string;
  /**
   * `expr` is not among the urns a subquery selects: the engine's anti-join (SQLite hashes `NOT IN` once;
   * PostgreSQL plans `NOT IN` as a subplan per row once the set outgrows work_mem, and `NOT EXISTS` as an anti-join).
   */
  readonly notIn: (expr: string, subquery: string) => string;
  /** The folded name starts with `prefix`, in a form the partial index on names serves (a range, or LIKE under text_pattern_ops). */
  readonly namePrefix: (params: unknown[], prefix: string) => string;
  /** An ORDER BY key on a folded name in the order of the partial index on names (a byte order on both engines). */
  readonly nameOrder: (expr: string) => string;
  /** `search_fields` as `n`, read through the partial index on names (SQLite must be told; PostgreSQL picks it). */
  readonly namesFrom: string;
  /**
   * `SELECT field, value, n` over the matches `m`: how many hold each value of the default facet fields asked
   * (storage/search-facet-fields.ts), from the engine's table of those values alone.
   */
  readonly facetCounts: (params: unknown[], fields: readonly string[]) => string;
  /**
   * The entities of `types` a filter alone selects (soft-deleted ones left out unless `includeRemoved`) from the
   * engine's search keys (storage/search-keys.ts), or undefined when the keys cannot answer this filter: `from` names
   * their rows `e` (with `urn` and `entity_type`), `where` selects them, `doc` is `e`'s document number (or NULL), and
   * `count` is a `SELECT count(*)` of them from the keys alone.
   */
  readonly keyFilter: (
    params: unknown[],
    filter: SearchFilter,
    includeRemoved: boolean,
    types: readonly string[],
    rules: SearchRules,
  ) => KeyedMatches | undefined;
  /**
   * Where the engine numbers its documents (SQLite's search_docs: each entity the index holds, numbered with its
   * first value): a words query's matches by number, read with their entity rows from `table` (`id`, `urn`,
   * `entity_type`) by that number, one integer seek per match instead of a seek by urn; every match carries its
   * number as `m.doc` for facetCounts. Absent where everything is keyed by urn.
   */
  readonly documents?: {
    /** The documents whose words match, as `SELECT doc, score`. */
    readonly wordDocs: (params: unknown[], words: readonly string[], prefix: boolean, field: string | undefined) => string;
    readonly table: string;
    /** The number of the document of the entity `urn` (an expression), NULL if it has none. */
    readonly ofUrn: (urn: string) => string;
    /** The document row `e` is not of a soft-deleted entity: from the row itself. */
    readonly live: string;
    /** The ranking tier (matchedSql) of the document row `e` for the folded query text `name`: from the row itself. */
    readonly tier: (params: unknown[], name: string) => string;
    /**
     * The document row `e`'s list of its facet values, carried as `m.facets` (NULL where the matches are not read
     * from document rows) for facetCounts.
     */
    readonly facets: string;
  };
  /**
   * Where the engine keeps a document row per entity holding its words (PostgreSQL's search_docs): a words query's
   * matches read as those rows `e` (`urn`, `entity_type`, `removed`, `names`, `facets`, `score`), found by the
   * engine's full-text index with no other row of the match read. Absent where words are read from per-field rows
   * alone, and not used for `/q field:` words (their field's rows).
   */
  readonly wordRows?: {
    /** The rows holding every one of `terms` (one, or a plain query's AND of words), `score` the sum of each term's best boost. */
    readonly sql: (params: unknown[], terms: ReadonlyArray<{ words: readonly string[]; prefix: boolean }>, boosts: readonly number[]) => string;
    /** The row `e` is not of a soft-deleted entity. */
    readonly live: string;
    /** The ranking tier (matchedSql) of the row `e` for the folded query text `name`. */
    readonly tier: (params: unknown[], name: string) => string;
  };
  /**
   * The registry's name of the type of the entity `urn` (an expression) when it is one of `types` (else NULL), from
   * the urn itself (`urn:li:<type>:...`; the type's case as the writes accepted it). Where set, a query's matches
   * (which come from the index's rows alone, deleted in the transaction that deletes their entity) are not looked up
   * among the entities; absent where the engine reads its document rows instead.
   */
  readonly typeOfUrn?: (params: unknown[], urn: string, types: readonly string[]) => string;
  /**
   * The fields whose entities the engine finds through their search keys and a table of their distinct values, not
   * an index entry per value (VALUE_KEY_FIELDS, storage/search-keys.ts); absent where every value is indexed.
   */
  readonly valueKeys?: {
    readonly fields: ReadonlySet<string>;
    /** The term a read of `search_fields` (as `alias`) by value carries, so that the engine reads its index on values. */
    readonly indexed: (alias: string) => string;
    /** `SELECT urn` of the entities holding a value of `field` that `condition` selects (over `value`, `folded` and `num`; undefined: any value). */
    readonly holding: (params: unknown[], field: string, condition: string | undefined) => string;
  };
}

/** A filter's matches as the engine's search keys give them (SearchDialect.keyFilter). */
export interface KeyedMatches {
  readonly from: string;
  readonly where: string;
  readonly doc: string;
  readonly count: string;
  /** `e`'s list of facet values where its row holds one (SQLite's document row: `documents.facets`). */
  readonly facets?: string;
}

const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A `*` pattern as LIKE's, everything else literal. */
export const likePattern = (pattern: string): string => pattern.split('*').map(likeEscape).join('%');

/** `LIKE 'prefix%'` with the prefix taken literally. */
export const prefixPattern = (prefix: string): string => `${likeEscape(prefix)}%`;

/** The two fields a name lives in. */
export const NAME_FIELD_LIST: readonly string[] = ['_entityName', '_entityKeyName'];

/** NAME_FIELD_LIST as a condition; the partial index on names (migrations) names them in this very form. */
export const NAME_FIELDS = `field IN (${NAME_FIELD_LIST.map((f) => `'${f}'`).join(', ')})`;

/** An unquoted word matches as a prefix; a quoted phrase only when it ends with `*`. */
const wordsPrefix = (q: Extract<ParsedQuery, { kind: 'words' }>): boolean => q.prefix || !q.quoted;

/**
 * The matches of a parsed query as `SELECT urn, score`: full-text words and phrases from the text table, exact-value
 * forms (`_exists_`, wildcards) from `search_fields`, AND as a join (scores add), OR as a union (the best score),
 * NOT as an anti-join. `universe` writes the SELECT of every candidate, for a query that only excludes. Placeholders
 * are numbered or named by the dialect, so the order values are added in need not be the order of the text.
 */
export function matchSql(q: ParsedQuery, d: SearchDialect, params: unknown[], universe: () => string): string {
  switch (q.kind) {
    case 'all':
      return `SELECT urn, 0 AS score FROM (${universe()}) u`;
    case 'words':
      return d.wordsMatch(params, q.words, wordsPrefix(q), q.field);
    case 'exists':
      return `SELECT DISTINCT urn, 0 AS score FROM (${fieldRows(q.field, undefined, d, params)}) v`;
    case 'wildcard': {
      const pattern = `folded ${d.like} ${d.param(params, likePattern(q.pattern))} ESCAPE '\\'`;
      return `SELECT DISTINCT urn, 0 AS score FROM (${fieldRows(q.field, pattern, d, params)}) v`;
    }
    case 'or': {
      const parts = q.children.map((c) => matchSql(c, d, params, universe));
      return `SELECT urn, max(score) AS score FROM (${parts.join(' UNION ALL ')}) o GROUP BY urn`;
    }
    case 'not':
      return `SELECT u.urn AS urn, 0 AS score FROM (${universe()}) u WHERE ${d.notIn('u.urn', matchSql(q.child, d, params, universe))}`;
    case 'and': {
      const positive = q.children.filter((c) => c.kind !== 'not');
      const negative = q.children.filter((c): c is Extract<ParsedQuery, { kind: 'not' }> => c.kind === 'not');
      const base = positive.length > 0 ? positive : [{ kind: 'all' } as const];
      const joined = base.map((c, i) => `(${matchSql(c, d, params, universe)}) a${i}`);
      let sql = `SELECT a0.urn, ${base.map((_, i) => `a${i}.score`).join(' + ')} AS score FROM ${joined[0]}`;
      for (let i = 1; i < joined.length; i++) sql += ` JOIN ${joined[i]} ON a${i}.urn = a0.urn`;
      const exclusions = negative.map((n) => d.notIn('a0.urn', matchSql(n.child, d, params, universe)));
      return exclusions.length > 0 ? `${sql} WHERE ${exclusions.join(' AND ')}` : sql;
    }
  }
}

/** What the builder needs from the catalog, beside the dialect: the registry's entity names and DataHub's folding. */
export interface SearchRules {
  /** The registry's name of an entity type as a filter value names it (`DATASET`, `dataset`, `DATA_JOB`); throws for an unknown one. */
  readonly entityType: (value: string) => string;
  /** Case and accents folded, as the index folds values. */
  readonly fold: (text: string) => string;
  /** `platform.keyword` and `platform` are one field. */
  readonly baseField: (field: string) => string;
  /** Every boost a field queried by default carries (the registry's), highest first. */
  readonly boosts: readonly number[];
}

const ENTITY_TYPE_FIELDS = new Set(['_entityType', 'entityType', '_index']);
const numeric = (x: string | undefined): boolean => x !== undefined && x.trim() !== '' && Number.isFinite(Number(x));
const COMPARISONS: Readonly<Record<string, string>> = {
  GREATER_THAN: '>',
  GREATER_THAN_OR_EQUAL_TO: '>=',
  LESS_THAN: '<',
  LESS_THAN_OR_EQUAL_TO: '<=',
};

/**
 * The urns holding a value of `field` that `condition` selects (over `value`, `folded` and `num`; undefined: any
 * value), as a subquery: `search_fields` through its index on values, or the engine's keys for a field it finds that
 * way (SearchDialect.valueKeys).
 */
function fieldRows(field: string, condition: string | undefined, d: SearchDialect, params: unknown[]): string {
  if (d.valueKeys?.fields.has(field)) return d.valueKeys.holding(params, field, condition);
  return `SELECT urn FROM search_fields WHERE field = ${d.param(params, field)}${indexedTerm(field, d, '')}${condition === undefined ? '' : ` AND ${condition}`}`;
}

/**
 * The entity `urn` (an expression) holds a value of `field` that `condition` selects: one seek, of the index on values
 * or, for a field the engine finds through its keys, of the table's own order by urn.
 */
function holdsValue(urn: string, field: string, condition: string | undefined, d: SearchDialect, params: unknown[]): string {
  const where = [`x.urn = ${urn}`, `x.field = ${d.param(params, field)}${indexedTerm(field, d, 'x.')}`];
  if (condition !== undefined) where.push(condition);
  return `EXISTS (SELECT 1 FROM search_fields x WHERE ${where.join(' AND ')})`;
}

/** The term a read of `search_fields` by `field`'s values states so that the engine reads its index on values (none where all are there). */
const indexedTerm = (field: string, d: SearchDialect, alias: string): string =>
  d.valueKeys === undefined || d.valueKeys.fields.has(field) ? '' : ` AND ${d.valueKeys.indexed(alias)}`;

/** The urns holding a value of `field` that meets the criterion (fieldRows). */
function valuesSql(field: string, c: SearchCriterion, d: SearchDialect, params: unknown[], rules: SearchRules): string {
  return fieldRows(field, criterionCondition(c, d, params, rules), d, params);
}

/** What a criterion asks of one value, over `value`, `folded` and `num` (undefined: any value). */
function criterionCondition(c: SearchCriterion, d: SearchDialect, params: unknown[], rules: SearchRules): string | undefined {
  const condition = c.condition ?? 'EQUAL';
  const first = c.values[0] ?? '';
  switch (condition) {
    case 'EXISTS':
      return undefined;
    case 'EQUAL':
    case 'IN':
      // Exact, through the folded index: the folded value narrows, the value decides.
      return `folded ${d.in(params, c.values.map(rules.fold))} AND value ${d.in(params, c.values)}`;
    case 'IEQUAL':
      return `folded ${d.in(params, c.values.map(rules.fold))}`;
    case 'CONTAIN':
      return `folded ${d.like} ${d.param(params, `%${likeEscape(rules.fold(first))}%`)} ESCAPE '\\'`;
    case 'START_WITH':
      return `folded ${d.like} ${d.param(params, `${likeEscape(rules.fold(first))}%`)} ESCAPE '\\'`;
    case 'END_WITH':
      return `folded ${d.like} ${d.param(params, `%${likeEscape(rules.fold(first))}`)} ESCAPE '\\'`;
    default: {
      const op = COMPARISONS[condition]!;
      return numeric(first) ? `num ${op} ${d.param(params, Number(first))}` : `value ${op} ${d.param(params, first)}`;
    }
  }
}

/** The entity `alias` holds `field` with the folded value `folded`: one seek (holdsValue). */
const holds = (alias: string, field: string, folded: string, d: SearchDialect, params: unknown[]): string =>
  holdsValue(`${alias}.urn`, field, `x.folded = '${folded}'`, d, params);

/** The entity `urn` (an expression) is past its decommission time: its own rows by (urn, field) (`num + 0`), not every decommission time before now through (field, num). */
const overdueSql = (urn: string, d: SearchDialect, params: unknown[], now: number): string =>
  `EXISTS (SELECT 1 FROM search_fields o WHERE o.urn = ${urn} AND o.field = 'decommissionTime' AND o.num + 0 <= ${d.param(params, now)})`;

/** DataHub's deprecation lifecycle (catalog/deprecation-lifecycle.ts) over the indexed flag and decommission time, for the entity `alias`. */
export function deprecationStateSql(state: string, d: SearchDialect, params: unknown[], now: number, alias = 'e'): string {
  const deprecated = holds(alias, 'deprecated', 'true', d, params);
  if (state === 'ACTIVE') return `NOT ${deprecated}`;
  const overdue = overdueSql(`${alias}.urn`, d, params, now);
  if (state === 'OVERDUE') return `(${deprecated} AND ${overdue})`;
  return `(${deprecated} AND NOT ${overdue})`;
}

/**
 * The deprecation lifecycle state (deprecationStateSql: ACTIVE, DEPRECATED or OVERDUE) of each match of `m`, as
 * `SELECT entity_type, state`: the deprecated entities read once (few, in a catalog) and joined to the matches, where a seek per
 * match found most of them not deprecated (the facet of 18,000 matches on SQLite: about 45 ms).
 */
export function deprecationStatesSql(
  d: SearchDialect,
  params: unknown[],
  now: number,
  labels: Readonly<Record<'ACTIVE' | 'DEPRECATED' | 'OVERDUE', string>>,
): string {
  return `SELECT m.entity_type AS entity_type, CASE WHEN x.urn IS NULL THEN ${labels.ACTIVE} WHEN ${overdueSql('x.urn', d, params, now)} THEN ${labels.OVERDUE} ELSE ${labels.DEPRECATED} END AS state
    FROM m LEFT JOIN (SELECT DISTINCT urn FROM (${fieldRows('deprecated', `folded = 'true'`, d, params)}) v) x ON x.urn = m.urn`;
}

/** `e.urn` among a subquery's urns, or (negated) not: a semi-join either engine may drive from the subquery, or an anti-join. */
const urnIn = (negated: boolean, subquery: string, d: SearchDialect): string => (negated ? d.notIn('e.urn', subquery) : `e.urn IN (${subquery})`);

/** A flag that is false is a flag not set: entities without the aspect hold no row for it at all. */
function isFalseFlag(c: SearchCriterion): boolean {
  const condition = c.condition ?? 'EQUAL';
  return (condition === 'EQUAL' || condition === 'IN') && c.values.length > 0 && c.values.every((v) => v === 'false');
}

/** A criterion that holds where the index holds a matching value (not negated, not a false flag, not a type or urn). */
function isPositive(c: SearchCriterion, rules: SearchRules): boolean {
  const field = rules.baseField(c.field);
  if (c.negated === true || ENTITY_TYPE_FIELDS.has(field) || field === 'deprecationState') return false;
  if (field === 'urn' && (c.condition ?? 'EQUAL') === 'EQUAL') return false;
  return !isFalseFlag(c);
}

/**
 * One criterion as a condition on the entity row `e`: a positive one as a seek of `(field, folded, urn)` per entity
 * something else found (`EXISTS`), not a read of every entity holding the value.
 */
function criterionSql(c: SearchCriterion, d: SearchDialect, params: unknown[], rules: SearchRules, now: number): string {
  const field = rules.baseField(c.field);
  if (isPositive(c, rules)) return holdsValue('e.urn', field, criterionCondition(c, d, params, rules), d, params);
  const negated = c.negated === true;
  const not = negated ? 'NOT ' : '';
  if (ENTITY_TYPE_FIELDS.has(field)) return `${not}e.entity_type ${d.in(params, c.values.map(rules.entityType))}`;
  if (field === 'urn' && (c.condition ?? 'EQUAL') === 'EQUAL') return `${not}e.urn ${d.in(params, c.values)}`;
  if (field === 'deprecationState') return `${not}(${c.values.map((v) => deprecationStateSql(v, d, params, now)).join(' OR ')})`;
  if (isFalseFlag(c)) {
    return urnIn(!negated, fieldRows(field, `folded = 'true'`, d, params), d);
  }
  return urnIn(negated, valuesSql(field, c, d, params, rules), d);
}

/**
 * One AND group. `drive`: nothing else finds the entities (a match-all query), so the group's first positive
 * criterion is read to find them, its other positive criteria checked on those urns by a seek each, and only the
 * urns that pass looked up among the entities: a platform and a tag at 100,000 entities read the platform's 18,000
 * values, seek the tag for each and look up 4,000 entities (16 ms), where the tag's list was read and hashed and every
 * platform entity looked up (24 ms).
 */
function groupSql(group: readonly SearchCriterion[], d: SearchDialect, params: unknown[], rules: SearchRules, now: number, drive: boolean): string {
  if (group.length === 0) return '1 = 1';
  const driver = drive ? group.findIndex((c) => isPositive(c, rules)) : -1;
  if (driver < 0) return group.map((c) => criterionSql(c, d, params, rules, now)).join(' AND ');
  const found = valuesSql(rules.baseField(group[driver]!.field), group[driver]!, d, params, rules);
  const checks: string[] = [];
  const onEntity: string[] = [];
  group.forEach((c, i) => {
    if (i === driver) return;
    if (isPositive(c, rules)) checks.push(holdsValue('g.urn', rules.baseField(c.field), criterionCondition(c, d, params, rules), d, params));
    else onEntity.push(criterionSql(c, d, params, rules, now));
  });
  const urns = `SELECT g.urn FROM (${found}) g${checks.length > 0 ? ` WHERE ${checks.join(' AND ')}` : ''}`;
  return [`e.urn IN (${urns})`, ...onEntity].join(' AND ');
}

/** DataHub's orFilters: any group whose every criterion holds (`drive`: see groupSql). */
export function filterSql(
  filter: SearchFilter,
  d: SearchDialect,
  params: unknown[],
  rules: SearchRules,
  now: number,
  drive: boolean,
): string | undefined {
  if (filter.length === 0) return undefined;
  const groups = filter.map((group) => groupSql(group, d, params, rules, now, drive));
  return groups.length === 1 ? groups[0] : `(${groups.map((g) => `(${g})`).join(' OR ')})`;
}

/** Soft-deleted entities are among the matches: asked for, or the filter names the flag. */
const includesRemoved = (q: SearchQuery, rules: SearchRules): boolean =>
  q.includeSoftDeleted || q.filter.some((g) => g.some((c) => rules.baseField(c.field) === 'removed'));

/** The conditions on the entity row `e` every search applies: the asked types, soft deletion, the filter. */
function entityConditions(
  q: SearchQuery,
  types: readonly string[],
  d: SearchDialect,
  params: unknown[],
  rules: SearchRules,
  now: number,
  filterDrives: boolean,
  live?: string,
): string[] {
  const where = [`e.entity_type ${d.in(params, types)}`];
  if (!includesRemoved(q, rules)) where.push(live ?? `NOT ${holds('e', 'removed', 'true', d, params)}`);
  const filter = filterSql(q.filter, d, params, rules, now, filterDrives);
  if (filter) where.push(filter);
  return where;
}

/**
 * The number of a filter's matches as a `SELECT count(*) AS n` of the engine's search keys alone (SearchDialect.keyFilter),
 * or undefined when the search is not a filter the keys answer.
 */
export function keyedCountSql(
  q: SearchQuery & { readonly parsed?: ParsedQuery },
  d: SearchDialect,
  params: unknown[],
  rules: SearchRules,
): string | undefined {
  if (q.parsed !== undefined && q.parsed.kind !== 'all') return undefined;
  return d.keyFilter(params, q.filter, includesRemoved(q, rules), q.entityTypes.map(rules.entityType), rules)?.count;
}

/**
 * One step of a walk through a filter's matches in urn order without reading every match, or undefined when the
 * search is not of that shape: a filter alone (no words, no sort), one entity type, one AND group with a positive
 * equality on one value of a field the index on values holds. `driver` selects that value's next `limit` entities
 * after `after` in urn order (from the index on (field, folded, urn)); `matches` (over the driver's rows as `g`) keeps
 * those the whole search matches, each checked as matchedSql would (a seek per criterion). Every match holds the
 * value, so walking the value's entities in order finds the matches in order.
 */
export function walkSql(
  q: SearchQuery & { readonly parsed?: ParsedQuery },
  d: SearchDialect,
  params: unknown[],
  rules: SearchRules,
  now: number,
  after: string,
  limit: number,
): { readonly driver: string; readonly matches: string } | undefined {
  if ((q.parsed !== undefined && q.parsed.kind !== 'all') || q.sort.length > 0 || q.entityTypes.length !== 1 || q.filter.length !== 1)
    return undefined;
  const driver = q.filter[0]!.find((c) => {
    const condition = c.condition ?? 'EQUAL';
    return (
      isPositive(c, rules) &&
      (condition === 'EQUAL' || condition === 'IN') &&
      c.values.length === 1 &&
      !d.valueKeys?.fields.has(rules.baseField(c.field))
    );
  });
  if (driver === undefined) return undefined;
  const field = rules.baseField(driver.field);
  const value = driver.values[0]!;
  const types = q.entityTypes.map(rules.entityType);
  // One folded value and one value, not criterionCondition's lists: an equality on the index's second column keeps
  // the read in its urn order, where a list may be read value by value and sorted.
  return {
    driver: `SELECT DISTINCT urn FROM search_fields WHERE field = ${d.param(params, field)} AND folded = ${d.param(params, rules.fold(value))}
      AND value = ${d.param(params, value)}${indexedTerm(field, d, '')} AND urn > ${d.param(params, after)} ORDER BY urn LIMIT ${d.param(params, limit)}`,
    matches: `SELECT e.urn AS urn, e.entity_type AS entity_type FROM g CROSS JOIN entities e
      WHERE e.urn = g.urn AND ${entityConditions(q, types, d, params, rules, now, false).join(' AND ')}`,
  };
}

/**
 * The entities among the query's types and filters (its text ignored) whose name or key name, folded, starts with
 * `prefix`, as `(urn, entity_type, folded)` rows in the order of that name, then urn, at most `limit` rows (an entity
 * whose two names both start so is two rows). The order is the partial index on names' own, so the engine reads that
 * range in order and stops after `limit` rows that pass: what autocomplete needs from a catalog of any size.
 */
export function namesSql(
  q: SearchQuery,
  prefix: string,
  limit: number,
  d: SearchDialect,
  params: unknown[],
  rules: SearchRules,
  now: number,
): string {
  const types = q.entityTypes.map(rules.entityType);
  const range = d.namePrefix(params, rules.fold(prefix));
  return `SELECT n.urn AS urn, e.entity_type AS entity_type, n.folded AS folded FROM ${d.namesFrom} CROSS JOIN entities e
    WHERE ${NAME_FIELDS} AND ${range} AND e.urn = n.urn AND ${entityConditions(q, types, d, params, rules, now, false).join(' AND ')}
    ORDER BY ${d.nameOrder('n.folded')}, n.urn LIMIT ${d.param(params, limit)}`;
}

/**
 * Every match of a search as `(urn, doc, entity_type, score, tier, type_order, facets)`: the query's matches among the
 * asked types, soft-deleted ones left out unless asked for, the filter applied. `facets` is the match's list of facet
 * values where `facetLists` asks for it and the matches are read from rows that hold one (SQLite's document rows,
 * for facetCounts), else NULL. `tier` ranks an exact name match (2) and a
 * name prefix (1) over the rest: from the document rows where the engine numbers them (SQLite), else from one read of
 * the names with that prefix (the partial index on names); `type_order`
 * is the type's place in the request. `count`, when set, is their number as the engine's search keys give it alone
 * (a filter's matches, counted without a row of each entity).
 */
export function matchedSql(
  q: SearchQuery & { readonly parsed?: ParsedQuery },
  d: SearchDialect,
  params: unknown[],
  rules: SearchRules,
  now: number,
  facetLists = false,
): { readonly sql: string; readonly count?: string } {
  const types = q.entityTypes.map(rules.entityType);
  const universe = () => `SELECT urn FROM entities WHERE entity_type ${d.in(params, types)}`;
  const parsed = q.parsed ?? { kind: 'all' as const };
  // Match-all reads the entities themselves; anything else looks its matches up among them, or, where the dialect
  // reads the type from the urn (PostgreSQL), takes them as they are: the lookup was a hash join over a scan of every
  // dataset for a common word (180,000 of a million entities: 946 -> 600 ms for the matches alone) and a seek per
  // match for a rarer one (10,000: 45 -> 20 ms). CROSS JOIN keeps the matches the outer loop on SQLite, which knows no
  // size for them and would otherwise scan every entity of the types to probe them (a rare word read as many rows as
  // a common one).
  let from = 'entities e';
  let doc = d.documents?.ofUrn('e.urn') ?? 'NULL';
  const where: string[] = [];
  const keyed = parsed.kind === 'all' ? d.keyFilter(params, q.filter, includesRemoved(q, rules), types, rules) : undefined;
  if (keyed !== undefined) {
    // The filter, the types and soft deletion, answered by the engine's search keys.
    from = keyed.from;
    doc = keyed.doc;
    where.push(keyed.where);
  }
  // A word's matches on an engine that numbers its documents are those rows: the soft-deletion flag and the names
  // are read from them, not sought per match.
  const documents = keyed === undefined && parsed.kind === 'words' ? d.documents : undefined;
  // A words query (one term, or an AND of terms, none for a field) on an engine whose document rows hold the words:
  // those rows are the matches.
  const terms = keyed === undefined && d.wordRows !== undefined ? plainTerms(parsed) : undefined;
  const rows = terms !== undefined ? d.wordRows : undefined;
  if (rows !== undefined && terms !== undefined) {
    from = `(${rows.sql(
      params,
      terms.map((t) => ({ words: t.words, prefix: wordsPrefix(t) })),
      rules.boosts,
    )}) e`;
    doc = 'NULL';
  } else if (documents !== undefined && parsed.kind === 'words') {
    from = `(${documents.wordDocs(params, parsed.words, wordsPrefix(parsed), parsed.field)}) h CROSS JOIN ${documents.table} e`;
    doc = 'e.id';
    where.push('e.id = h.doc');
  } else if (keyed === undefined && parsed.kind !== 'all') {
    const matches = `(${matchSql(parsed, d, params, universe)}) h`;
    if (d.typeOfUrn !== undefined) {
      from = `${matches} CROSS JOIN LATERAL (SELECT h.urn AS urn, ${d.typeOfUrn(params, 'h.urn', types)} AS entity_type) e`;
    } else {
      from = `${matches} CROSS JOIN entities e`;
      where.push('e.urn = h.urn');
    }
  }
  const score = parsed.kind === 'all' ? '0' : rows !== undefined ? 'e.score' : 'h.score';
  if (keyed === undefined) where.push(...entityConditions(q, types, d, params, rules, now, parsed.kind === 'all', documents?.live ?? rows?.live));
  // The matches' lists of facet values, where asked and read from rows that hold them.
  const facets = (facetLists && (documents?.facets ?? keyed?.facets ?? (rows !== undefined ? 'e.facets' : undefined))) || 'NULL';
  let tier = '0';
  let names = '';
  if (parsed.kind === 'words' && parsed.field === undefined) {
    const name = rules.fold(parsed.text);
    if (rows !== undefined) tier = rows.tier(params, name);
    else if (documents !== undefined) tier = documents.tier(params, name);
    else {
      tier = 'COALESCE(t.tier, 0)';
      names = ` LEFT JOIN (SELECT urn, max(CASE WHEN folded = ${d.param(params, name)} THEN 2 ELSE 1 END) AS tier FROM search_fields
      WHERE ${NAME_FIELDS} AND ${d.namePrefix(params, name)} GROUP BY urn) t ON t.urn = e.urn`;
    }
  }
  const typeOrder = types.length <= 1 ? '0' : `CASE e.entity_type ${types.map((t, i) => `WHEN ${d.param(params, t)} THEN ${i}`).join(' ')} END`;
  const sql = `SELECT e.urn AS urn, ${doc} AS doc, e.entity_type AS entity_type, ${score} AS score, ${tier} AS tier, ${typeOrder} AS type_order, ${facets} AS facets
    FROM ${from}${names} WHERE ${where.join(' AND ')}`;
  return keyed === undefined ? { sql } : { sql, count: keyed.count };
}

/**
 * The most terms a plain query reads from document rows: each term's reads ask for every other term, so their SQL
 * grows with the square of the terms; a longer query reads the full-text rows, whose SQL grows with the terms.
 */
export const MAX_DOC_TERMS = 8;

/**
 * A plain query's terms: its words, or the words of each child of an AND of them (at most MAX_DOC_TERMS); undefined
 * when any names a field or there are more.
 */
function plainTerms(q: ParsedQuery): Array<Extract<ParsedQuery, { kind: 'words' }>> | undefined {
  const children = q.kind === 'and' ? q.children : [q];
  const terms = children.filter((c): c is Extract<ParsedQuery, { kind: 'words' }> => c.kind === 'words' && c.field === undefined);
  return terms.length === children.length && terms.length > 0 && terms.length <= MAX_DOC_TERMS ? terms : undefined;
}

/** The order of a page: the sort criteria when given (missing values last), else the ranking; then type and urn. */
export function orderSql(q: SearchQuery & { readonly parsed?: ParsedQuery }, d: SearchDialect, params: unknown[], rules: SearchRules): string {
  const keys: string[] = [];
  for (const s of q.sort) {
    const dir = s.order === 'DESCENDING' ? 'DESC' : 'ASC';
    // The urn is the entity's own, not an indexed value (DataHub sorts on it as a keyword).
    if (rules.baseField(s.field) === 'urn') {
      keys.push(`m.urn ${dir}`);
      continue;
    }
    const field = d.param(params, rules.baseField(s.field));
    const agg = s.order === 'DESCENDING' ? 'max' : 'min';
    keys.push(d.nullsLast(`(SELECT ${agg}(num) FROM search_fields s WHERE s.urn = m.urn AND s.field = ${field})`, dir));
    keys.push(d.nullsLast(`(SELECT ${agg}(value) FROM search_fields s WHERE s.urn = m.urn AND s.field = ${field})`, dir));
  }
  if (q.sort.length === 0 && q.parsed !== undefined && q.parsed.kind !== 'all') keys.push('m.tier DESC', 'm.score DESC');
  keys.push('m.type_order', 'm.urn');
  return keys.join(', ');
}
