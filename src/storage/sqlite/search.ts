import type Database from 'better-sqlite3';
import type { PortImpl } from '../compose-store.ts';
import { IndexSearch } from '../index-search.ts';
import type { SearchDialect } from '../search-sql.ts';
import type { DatasetSearchPage, DatasetSearchQuery, SearchDocuments, SearchPort } from '../store.ts';
import type { StatementCache } from './statements.ts';

/** SQLite's side of the search SQL: named parameters, FTS5's MATCH on the words table. */
const SQLITE_SEARCH: SearchDialect = {
  param: (params, value) => {
    params.push(typeof value === 'boolean' ? Number(value) : value);
    return `@p${params.length}`;
  },
  wordsMatch: (params, words, prefix, field) => {
    // Words are letters and digits only (catalog/search/search-tokens.ts): quoting them is enough for FTS5.
    params.push(`"${words.join(' ')}"${prefix ? ' *' : ''}`);
    const match = `@p${params.length}`;
    let restrict = 't.by_default = 1';
    if (field !== undefined) {
      params.push(field);
      restrict = `t.field = @p${params.length}`;
    }
    return `SELECT t.urn AS urn, max(t.boost) AS score FROM search_words w JOIN search_text t ON t.id = w.rowid
      WHERE search_words MATCH ${match} AND ${restrict} GROUP BY t.urn`;
  },
  like: 'LIKE',
  in: (params, values) => {
    params.push(JSON.stringify(values));
    return `IN (SELECT value FROM json_each(@p${params.length}))`;
  },
  nullsLast: (expr, dir) => `${expr} IS NULL, ${expr} ${dir}`,
};

const named = (params: readonly unknown[]): Record<string, unknown> => Object.fromEntries(params.map((v, i) => [`p${i + 1}`, v]));

/** Entity search over the search index (storage/index-search.ts), and the console's dataset listing in SQLite's SQL. */
export class SqliteSearch extends IndexSearch implements PortImpl<SearchPort> {
  constructor(
    db: Database.Database,
    documents: SearchDocuments,
    private readonly statements: StatementCache,
  ) {
    // Search statements vary with the query's shape: prepared per call, not cached.
    super(
      SQLITE_SEARCH,
      { ...documents, entityType: documents.entityType },
      async (sql, params) => db.prepare(sql).all(named(params)) as Array<Record<string, unknown>>,
    );
  }

  searchDatasets(query: DatasetSearchQuery): DatasetSearchPage {
    return searchDatasets(this.statements, query);
  }
}

/** Datasets with their platform (from the urn) and deprecated flag (from the latest deprecation aspect). */
const MATCHES = `
  WITH d AS (
    SELECT e.urn,
           substr(e.urn, 37, instr(substr(e.urn, 37), ',') - 1) AS platform,
           COALESCE(json_extract(a.metadata, '$.deprecated'), 0) AS deprecated
      FROM entities e
      LEFT JOIN aspects a ON a.urn = e.urn AND a.aspect = 'deprecation' AND a.version = 0
     WHERE e.entity_type = 'dataset' AND (@text IS NULL OR instr(lower(e.urn), lower(@text)) > 0)
  )`;
const FILTERED = `(@platform IS NULL OR platform = @platform) AND (@deprecated IS NULL OR deprecated = @deprecated)`;

function searchDatasets(statements: StatementCache, q: DatasetSearchQuery): DatasetSearchPage {
  const params = { text: q.text ?? null, platform: q.platform ?? null, deprecated: q.deprecated === undefined ? null : Number(q.deprecated) };
  const total = (statements.get(`${MATCHES} SELECT COUNT(*) AS n FROM d WHERE ${FILTERED}`).get(params) as { n: number }).n;
  const urns = (
    statements
      .get(`${MATCHES} SELECT urn FROM d WHERE ${FILTERED} ORDER BY urn LIMIT @count OFFSET @start`)
      .all({ ...params, count: q.count, start: q.start }) as Array<{
      urn: string;
    }>
  ).map((r) => r.urn);
  const facet = { text: params.text, platform: null, deprecated: null };
  const platformCounts = statements
    .get(`${MATCHES} SELECT platform AS value, COUNT(*) AS count FROM d GROUP BY platform ORDER BY count DESC, value`)
    .all(facet) as Array<{
    value: string;
    count: number;
  }>;
  const deprecatedCounts = (
    statements
      .get(`${MATCHES} SELECT deprecated AS value, COUNT(*) AS count FROM d GROUP BY deprecated ORDER BY deprecated DESC`)
      .all(facet) as Array<{
      value: number;
      count: number;
    }>
  ).map((r) => ({ value: r.value ? ('true' as const) : ('false' as const), count: r.count }));
  return { total, urns, platformCounts, deprecatedCounts };
}
