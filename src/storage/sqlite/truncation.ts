import type Database from 'better-sqlite3';
import { BUCKET_MILLIS, bucketOf, PARTITION_MILLIS, partitionStart, partitionTable } from '../partitions.ts';
import { DELETE_BUCKETS_SQL, recountBucketsSql, TRIM_BUCKETS_SQL } from '../bucket-sql.ts';
import type { ReclaimStep, TaskRef, TimeseriesIndexRef, TruncationStep } from '../store.ts';
import type { PortImpl } from '../compose-store.ts';
import type { TruncationPort } from '../ports/truncation.ts';
import { ABANDONED, changedSomething, rewriteBoundary } from '../truncation-step.ts';
import { partitionTableSql } from './migrations.ts';
import { bySqliteNames, StatementCache } from './statements.ts';
import type { SqliteTasks } from './tasks.ts';
import { type PartitionRow, SqliteTimeseries } from './timeseries.ts';

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
const AUTO_VACUUM_INCREMENTAL = 2;
/** Tables a task retired: its own reclaim drops them (`?` is the task number, null for none). */
const RETIRED_BY_TASK = 'task_number IS ?';

/**
 * Truncation on SQLite. The task itself only retires whole day partitions (a
 * metadata change) and trims the boundary day. reclaim() then drops the retired
 * tables, each in one pass over its pages without touching rows one by one, and
 * moves live pages down to shorten the file (auto_vacuum = INCREMENTAL), in
 * bounded steps.
 */
export class SqliteTruncation implements PortImpl<TruncationPort> {
  private readonly statements: StatementCache;
  private vacuumPages = VACUUM_PAGES.start;

  constructor(
    private readonly db: Database.Database,
    private readonly ts: SqliteTimeseries,
    private readonly tasks: SqliteTasks,
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

  /** Ends a step inside its transaction: a step that changed something is counted on its task before the commit. */
  private stepDone(step: TruncationStep, task: TaskRef | undefined): TruncationStep {
    if (task && changedSomething(step)) this.tasks.recordStep(task, step);
    return step;
  }

  /**
   * Takes whole partitions out of the index: one metadata change, no DDL. Their
   * tables are listed in ts_retired and dropped by reclaim(), off the task's path.
   */
  retireTimeseriesPartitionsBefore(ref: TimeseriesIndexRef, before: number, budget: { maxPartitions: number }, task?: TaskRef): TruncationStep {
    const id = this.ts.indexId(ref, false);
    if (id === undefined) return NOTHING;
    try {
      return this.db
        .transaction((): TruncationStep => {
          const whole = this.sql(
            'SELECT start_ms, row_count, generation FROM ts_partitions WHERE index_id = ? AND start_ms <= ? ORDER BY start_ms LIMIT ?',
          ).all(id, before - PARTITION_MILLIS, budget.maxPartitions) as PartitionRow[];
          const now = Date.now();
          let rows = 0;
          for (const p of whole) {
            this.retire(id, p, now, task);
            rows += p.row_count;
          }
          return this.stepDone({ rows, partitionsDropped: whole.length, freedBytes: 0 }, task);
        })
        .immediate();
    } finally {
      this.ts.resetCaches();
    }
  }

  private retire(id: number, p: PartitionRow, now: number, task: TaskRef | undefined): void {
    this.sql('INSERT INTO ts_retired (index_id, start_ms, generation, row_count, retired_at, task_number) VALUES (?, ?, ?, ?, ?, ?)').run(
      id,
      p.start_ms,
      p.generation,
      p.row_count,
      now,
      task?.number ?? null,
    );
    this.sql('DELETE FROM ts_partitions WHERE index_id = ? AND start_ms = ?').run(id, p.start_ms);
    this.sql(bySqliteNames(DELETE_BUCKETS_SQL)).run({ id, start: p.start_ms, gen: p.generation });
  }

  trimTimeseriesBoundary(ref: TimeseriesIndexRef, before: number, task?: TaskRef): TruncationStep {
    const id = this.ts.indexId(ref, false);
    const start = partitionStart(before);
    if (id === undefined || start === before) return NOTHING;
    let rewritten = false;
    try {
      return this.db
        .transaction((): TruncationStep => {
          const part = this.ts.partition(id, start);
          if (!part) return NOTHING;
          const table = SqliteTimeseries.table(id, part);
          const doomed = (this.sql(`SELECT COUNT(*) AS n FROM "${table}" WHERE ts < ?`).get(before) as { n: number }).n;
          if (doomed === 0) return NOTHING;
          const used = this.usedPages();
          if (rewriteBoundary(doomed, part.row_count - doomed)) {
            // Far more goes than stays: copy the rest into the day's next generation and retire this one, which
            // reclaim drops later; copying is cheaper than deleting and leaves no half-empty pages.
            rewritten = true;
            const generation = this.ts.nextGeneration(id, start);
            const fresh = partitionTable(id, start, generation);
            this.db.exec(partitionTableSql(fresh));
            this.db.exec(`DROP INDEX "${fresh}_urn"`);
            this.db.prepare(`INSERT INTO "${fresh}" SELECT * FROM "${table}" WHERE ts >= ? ORDER BY ts, doc_id`).run(before);
            this.db.exec(partitionTableSql(fresh));
            this.retire(id, part, Date.now(), task);
            this.sql('INSERT INTO ts_partitions (index_id, start_ms, row_count, generation, bucketed) VALUES (?, ?, ?, ?, 1)').run(
              id,
              start,
              part.row_count - doomed,
              generation,
            );
            this.sql(bySqliteNames(recountBucketsSql(`"${fresh}"`))).run({ id, start, gen: generation });
          } else {
            this.sql(`DELETE FROM "${table}" WHERE ts < ?`).run(before);
            this.sql('UPDATE ts_partitions SET row_count = row_count - ? WHERE index_id = ? AND start_ms = ?').run(doomed, id, start);
            // The buckets before the cutoff's are empty now, and the cutoff's holds what is left of it.
            const bucket = bucketOf(before);
            const left = (
              this.sql(`SELECT COUNT(*) AS n FROM "${table}" WHERE ts >= ? AND ts < ?`).get(before, start + (bucket + 1) * BUCKET_MILLIS) as {
                n: number;
              }
            ).n;
            for (const statement of TRIM_BUCKETS_SQL) this.sql(bySqliteNames(statement)).run({ id, start, gen: part.generation, bucket, left });
          }
          // A rewrite adds the new generation's pages now; the retired table's come back when reclaim drops it.
          return this.stepDone({ rows: doomed, partitionsDropped: 0, freedBytes: (used - this.usedPages()) * this.pragmaNumber('page_size') }, task);
        })
        .immediate();
    } finally {
      if (rewritten) this.ts.resetCaches();
    }
  }

  deleteTimeseriesRowsBefore(ref: TimeseriesIndexRef, before: number, limit: number, task?: TaskRef): TruncationStep {
    const id = this.ts.indexId(ref, false);
    if (id === undefined) return NOTHING;
    return this.db
      .transaction((): TruncationStep => {
        const parts = this.sql(
          'SELECT start_ms, row_count, generation FROM ts_partitions WHERE index_id = ? AND start_ms < ? AND row_count > 0 ORDER BY start_ms',
        ).all(id, before) as PartitionRow[];
        const used = this.usedPages();
        let rows = 0;
        for (const p of parts) {
          if (rows >= limit) break;
          const table = SqliteTimeseries.table(id, p);
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

  /**
   * For about `maxMillis`: drops the task's retired tables (their bytes are the
   * freed bytes), then those no live task will drop, then moves live pages down
   * and shortens the file. The free list is the whole file's, so this gives back
   * space freed by any deletion, not only this index's.
   */
  reclaimTimeseriesSpace(ref: TimeseriesIndexRef, _before: number, maxMillis: number, task?: TaskRef): ReclaimStep {
    const started = performance.now();
    const id = this.ts.indexId(ref, false);
    if (id === undefined) return { freedBytes: 0, reclaimedBytes: 0, done: true };
    const freedBytes = this.dropRetired(id, RETIRED_BY_TASK, [task?.number ?? null], started, maxMillis);
    this.dropRetired(id, ABANDONED, [], started, maxMillis);
    const pagesBefore = this.pragmaNumber('page_count');
    // A file made without auto_vacuum = INCREMENTAL (it must be set before the first table) cannot shrink this way.
    const shrinkable = this.pragmaNumber('auto_vacuum') === AUTO_VACUUM_INCREMENTAL;
    while (shrinkable && this.pragmaNumber('freelist_count') > 0 && performance.now() - started < maxMillis) {
      const callStarted = performance.now();
      this.db.pragma(`incremental_vacuum(${this.vacuumPages})`);
      const took = performance.now() - callStarted;
      if (took > maxMillis / 2) this.vacuumPages = Math.max(VACUUM_PAGES.min, this.vacuumPages >> 1);
      else if (took < maxMillis / 8) this.vacuumPages = Math.min(VACUUM_PAGES.max, this.vacuumPages << 1);
    }
    const retiredLeft =
      this.sql(`SELECT 1 FROM ts_retired WHERE index_id = ? AND (${RETIRED_BY_TASK} OR ${ABANDONED}) LIMIT 1`).get(id, task?.number ?? null) !==
      undefined;
    return {
      freedBytes,
      reclaimedBytes: (pagesBefore - this.pragmaNumber('page_count')) * this.pragmaNumber('page_size'),
      done: !retiredLeft && (!shrinkable || this.pragmaNumber('freelist_count') === 0),
    };
  }

  /** Drops the retired tables that `which` selects, oldest first, until the time is up; returns the bytes their pages held. */
  private dropRetired(id: number, which: string, params: unknown[], started: number, maxMillis: number): number {
    const retired = this.sql(`SELECT start_ms, generation FROM ts_retired WHERE index_id = ? AND ${which} ORDER BY start_ms, generation`).all(
      id,
      ...params,
    ) as Array<Pick<PartitionRow, 'start_ms' | 'generation'>>;
    if (retired.length === 0) return 0;
    const mmapBefore = this.pragmaNumber('mmap_size');
    this.db.pragma(`mmap_size = ${DROP_MMAP_BYTES}`);
    try {
      return this.db
        .transaction((): number => {
          const used = this.usedPages();
          let dropped = 0;
          for (const p of retired) {
            if (dropped > 0 && performance.now() - started > maxMillis) break;
            this.db.exec(`DROP TABLE IF EXISTS "${SqliteTimeseries.table(id, p)}"`);
            this.sql('DELETE FROM ts_retired WHERE index_id = ? AND start_ms = ? AND generation = ?').run(id, p.start_ms, p.generation);
            dropped++;
          }
          return (used - this.usedPages()) * this.pragmaNumber('page_size');
        })
        .immediate();
    } finally {
      // Statements naming a dropped table must not be reused.
      this.statements.clear();
      this.ts.resetCaches();
      this.db.pragma(`mmap_size = ${mmapBefore}`);
    }
  }

  /** dbstat reads every page of the file: on a file-backed database it runs on a worker thread. */
  async timeseriesIndexSizeBytes(ref: TimeseriesIndexRef): Promise<number> {
    const id = this.ts.indexId(ref, false);
    if (id === undefined) return 0;
    const sizes = await this.ts.tableSizes();
    const tables = new Set(this.ts.liveTables(id).flatMap((t) => [t, `${t}_urn`]));
    return sizes.filter((r) => tables.has(r.name)).reduce((sum, r) => sum + r.bytes, 0);
  }
}
