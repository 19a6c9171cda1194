import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { PortImpl } from '../compose-store.ts';
import type { DatabasePort, DatabaseStats } from '../ports/database.ts';
import { RELATIONSHIPS_MIGRATION, SEARCH_REINDEX_MIGRATIONS, SQLITE_MIGRATIONS } from './migrations.ts';
import type { SqliteRelationships } from './relationships.ts';
import type { StatementCache } from './statements.ts';

export interface SqliteOptions {
  /** Run WAL checkpoints on a worker thread (off for :memory: and short-lived CLI use). */
  readonly backgroundCheckpoints?: boolean;
  /** How often the worker checkpoints, and the log size past which the writer checkpoints itself after a commit. */
  readonly checkpoints?: CheckpointSettings;
  /** The store's own connection's page cache in MiB (the worker threads' connections keep SQLite's default). */
  readonly cacheMib: number;
}

/** The background checkpoints' cadence, and the log's bound past which the writer checkpoints itself. */
export interface CheckpointSettings {
  readonly intervalMs: number;
  readonly writerBytes: number;
}

/** A checkpoint a second; past 64 MiB of log, the writer's own. */
export const DEFAULT_CHECKPOINTS: CheckpointSettings = { intervalMs: 1000, writerBytes: 64 * 1024 * 1024 };

/** The SQLite file as a whole: its migrations, its checkpoints, its settings, its gauges and its closing. */
export class SqliteDatabase implements PortImpl<DatabasePort> {
  private checkpointer: Worker | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly statements: StatementCache,
    private readonly relationships: SqliteRelationships,
    private readonly options: SqliteOptions,
  ) {}

  migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
    const applied = new Set((this.db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version));
    SQLITE_MIGRATIONS.forEach((sql, i) => {
      const version = i + 1;
      if (applied.has(version)) return;
      this.db
        .transaction(() => {
          this.db.exec(sql);
          // Existing databases get the relationship index of the aspects they already hold before any process can
          // read it; the search index's build runs in batches after the start (SearchIndexBuilder), while it answers.
          if (version === RELATIONSHIPS_MIGRATION) this.relationships.backfill();
          if (SEARCH_REINDEX_MIGRATIONS.has(version)) this.relationships.searchIndex.restartBuild();
          this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
        })
        .immediate();
    });
    if (this.options.backgroundCheckpoints && this.file !== ':memory:') this.startCheckpointer();
  }

  /**
   * Checkpoints on a worker thread (checkpoint-worker.mjs). Its checkpoints are PASSIVE: each copies the frames the
   * log held when it began. A writer that never pauses (a long ingest) has appended more by the time it ends, so the
   * log never starts over: it grew to 10 GB in the first 80,000 entities of the search benchmark's load. Past
   * `writerBytes`, SQLite's own automatic checkpoint runs in the writer after its commit, between its transactions,
   * so it copies every frame and the next transaction starts the log over. That copy runs on the main thread: every
   * request of the process waits for it, which is the price of a writer faster than the worker. A reader holding an
   * older snapshot (another process, a long read) still keeps the log from starting over until it ends.
   */
  private startCheckpointer(): void {
    const { intervalMs, writerBytes } = this.options.checkpoints ?? DEFAULT_CHECKPOINTS;
    const pageSize = this.db.pragma('page_size', { simple: true }) as number;
    this.db.pragma(`wal_autocheckpoint = ${Math.ceil(writerBytes / pageSize)}`);
    this.checkpointer = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
      workerData: { path: this.file, intervalMs },
    });
    this.checkpointer.unref();
  }

  async close(): Promise<void> {
    const worker = this.checkpointer;
    if (worker) {
      this.checkpointer = undefined;
      await new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.once('error', () => resolve());
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      });
      await worker.terminate();
    }
    if (this.db.open) this.db.close();
  }

  async databaseStats(): Promise<DatabaseStats> {
    // No WAL file yet (nothing written since the last checkpoint truncated it, or an in-memory database): 0 bytes.
    const wal = await fs.promises.stat(`${this.file}-wal`).catch(() => undefined);
    return { walBytes: wal?.size ?? 0 };
  }

  /** Other processes' commits are read from the file itself (the auth counter, `data_version`): nothing to hear. */
  checkListener(): void {}

  getOrInitSetting(key: string, init: () => string): string {
    this.statements.get('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(key, init());
    return (this.statements.get('SELECT value FROM settings WHERE key = ?').get(key) as { value: string }).value;
  }
}
