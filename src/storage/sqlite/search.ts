import type Database from 'better-sqlite3';
import type { PortImpl } from '../compose-store.ts';
import { IndexSearch } from '../index-search.ts';
import type { SearchDialect } from '../search-sql.ts';
import type { SearchDocuments, SearchIndexBuild, SearchPort } from '../store.ts';
import { MAX_JOINED_BYTES } from './facet-tally.ts';
import { docTierSql } from '../search-doc-names.ts';
import { SLOTS, type SqliteSearchIndex } from './search-index.ts';
import { DOC_KEY_FIELDS, filterKeys, FTS5_KEYS, valueKeysOf } from '../search-keys.ts';

/**
 * The documents whose words match as `SELECT doc, score`. The rowid names the document and the slot
 * (sqlite/search-index.ts): no read of the text row per match. CROSS JOIN keeps the full-text match the outer loop
 * (SQLite would otherwise run it once per slot).
 */
function wordDocs(params: unknown[], words: readonly string[], prefix: boolean, field: string | undefined): string {
  // Words are letters and digits only (catalog/search/search-tokens.ts): quoting them is enough for FTS5.
  params.push(`"${words.join(' ')}"${prefix ? ' *' : ''}`);
  const match = `@p${params.length}`;
  let restrict = 's.by_default = 1';
  if (field !== undefined) {
    params.push(field);
    restrict = `s.field = @p${params.length}`;
  }
  return `SELECT w.rowid / ${SLOTS} AS doc, max(s.boost) AS score FROM search_words w CROSS JOIN search_slots s
    WHERE search_words MATCH ${match} AND s.id = w.rowid % ${SLOTS} AND ${restrict} GROUP BY doc`;
}

/**
 * `SELECT field, value, n` of the default facet fields over the matches `m` (SearchDialect.facetCounts). Each match's
 * document row lists its facet value numbers (migration 30, sqlite/facet-tally.ts), carried in `m` where the matches
 * were read from those rows (else sought by number): the lists joined by SQLite's group_concat and counted by
 * facet_tally in one pass, or, when they would join into more than `maxJoined` characters, counted one by one by
 * facet_count; then named.
 */
export function facetCountsSql(params: unknown[], fields: readonly string[], maxJoined = MAX_JOINED_BYTES): string {
  params.push(JSON.stringify(fields));
  const lists = 'COALESCE(m.facets, (SELECT d.facets FROM search_docs d WHERE d.id = m.doc))';
  return `SELECT fv.field AS field, fv.value AS value, t.value AS n
      FROM json_each(CASE WHEN (SELECT total(length(${lists})) FROM m) <= ${maxJoined}
        THEN (SELECT facet_tally(group_concat(${lists}, ' ')) FROM m) ELSE (SELECT facet_count(${lists}) FROM m) END) t
      CROSS JOIN search_facet_values fv
     WHERE fv.id = CAST(t.key AS INTEGER) AND fv.field IN (SELECT value FROM json_each(@p${params.length}))`;
}

/** SQLite's side of the search SQL: named parameters, FTS5's MATCH on the words table, entities as numbered documents. */
const SQLITE_SEARCH: SearchDialect = {
  param: (params, value) => {
    params.push(typeof value === 'boolean' ? Number(value) : value);
    return `@p${params.length}`;
  },
  wordsMatch: (params, words, prefix, field) =>
    `SELECT d.urn AS urn, h.score AS score FROM (${wordDocs(params, words, prefix, field)}) h CROSS JOIN search_docs d WHERE d.id = h.doc`,
  like: 'LIKE',
  in: (params, values) => {
    params.push(JSON.stringify(values));
    return `IN (SELECT value FROM json_each(@p${params.length}))`;
  },
  nullsLast: (expr, dir) => `${expr} IS NULL, ${expr} ${dir}`,
  // SQLite builds the subquery's urns once, as an ephemeral index, and probes it per row.
  notIn: (expr, subquery) => `${expr} NOT IN (SELECT urn FROM (${subquery}))`,
  facetCounts: (params, fields) => facetCountsSql(params, fields),
  // The keys' FTS5 table, by document number (migration 26).
  keyFilter: (params, filter, includeRemoved, types, rules) => {
    const keys = filterKeys(filter, includeRemoved, types, rules, FTS5_KEYS, DOC_KEY_FIELDS);
    if (keys === undefined) return undefined;
    params.push(keys);
    const match = `search_keys MATCH @p${params.length}`;
    return {
      from: `(SELECT rowid AS doc FROM search_keys WHERE ${match}) h CROSS JOIN search_docs e`,
      where: 'e.id = h.doc',
      doc: 'e.id',
      // Every keys row is a document's (its rowid is the document's number): FTS5's answer is the count.
      count: `SELECT count(*) AS n FROM search_keys WHERE ${match}`,
      facets: 'e.facets',
    };
  },
  // Each entity the index holds is a numbered document (sqlite/search-index.ts numbers it with its first value;
  // forgetting the entity drops it): the number is what the full-text ids name.
  documents: {
    wordDocs,
    table: 'search_docs',
    ofUrn: (urn) => `(SELECT id FROM search_docs WHERE urn = ${urn})`,
    // The row's own flag and names (migration 29, sqlite/search-docs.ts).
    live: 'e.removed = 0',
    tier: (params, name) => docTierSql(params, name, SQLITE_SEARCH.param, 'instr'),
    facets: 'e.facets',
  },
  // A field path's or a flag's entities (migration 27): each distinct value the condition selects, from
  // search_key_values, then FTS5's documents for that value's key (search_key is the store's function,
  // storage/search-keys.ts).
  valueKeys: valueKeysOf(
    (params, value) => SQLITE_SEARCH.param(params, value),
    (key) => `SELECT urn FROM search_docs WHERE id IN (SELECT rowid FROM search_keys WHERE search_keys MATCH ${key})`,
    (field, condition) => `SELECT urn FROM search_docs WHERE id IN (
        SELECT k.rowid FROM search_key_values v CROSS JOIN search_keys k
         WHERE v.field = ${field} AND ${condition} AND k.search_keys MATCH search_key(v.field, v.value))`,
  ),
  // Otherwise SQLite reads (field, folded, urn) as two ranges and sorts them.
  namesFrom: 'search_fields n INDEXED BY search_fields_names',
  // BINARY collation: the index's order is the bytes' order.
  nameOrder: (expr) => expr,
  // BINARY collation compares UTF-8 bytes: every text starting with the prefix sorts in [prefix, prefix + U+10FFFF).
  namePrefix: (params, prefix) => {
    params.push(prefix, `${prefix}\u{10FFFF}`);
    return `folded >= @p${params.length - 1} AND folded < @p${params.length}`;
  },
};

const named = (params: readonly unknown[]): Record<string, unknown> => Object.fromEntries(params.map((v, i) => [`p${i + 1}`, v]));

/** Entity search over the search index (storage/index-search.ts), on SQLite, and the build of that index. */
export class SqliteSearch extends IndexSearch implements PortImpl<SearchPort> {
  constructor(
    db: Database.Database,
    documents: SearchDocuments,
    private readonly index: SqliteSearchIndex,
  ) {
    // Search statements vary with the query's shape: prepared per call, not cached.
    super(
      SQLITE_SEARCH,
      { ...documents, entityType: documents.entityType },
      async (sql, params) => db.prepare(sql).all(named(params)) as Array<Record<string, unknown>>,
    );
    this.restartTx = db.transaction(() => this.index.restartBuild());
  }

  private readonly restartTx: Database.Transaction<() => SearchIndexBuild>;

  searchIndexBuild(): SearchIndexBuild {
    return this.index.buildState();
  }

  continueSearchIndexBuild(size: number): SearchIndexBuild {
    return this.index.continueBuild(size);
  }

  restartSearchIndexBuild(): SearchIndexBuild {
    return this.restartTx.immediate();
  }
}
