import type pg from 'pg';
import type { PortImpl } from '../compose-store.ts';
import type { DatabasePort, DatabaseStats } from '../ports/database.ts';
import { POSTGRES_MIGRATIONS, RELATIONSHIPS_MIGRATION, SEARCH_REINDEX_MIGRATIONS } from './migrations.ts';
import type { PostgresRelationships } from './relationships.ts';
import type { PostgresSearchIndex } from './search-index.ts';
import type { PostgresTasks } from './tasks.ts';
import type { PostgresAuthListener } from './auth-listener.ts';
import type { MatchesRunner } from './search-session.ts';
import { inTransaction } from './transaction.ts';

const MIGRATION_LOCK = 0x616c6d61; // "alma"

/** The database as a whole: migrations (one process at a time), settings, the pool's gauges, and closing. */
export class PostgresDatabase implements PortImpl<DatabasePort> {
  constructor(
    private readonly pool: pg.Pool,
    private readonly relationships: PostgresRelationships,
    private readonly searchIndex: PostgresSearchIndex,
    private readonly tasks: PostgresTasks,
    private readonly authListener: PostgresAuthListener,
    private readonly searchMatches: MatchesRunner,
  ) {}

  async migrate(): Promise<void> {
    await inTransaction(this.pool, async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await c.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
      const applied = new Set((await c.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const [i, sql] of POSTGRES_MIGRATIONS.entries()) {
        if (applied.has(i + 1)) continue;
        await c.query(sql);
        // Existing databases get the relationship index of the aspects they already hold before any process can
        // read it; the search index's build runs in batches after the start (SearchIndexBuilder), while it answers.
        if (i + 1 === RELATIONSHIPS_MIGRATION) await this.relationships.backfill(c);
        if (SEARCH_REINDEX_MIGRATIONS.has(i + 1)) await this.searchIndex.restartBuild(c);
        await c.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [i + 1, Date.now()]);
      }
    });
  }

  checkListener(): Promise<void> {
    return this.authListener.check();
  }

  async close(): Promise<void> {
    await this.tasks.close();
    await this.authListener.close();
    await this.searchMatches.close();
    await this.pool.end();
  }

  databaseStats(): DatabaseStats {
    const searchPool = this.searchMatches.stats();
    return {
      pool: { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount },
      ...(searchPool ? { searchPool } : {}),
    };
  }

  async getOrInitSetting(key: string, init: () => string): Promise<string> {
    await this.pool.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING', [key, init()]);
    return (await this.pool.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key])).rows[0]!.value;
  }
}
