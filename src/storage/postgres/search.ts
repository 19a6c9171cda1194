import type pg from 'pg';
import type { PortImpl } from '../compose-store.ts';
import { IndexSearch } from '../index-search.ts';
import { filterKeys, KEY_FIELDS, OVERFLOW_KEY, searchKeySql, TSQUERY_KEYS, valueKeysOf } from '../search-keys.ts';
import { prefixPattern, type SearchDialect } from '../search-sql.ts';
import type { SearchDocuments, SearchIndexBuild, SearchPort } from '../store.ts';
import { facetCountsSql } from './facet-lists.ts';
import { docWordRowsSql, phraseQueryText } from './search-docs.ts';
import type { PostgresSearchIndex } from './search-index.ts';
import { docTierSql } from '../search-doc-names.ts';
import type { MatchesRunner } from './search-session.ts';
import { inTransaction } from './transaction.ts';

const typeOf = (value: unknown): string =>
  typeof value === 'number' ? (Number.isInteger(value) ? 'bigint' : 'float8') : typeof value === 'boolean' ? 'boolean' : 'text';

/** PostgreSQL's side of the search SQL: numbered, typed parameters, arrays for lists, the tsvector's @@ for words. */
const POSTGRES_SEARCH: SearchDialect = {
  // Typed by the value: a placeholder in a SELECT list or a CASE has no column to take its type from.
  param: (params, value) => {
    params.push(value);
    return `$${params.length}::${typeOf(value)}`;
  },
  wordsMatch: (params, words, prefix, field) => {
    params.push(phraseQueryText(words, prefix));
    const match = `$${params.length}::text`;
    let restrict = 'by_default';
    if (field !== undefined) {
      params.push(field);
      restrict = `field = $${params.length}::text`;
    }
    return `SELECT urn, max(boost) AS score FROM search_text WHERE tsv @@ to_tsquery('simple', ${match}) AND ${restrict} GROUP BY urn`;
  },
  // The urn's third part, in any case: the writes accept a urn whose type differs from the registry's name in case
  // alone (catalog.ts), and keep the registry's name. Lowered under "C": a type is ASCII, and lower() under a
  // database's own collation may not be JavaScript's (a Turkish one lowers the I of dataPlatformInstance to a dotless ı).
  typeOfUrn: (params, urn, types) =>
    types.length === 0
      ? 'CAST(NULL AS text)'
      : `CASE lower(split_part(${urn}, ':', 3) COLLATE "C") ${types.map((t) => `WHEN ${POSTGRES_SEARCH.param(params, t.toLowerCase())} THEN ${POSTGRES_SEARCH.param(params, t)}`).join(' ')} END`,
  like: 'LIKE',
  in: (params, values) => {
    params.push(values);
    return `= ANY($${params.length}::text[])`;
  },
  nullsLast: (expr, dir) => `${expr} ${dir} NULLS LAST`,
  notIn: (expr, subquery) => `NOT EXISTS (SELECT 1 FROM (${subquery}) x WHERE x.urn = ${expr})`,
  // Each match's list of its facet values (migration 30, postgres/facet-lists.ts).
  facetCounts: (params, fields) => {
    params.push(fields);
    return facetCountsSql(`$${params.length}::text[]`);
  },
  namesFrom: 'search_fields n',
  // The document rows (migration 31, postgres/search-docs.ts).
  wordRows: {
    sql: (params, terms, boosts) => docWordRowsSql(params, terms, boosts, POSTGRES_SEARCH.param),
    live: 'NOT e.removed',
    tier: (params, name) => docTierSql(params, name, POSTGRES_SEARCH.param, 'strpos'),
  },
  // The keys' tsvector under GIN (migration 27), read as the entity rows themselves.
  keyFilter: (params, filter, includeRemoved, types, rules) => {
    // The facet fields and the soft-deletion flag: an entity past MAX_VALUE_KEYS holds no keys for its column paths,
    // so a filter on those is not one tsquery (valueKeys below reads them).
    const keys = filterKeys(filter, includeRemoved, types, rules, TSQUERY_KEYS, KEY_FIELDS);
    if (keys === undefined) return undefined;
    params.push(keys);
    const match = `keys @@ $${params.length}::tsquery`;
    // The keys row carries the entity's urn and type (migrations 27, 28): no join to entities; the types are in the
    // tsquery, so the count reads GIN's answer and its rows, nothing else.
    return { from: 'search_keys e', where: `e.${match}`, doc: 'NULL', count: `SELECT count(*) AS n FROM search_keys WHERE ${match}` };
  },
  // A field path's or a flag's entities (migration 29): each distinct value the condition selects, from
  // search_key_values, then GIN's entities for that value's key; and the entities with too many values to have their
  // keys (OVERFLOW_KEY), each checked by its own rows.
  valueKeys: valueKeysOf(
    (params, value) => POSTGRES_SEARCH.param(params, value),
    (key) => `SELECT urn FROM search_keys WHERE keys @@ ${key}::tsquery`,
    (field, condition) => `SELECT k.urn FROM search_key_values v
        CROSS JOIN LATERAL (SELECT urn FROM search_keys WHERE keys @@ (${searchKeySql('v.field', 'v.value')})::tsquery) k
       WHERE v.field = ${field} AND ${condition}
      UNION ALL
      SELECT o.urn FROM search_keys o
       WHERE o.keys @@ '${OVERFLOW_KEY}'::tsquery AND EXISTS (SELECT 1 FROM search_fields x WHERE x.urn = o.urn AND x.field = ${field} AND ${condition})`,
  ),
  // The partial index on names is under text_pattern_ops: its order is `~<~`'s (bytes), which ORDER BY can name.
  nameOrder: (expr) => `${expr} USING ~<~`,
  // The partial index on names is under text_pattern_ops: LIKE 'prefix%' reads a range of it in any collation.
  namePrefix: (params, prefix) => {
    params.push(prefixPattern(prefix));
    return `folded LIKE $${params.length}::text`;
  },
};

/** Entity search over the search index (storage/index-search.ts), on PostgreSQL, and the build of that index. */
export class PostgresSearch extends IndexSearch implements PortImpl<SearchPort> {
  constructor(
    documents: SearchDocuments,
    private readonly pool: pg.Pool,
    private readonly index: PostgresSearchIndex,
    matches: MatchesRunner,
  ) {
    super(POSTGRES_SEARCH, documents, async (sql, params, overAllMatches) =>
      overAllMatches ? matches.run(sql, params) : ((await pool.query(sql, params as unknown[])).rows as Array<Record<string, unknown>>),
    );
  }

  searchIndexBuild(): Promise<SearchIndexBuild> {
    return this.index.buildState();
  }

  continueSearchIndexBuild(size: number): Promise<SearchIndexBuild> {
    return this.index.continueBuild(size);
  }

  restartSearchIndexBuild(): Promise<SearchIndexBuild> {
    return inTransaction(this.pool, (c) => this.index.restartBuild(c));
  }
}
