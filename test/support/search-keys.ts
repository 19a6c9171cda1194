import { DOC_ROWS_MIGRATION, FACET_LISTS_MIGRATION } from '../../src/storage/postgres/migrations.ts';
import { FACET_FIELDS } from '../../src/storage/search-facet-fields.ts';
import { sqlFieldList } from '../../src/storage/search-keys.ts';
import { DOC_FACETS_MIGRATION } from '../../src/storage/sqlite/migrations.ts';
import { onConnection, type TestDatabase } from './databases.ts';

/**
 * The search keys a database holds, one line per entity and key (storage/search-keys.ts): FTS5's vocabulary of
 * `search_keys` on SQLite (which keeps no content to read them back from), the tsvectors on PostgreSQL.
 */
export const storedKeys = (db: TestDatabase): Promise<string[]> =>
  onConnection(db, {
    sqlite: (conn) => {
      conn.exec(`CREATE VIRTUAL TABLE temp.keys_vocabulary USING fts5vocab(main, search_keys, 'instance')`);
      const rows = conn.prepare('SELECT doc, term FROM temp.keys_vocabulary ORDER BY doc, term').all() as Array<{ doc: number; term: string }>;
      return rows.map((r) => `${r.doc} ${r.term}`);
    },
    postgres: async (client) =>
      (await client.query<{ row: string }>(`SELECT urn || ' ' || keys::text AS row FROM search_keys ORDER BY urn`)).rows.map((r) => r.row),
  });

/**
 * SQL that puts a SQLite database back as the release before migration 30 left it: each document's facet values as
 * `(doc, value number, aspect)` rows of `search_facets` (filled from the values search_fields holds, as migration 25
 * did) and no list of them on the document row.
 */
export const SQLITE_BEFORE_DOC_FACETS = `
  CREATE TABLE search_facets (doc INTEGER NOT NULL, value_id INTEGER NOT NULL, aspect TEXT NOT NULL, PRIMARY KEY (doc, value_id, aspect)) WITHOUT ROWID;
  INSERT OR IGNORE INTO search_facets (doc, value_id, aspect)
    SELECT d.id, v.id, f.aspect FROM search_fields f
      JOIN search_docs d ON d.urn = f.urn
      JOIN search_facet_values v ON v.field = f.field AND v.value = f.value;
  ALTER TABLE search_docs DROP COLUMN facets;
  DELETE FROM schema_migrations WHERE version = ${DOC_FACETS_MIGRATION};`;

/** SQL that puts a PostgreSQL database back as the release before migration 31 left it: no document rows. */
export const POSTGRES_BEFORE_DOC_ROWS = `
  DROP TABLE search_docs; DROP AGGREGATE search_doc_words_agg(tsvector);
  DROP FUNCTION search_doc_words_add(tsvector, tsvector); DROP FUNCTION search_doc_words(text, real);
  DELETE FROM schema_migrations WHERE version = ${DOC_ROWS_MIGRATION};`;

/**
 * SQL that puts a PostgreSQL database back as the release before migration 30 left it (and so before 31's): the facet values as rows of
 * `search_facets` (filled from search_fields, as migration 25 did), no lists of them.
 */
export const POSTGRES_BEFORE_FACET_LISTS = `${POSTGRES_BEFORE_DOC_ROWS}
  CREATE TABLE search_facets (urn TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL, aspect TEXT NOT NULL);
  INSERT INTO search_facets (urn, field, value, aspect)
    SELECT DISTINCT urn, field, value, aspect FROM search_fields WHERE field IN (${sqlFieldList(FACET_FIELDS)});
  CREATE INDEX search_facets_by_urn ON search_facets (urn, aspect) INCLUDE (field, value);
  DROP TABLE search_facet_lists;
  DELETE FROM schema_migrations WHERE version = ${FACET_LISTS_MIGRATION};`;

/** Each engine's SQL for a database as the release before its facet lists (SQLite's and PostgreSQL's migration 30). */
export const BEFORE_FACET_LISTS = { sqlite: SQLITE_BEFORE_DOC_FACETS, postgres: POSTGRES_BEFORE_FACET_LISTS } as const;
