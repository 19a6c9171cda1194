import type pg from 'pg';
import type { PortImpl } from '../compose-store.ts';
import { IndexSearch } from '../index-search.ts';
import type { SearchDialect } from '../search-sql.ts';
import type { DatasetSearchPage, DatasetSearchQuery, SearchDocuments, SearchPort } from '../store.ts';

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
  like: 'LIKE',
  in: (params, values) => {
    params.push(values);
    return `= ANY($${params.length}::text[])`;
  },
  nullsLast: (expr, dir) => `${expr} ${dir} NULLS LAST`,
};

/** Entity search over the search index (storage/index-search.ts), and the console's dataset listing in PostgreSQL's SQL. */
export class PostgresSearch extends IndexSearch implements PortImpl<SearchPort> {
  constructor(
    documents: SearchDocuments,
    private readonly pool: pg.Pool,
  ) {
    super(POSTGRES_SEARCH, documents, async (sql, params) => (await pool.query(sql, params as unknown[])).rows as Array<Record<string, unknown>>);
  }

  searchDatasets(query: DatasetSearchQuery): Promise<DatasetSearchPage> {
    return searchDatasets(this.pool, query);
  }
}

/** Datasets with their platform (from the urn) and deprecated flag (from the latest deprecation aspect). */
const MATCHES = `
  WITH d AS (
    SELECT e.urn,
           split_part(substr(e.urn, 37), ',', 1) AS platform,
           COALESCE((a.metadata->>'deprecated')::boolean, false) AS deprecated
      FROM entities e
      LEFT JOIN aspects a ON a.urn = e.urn AND a.aspect = 'deprecation' AND a.version = 0
     WHERE e.entity_type = 'dataset' AND ($1::text IS NULL OR strpos(lower(e.urn), lower($1)) > 0)
  )`;
const FILTERED = `($2::text IS NULL OR platform = $2) AND ($3::boolean IS NULL OR deprecated = $3)`;

async function searchDatasets(pool: pg.Pool, q: DatasetSearchQuery): Promise<DatasetSearchPage> {
  const params = [q.text ?? null, q.platform ?? null, q.deprecated ?? null];
  const [total, page, platforms, deprecated] = await Promise.all([
    pool.query<{ n: number }>(`${MATCHES} SELECT COUNT(*)::bigint AS n FROM d WHERE ${FILTERED}`, params),
    pool.query<{ urn: string }>(`${MATCHES} SELECT urn FROM d WHERE ${FILTERED} ORDER BY urn LIMIT $4 OFFSET $5`, [...params, q.count, q.start]),
    pool.query<{ value: string; count: number }>(
      `${MATCHES} SELECT platform AS value, COUNT(*)::bigint AS count FROM d GROUP BY platform ORDER BY count DESC, value`,
      [params[0]],
    ),
    pool.query<{ value: boolean; count: number }>(
      `${MATCHES} SELECT deprecated AS value, COUNT(*)::bigint AS count FROM d GROUP BY deprecated ORDER BY deprecated DESC`,
      [params[0]],
    ),
  ]);
  return {
    total: total.rows[0]!.n,
    urns: page.rows.map((r) => r.urn),
    platformCounts: platforms.rows,
    deprecatedCounts: deprecated.rows.map((r) => ({ value: r.value ? ('true' as const) : ('false' as const), count: r.count })),
  };
}
