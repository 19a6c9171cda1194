import type Database from 'better-sqlite3';
import type pg from 'pg';
import { POSTGRES_MIGRATIONS } from '../../src/storage/postgres/migrations.ts';
import { SQLITE_MIGRATIONS } from '../../src/storage/sqlite/migrations.ts';
import { onConnection, type TestDatabase } from './databases.ts';

/** The connection `fill` writes an old database's rows on: one of each engine's driver. */
export type OldDatabaseFill = { sqlite: (db: Database.Database) => void; postgres: (client: pg.Client) => Promise<void> };

/**
 * Puts a fresh database in the state a release before migration `upTo` left it: the migrations before it applied and
 * recorded, then `fill`'s rows written straight into its tables, as that release would have (no store, no index).
 */
export function writeOldDatabase(db: TestDatabase, upTo: number, fill: OldDatabaseFill): Promise<void> {
  return onConnection(db, {
    sqlite: (conn) => {
      conn.pragma('auto_vacuum = INCREMENTAL');
      conn.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
      for (const [i, sql] of SQLITE_MIGRATIONS.slice(0, upTo - 1).entries()) {
        conn.exec(sql);
        conn.prepare('INSERT INTO schema_migrations VALUES (?, 0)').run(i + 1);
      }
      conn.transaction(() => fill.sqlite(conn))();
    },
    postgres: async (client) => {
      await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
      for (const [i, sql] of POSTGRES_MIGRATIONS.slice(0, upTo - 1).entries()) {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations VALUES ($1, 0)', [i + 1]);
      }
      await fill.postgres(client);
    },
  });
}
