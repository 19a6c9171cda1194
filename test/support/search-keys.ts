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
