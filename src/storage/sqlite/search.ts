import type Database from 'better-sqlite3';
import type { PortImpl } from '../compose-store.ts';
import { IndexSearch } from '../index-search.ts';
import type { SearchDialect } from '../search-sql.ts';
import type { SearchDocuments, SearchPort } from '../store.ts';

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

/** Entity search over the search index (storage/index-search.ts), on SQLite. */
export class SqliteSearch extends IndexSearch implements PortImpl<SearchPort> {
  constructor(db: Database.Database, documents: SearchDocuments) {
    // Search statements vary with the query's shape: prepared per call, not cached.
    super(
      SQLITE_SEARCH,
      { ...documents, entityType: documents.entityType },
      async (sql, params) => db.prepare(sql).all(named(params)) as Array<Record<string, unknown>>,
    );
  }
}
