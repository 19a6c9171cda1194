import type pg from 'pg';
import type { PortImpl } from '../compose-store.ts';
import { IndexSearch } from '../index-search.ts';
import { filterKeys, KEY_FIELDS, OVERFLOW_KEY, searchKeySql, TSQUERY_KEYS, valueKeysOf } from '../search-keys.ts';
import { prefixPattern, type SearchDialect } from '../search-sql.ts';
import type { SearchDocuments, SearchIndexBuild, SearchPort } from '../store.ts';
import { facetCountsSql } from './facet-lists.ts';
import type { PostgresSearchIndex } from './search-index.ts';
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
    // Words are letters and digits only (catalog/search/search-tokens.ts): safe as tsquery lexemes.
    params.push(words.map((w, i) => (prefix && i === words.length - 1 ? `${w}:*` : w)).join(' <-> '));
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

/**
 * The memory a statement over every match of a search may sort and hash in before it spills to disk, when the
 * server's own `work_mem` is less. PostgreSQL's default (4 MB) spilled a word's matches at a million entities (the
 * matches' sort, the hash of entities, the name tiers): one word with its facets, 180,000 matches, 2,150 ms p50 at
 * 4 MB, 1,571 at 16 MB, 1,556 at 32 MB, 1,627 at 64 MB. A statement holds a few such nodes, each bounded by this
 * (hashes by twice it, PostgreSQL's hash_mem_multiplier), for at most the pool's connections at once.
 */
const SEARCH_WORK_MEM_BYTES = 16 * 1024 * 1024;

/**
 * The cost the planner gives a random page read in a search over every match, when the server's own
 * `random_page_cost` is more: PostgreSQL's docs' figure for storage whose random reads cost about as much as
 * sequential ones (SSDs, a cache that holds the index). Under the default 4, a word in 1% of a million entities (10,000
 * matches) joined them to the entities by a parallel scan of all 900,000 datasets and a hash (m: 126 ms), where a
 * seek per match takes 54 ms; a word in 18% still hashes (its 180,000 matches: the same 1.2 s either way).
 */
const SEARCH_RANDOM_PAGE_COST = 1.1;

/**
 * Runs a statement over every match in a transaction of its own whose `work_mem` is at least SEARCH_WORK_MEM_BYTES
 * and whose `random_page_cost` is at most SEARCH_RANDOM_PAGE_COST (SET LOCAL: it ends with the transaction, so it holds behind a pooler in transaction mode and never outlives the
 * statement on a pooled connection; a larger `work_mem` or a smaller `random_page_cost` of the server's is kept), and
 * without JIT compilation. The pool asks for
 * `jit=off` when it connects (postgres-store.ts), but a pooler in transaction mode may drop start-up options (PgBouncer
 * with `options` in `ignore_startup_parameters`, as scripts/pgbouncer.mjs sets it), and this statement's estimated cost passes `jit_above_cost` from about 100,000
 * entities: compiling it took 50 to 80 ms of a 250 ms statement (one word with its facets at 100,000 entities, the
 * statement alone on a connection without the option, alternating: 293 ms p50 with JIT, 237 without).
 */
const overMatches = (pool: pg.Pool, sql: string, params: readonly unknown[]): Promise<Array<Record<string, unknown>>> =>
  inTransaction(
    pool,
    async (c) => (await c.query(sql, params as unknown[])).rows as Array<Record<string, unknown>>,
    `BEGIN READ ONLY; SELECT set_config('work_mem', CASE WHEN pg_size_bytes(current_setting('work_mem')) < ${SEARCH_WORK_MEM_BYTES}
      THEN '${SEARCH_WORK_MEM_BYTES / 1024}kB' ELSE current_setting('work_mem') END, true), set_config('jit', 'off', true),
      set_config('random_page_cost', LEAST(current_setting('random_page_cost')::float8, ${SEARCH_RANDOM_PAGE_COST})::text, true)`,
  );

/** Entity search over the search index (storage/index-search.ts), on PostgreSQL, and the build of that index. */
export class PostgresSearch extends IndexSearch implements PortImpl<SearchPort> {
  constructor(
    documents: SearchDocuments,
    private readonly pool: pg.Pool,
    private readonly index: PostgresSearchIndex,
  ) {
    super(POSTGRES_SEARCH, documents, async (sql, params, overAllMatches) =>
      overAllMatches ? overMatches(pool, sql, params) : ((await pool.query(sql, params as unknown[])).rows as Array<Record<string, unknown>>),
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
