import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { PARTITION_MILLIS, partitionStart } from '../partitions.ts';
import type { TaskRef, TimeseriesIndexRef, TruncationStep } from '../store.ts';
import { changedSomething } from '../truncation-step.ts';
import { partitionTableSql } from './migrations.ts';
import { StatementCache } from './statements.ts';
import type { SqliteTasks } from './tasks.ts';
import { SqliteTimeseries } from './timeseries.ts';

const NOTHING: TruncationStep = { rows: 0, partitionsDropped: 0, freedBytes: 0 };
/**
 * Pages per incremental_vacuum call, adapted to keep each call within the step
 * budget: a call costs ~20 µs a page when the free list is short, but much more
 * when it is huge (each freed tail page is looked up in the free list).
 */
const VACUUM_PAGES = { min: 8, start: 256, max: 8192 };
/**
 * DROP TABLE reads every page it frees; through a memory map that costs about
 * half as much as through read(). better-sqlite3 caps the map near 2 GB, which
 * covers the oldest partitions: they sit at the front of the file.
 */
const DROP_MMAP_BYTES = 2 ** 31;

/**
 * Truncation on SQLite. Dropping a day table frees its pages in one pass over
 * them, without touching rows one by one or maintaining the urn index. The freed
 * pages go to the free list; reclaim() then moves live pages down and shortens
 * the file (auto_vacuum = INCREMENTAL), in bounded steps.
 */
export class SqliteTruncation {
  private readonly statements: StatementCache;
  /** The connection's map size before a drop phase mapped the file, to restore afterwards. */
  private mmapBefore: number | undefined;
  private vacuumPages = VACUUM_PAGES.start;

  constructor(
    private readonly db: Database.Database,
    private readonly ts: SqliteTimeseries,
    private readonly tasks: SqliteTasks,
    /** The database file, for reads moved off this thread; ':memory:' keeps them here. */
    private readonly file: string,
  ) {
    this.statements = new StatementCache(db);
  }

  private sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  private pragmaNumber(name: string): number {
    return this.db.pragma(name, { simple: true }) as number;
  }

  /** Pages holding data (the file's pages minus the free list). */
  private usedPages(): number {
    return this.pragmaNumber('page_count') - this.pragmaNumber('freelist_count');
  }

  /** Statements naming a dropped table must not be reused, and its partition must be re-created on the next write. */
  private forgetDroppedTables(): void {
    this.statements.clear();
    this.ts.resetCaches();
  }

  /** Ends a step inside its transaction: a step that changed something is counted on its task before the commit. */
  private stepDone(step: TruncationStep, task: TaskRef | undefined): TruncationStep {
    if (task && changedSomething(step)) this.tasks.recordStep(task, step);
    return step;
  }

  dropPartitionsBefore(ref: TimeseriesIndexRef, before: number, budget: { maxPartitions: number; maxMillis: number }, task?: TaskRef): TruncationStep {
    const id = this.ts.indexId(ref, false);
    if (id === undefined) return NOTHING;
    const started = performance.now();
    this.mmapBefore ??= this.pragmaNumber('mmap_size');
    this.db.pragma(`mmap_size = ${DROP_MMAP_BYTES}`);
    let dropped = 0;
    try {
      return this.db
        .transaction((): TruncationStep => {
          const whole = this.sql('SELECT start_ms, row_count FROM ts_partitions WHERE index_id = ? AND start_ms <= ? ORDER BY start_ms LIMIT ?').all(
            id,
            before - PARTITION_MILLIS,
            budget.maxPartitions,
          ) as Array<{ start_ms: number; row_count: number }>;
          const used = this.usedPages();
          let rows = 0;
          for (const p of whole) {
            if (dropped > 0 && performance.now() - started > budget.maxMillis) break;
            this.db.exec(`DROP TABLE IF EXISTS "${this.ts.tableName(id, p.start_ms)}"`);
            this.sql('DELETE FROM ts_partitions WHERE index_id = ? AND start_ms = ?').run(id, p.start_ms);
            rows += p.row_count;
            dropped++;
          }
          return this.stepDone({ rows, partitionsDropped: dropped, freedBytes: (used - this.usedPages()) * this.pragmaNumber('page_size') }, task);
        })
        .immediate();
    } finally {
      this.forgetDroppedTables();
      // The drop phase is over once a call finds nothing left: read as before again.
      if (dropped === 0 && this.mmapBefore !== undefined) {
        this.db.pragma(`mmap_size = ${this.mmapBefore}`);
        this.mmapBefore = undefined;
      }
    }
  }

  trimBoundary(ref: TimeseriesIndexRef, before: number, task?: TaskRef): TruncationStep {
    const id = this.ts.indexId(ref, false);
    const start = partitionStart(before);
    if (id === undefined || start === before) return NOTHING;
    const table = this.ts.tableName(id, start);
    let rewritten = false;
    try {
      return this.db
        .transaction((): TruncationStep => {
          const part = this.sql('SELECT row_count FROM ts_partitions WHERE index_id = ? AND start_ms = ?').get(id, start) as
            | { row_count: number }
            | undefined;
          if (!part) return NOTHING;
          const doomed = (this.sql(`SELECT COUNT(*) AS n FROM "${table}" WHERE ts < ?`).get(before) as { n: number }).n;
          if (doomed === 0) return NOTHING;
          const used = this.usedPages();
          if (doomed > part.row_count - doomed) {
            // Most of the day goes: copying the rest is cheaper than deleting, and leaves no half-empty pages.
            rewritten = true;
            const scratch = `${table}_rewrite`;
            this.db.exec(partitionTableSql(scratch));
            this.db.exec(`DROP INDEX "${scratch}_urn"`);
            this.db.prepare(`INSERT INTO "${scratch}" SELECT * FROM "${table}" WHERE ts >= ? ORDER BY ts, doc_id`).run(before);
            this.db.exec(`DROP TABLE "${table}"; ALTER TABLE "${scratch}" RENAME TO "${table}";`);
            this.db.exec(partitionTableSql(table));
          } else {
            this.sql(`DELETE FROM "${table}" WHERE ts < ?`).run(before);
          }
          this.sql('UPDATE ts_partitions SET row_count = row_count - ? WHERE index_id = ? AND start_ms = ?').run(doomed, id, start);
          return this.stepDone({ rows: doomed, partitionsDropped: 0, freedBytes: (used - this.usedPages()) * this.pragmaNumber('page_size') }, task);
        })
        .immediate();
    } finally {
      if (rewritten) this.forgetDroppedTables();
    }
  }

  deleteRowsBefore(ref: TimeseriesIndexRef, before: number, limit: number, task?: TaskRef): TruncationStep {
    const id = this.ts.indexId(ref, false);
    if (id === undefined) return NOTHING;
    return this.db
      .transaction((): TruncationStep => {
        const parts = this.sql('SELECT start_ms FROM ts_partitions WHERE index_id = ? AND start_ms < ? AND row_count > 0 ORDER BY start_ms').all(
          id,
          before,
        ) as Array<{ start_ms: number }>;
        const used = this.usedPages();
        let rows = 0;
        for (const p of parts) {
          if (rows >= limit) break;
          const table = this.ts.tableName(id, p.start_ms);
          const n = this.sql(
            `DELETE FROM "${table}" WHERE (ts, doc_id) IN (SELECT ts, doc_id FROM "${table}" WHERE ts < ? ORDER BY ts, doc_id LIMIT ?)`,
          ).run(before, limit - rows).changes;
          if (n > 0) this.sql('UPDATE ts_partitions SET row_count = row_count - ? WHERE index_id = ? AND start_ms = ?').run(n, id, p.start_ms);
          rows += n;
        }
        return this.stepDone({ rows, partitionsDropped: 0, freedBytes: (used - this.usedPages()) * this.pragmaNumber('page_size') }, task);
      })
      .immediate();
  }

  /** The free list is the whole file's, so this gives back space freed by any deletion, not only this index's. */
  reclaim(maxMillis: number): { reclaimedBytes: number; done: boolean } {
    const started = performance.now();
    const pagesBefore = this.pragmaNumber('page_count');
    while (this.pragmaNumber('freelist_count') > 0 && performance.now() - started < maxMillis) {
      const callStarted = performance.now();
      this.db.pragma(`incremental_vacuum(${this.vacuumPages})`);
      const took = performance.now() - callStarted;
      if (took > maxMillis / 2) this.vacuumPages = Math.max(VACUUM_PAGES.min, this.vacuumPages >> 1);
      else if (took < maxMillis / 8) this.vacuumPages = Math.min(VACUUM_PAGES.max, this.vacuumPages << 1);
    }
    return {
      reclaimedBytes: (pagesBefore - this.pragmaNumber('page_count')) * this.pragmaNumber('page_size'),
      done: this.pragmaNumber('freelist_count') === 0,
    };
  }

  /** dbstat reads every page of the file: on a file-backed database it runs on a worker thread. */
  async tableSizes(): Promise<Array<{ name: string; bytes: number }>> {
    const sql = SqliteTimeseries.TABLE_SIZES_SQL;
    return (this.file === ':memory:' ? this.sql(sql).all() : await readOnWorker(this.file, sql, [])) as Array<{ name: string; bytes: number }>;
  }

  async indexSizeBytes(ref: TimeseriesIndexRef): Promise<number> {
    const id = this.ts.indexId(ref, false);
    if (id === undefined) return 0;
    const sizes = await this.tableSizes();
    const tables = new Set(this.ts.listPartitions(ref).flatMap((p) => [this.ts.tableName(id, p.startMillis), `${this.ts.tableName(id, p.startMillis)}_urn`]));
    return sizes.filter((r) => tables.has(r.name)).reduce((sum, r) => sum + r.bytes, 0);
  }
}

function readOnWorker(file: string, sql: string, params: unknown[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./read-worker.mjs', import.meta.url), { workerData: { path: file, sql, params } });
    worker.once('message', (m: { rows?: unknown[]; error?: string }) => (m.error !== undefined ? reject(new Error(m.error)) : resolve(m.rows!)));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`read worker exited with code ${code}`)));
  });
}
