import type pg from 'pg';
import { BUCKET_MILLIS, bucketOf, PARTITION_MILLIS, partitionStart, partitionTable } from '../partitions.ts';
import { recountBucketsSql, TRIM_BUCKETS_SQL } from '../bucket-sql.ts';
import type { ReclaimStep, TaskRef, TimeseriesIndexRef, TruncationStep } from '../store.ts';
import { ABANDONED, changedSomething, rewriteBoundary } from '../truncation-step.ts';
import type { PortImpl } from '../compose-store.ts';
import type { TruncationPort } from '../ports/truncation.ts';
import { partitionTableSql, urnIndexSql } from './migrations.ts';
import { runNamed } from './named-query.ts';
import { takeConnection } from './transaction.ts';
import { PostgresTasks } from './tasks.ts';
import { type PartitionRow, PostgresTimeseries } from './timeseries.ts';

const NOTHING: TruncationStep = { rows: 0, partitionsDropped: 0, freedBytes: 0 };
const LOCK_NOT_AVAILABLE = '55P03';
/**
 * A waiting ACCESS EXCLUSIVE request (DROP TABLE in reclaim) queues every later
 * reader of the table behind it, so the wait is kept short and retried rather
 * than left open. Row locks on ts_partitions are held only by short write
 * transactions.
 */
const LOCK_WAIT = "SET LOCAL lock_timeout = '500ms'";
const LOCK_ATTEMPTS = 20;
/** Retired tables dropped per transaction: each costs the commit a few file truncations. */
const DROPS_PER_COMMIT = 16;

/**
 * Truncation on PostgreSQL. The task retires whole day partitions with one
 * metadata change (no DDL), and trims the boundary day by deleting its older
 * rows or, when that saves more deletions than a new table costs
 * (rewriteBoundary), copying the rest into a new generation.
 * reclaim() later drops the retired tables (DROP TABLE unlinks their files at
 * commit, a few milliseconds each whatever their size) and VACUUMs what row
 * deletions left behind.
 */
export class PostgresTruncation implements PortImpl<TruncationPort> {
  constructor(
    private readonly pool: pg.Pool,
    private readonly ts: PostgresTimeseries,
  ) {}

  /** A step's transaction; a step that changed something is counted on its task before the commit. */
  private step(task: TaskRef | undefined, fn: (c: pg.PoolClient) => Promise<TruncationStep>): Promise<TruncationStep> {
    return this.tx(async (c) => {
      const step = await fn(c);
      if (task && changedSomething(step)) await PostgresTasks.recordStep(c, task, step);
      return step;
    });
  }

  private async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const { client: c, release } = await takeConnection(this.pool);
      try {
        await c.query('BEGIN');
        await c.query(LOCK_WAIT);
        const result = await fn(c);
        await c.query('COMMIT');
        return result;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        if ((e as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= LOCK_ATTEMPTS) throw e;
      } finally {
        release();
      }
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }

  private static async retire(c: pg.PoolClient, id: number, starts: readonly number[], task: TaskRef | undefined): Promise<number> {
    const r = await c.query<{ rows: number }>(
      `WITH gone AS (DELETE FROM ts_partitions WHERE index_id = $1 AND start_ms = ANY($2::bigint[]) RETURNING index_id, start_ms, generation, row_count),
            listed AS (INSERT INTO ts_retired (index_id, start_ms, generation, row_count, retired_at, task_number)
                       SELECT index_id, start_ms, generation, row_count, $3, $4 FROM gone RETURNING row_count),
            buckets AS (DELETE FROM ts_buckets b USING gone
                         WHERE b.index_id = gone.index_id AND b.start_ms = gone.start_ms AND b.generation = gone.generation)
       SELECT COALESCE(SUM(row_count), 0)::bigint AS rows FROM listed`,
      [id, starts, Date.now(), task?.number ?? null],
    );
    return r.rows[0]!.rows;
  }

  async retireTimeseriesPartitionsBefore(
    ref: TimeseriesIndexRef,
    before: number,
    budget: { maxPartitions: number },
    task?: TaskRef,
  ): Promise<TruncationStep> {
    const id = await this.ts.indexId(ref, false);
    if (id === undefined) return NOTHING;
    const step = await this.step(task, async (c) => {
      // Row locks in start order, as writers take them: a writer of one of these days finishes first, or waits and
      // then finds the day gone and writes into a new generation.
      const whole = await c.query<{ start_ms: number }>(
        'SELECT start_ms FROM ts_partitions WHERE index_id = $1 AND start_ms <= $2 ORDER BY start_ms LIMIT $3 FOR UPDATE',
        [id, before - PARTITION_MILLIS, budget.maxPartitions],
      );
      if (whole.rows.length === 0) return NOTHING;
      const rows = await PostgresTruncation.retire(
        c,
        id,
        whole.rows.map((p) => p.start_ms),
        task,
      );
      return { rows, partitionsDropped: whole.rows.length, freedBytes: 0 };
    });
    if (step.partitionsDropped > 0) this.ts.resetCaches();
    return step;
  }

  async trimTimeseriesBoundary(ref: TimeseriesIndexRef, before: number, task?: TaskRef): Promise<TruncationStep> {
    const id = await this.ts.indexId(ref, false);
    const start = partitionStart(before);
    if (id === undefined || start === before) return NOTHING;
    let rewritten = false;
    const step = await this.step(task, async (c) => {
      const found = await c.query<PartitionRow>(
        'SELECT start_ms, row_count, generation FROM ts_partitions WHERE index_id = $1 AND start_ms = $2 FOR UPDATE',
        [id, start],
      );
      const part = found.rows[0];
      if (!part) return NOTHING;
      const table = PostgresTimeseries.table(id, part);
      const doomed = (await c.query<{ n: number }>(`SELECT COUNT(*)::bigint AS n FROM ${table} WHERE ts < $1`, [before])).rows[0]!.n;
      if (doomed === 0) return NOTHING;
      if (rewriteBoundary(doomed, part.row_count - doomed)) {
        // Far more goes than stays: copy the rest into the day's next generation and retire this one, which reclaim
        // drops later. Copying is cheaper than deleting and leaves no dead tuples.
        rewritten = true;
        const generation = Number((await c.query<{ g: number }>("SELECT nextval('ts_generations') AS g")).rows[0]!.g);
        const fresh = partitionTable(id, start, generation);
        await c.query(partitionTableSql(fresh, false));
        await c.query(`INSERT INTO ${fresh} SELECT * FROM ${table} WHERE ts >= $1 ORDER BY ts, doc_id`, [before]);
        await c.query(urnIndexSql(fresh));
        await PostgresTruncation.retire(c, id, [start], task);
        await c.query('INSERT INTO ts_partitions (index_id, start_ms, row_count, generation, bucketed) VALUES ($1, $2, $3, $4, 1)', [
          id,
          start,
          part.row_count - doomed,
          generation,
        ]);
        await runNamed(c, recountBucketsSql(fresh), { id, start, gen: generation });
        // The new generation's bytes count against the step; the retired table's come back when reclaim drops it.
        return { rows: doomed, partitionsDropped: 0, freedBytes: -(await PostgresTimeseries.sizeOf(c, [fresh])) };
      }
      await c.query(`DELETE FROM ${table} WHERE ts < $1`, [before]);
      await c.query('UPDATE ts_partitions SET row_count = row_count - $1 WHERE index_id = $2 AND start_ms = $3', [doomed, id, start]);
      // The buckets before the cutoff's are empty now, and the cutoff's holds what is left of it.
      const bucket = bucketOf(before);
      const left = (
        await c.query<{ n: number }>(`SELECT COUNT(*)::bigint AS n FROM ${table} WHERE ts >= $1 AND ts < $2`, [
          before,
          start + (bucket + 1) * BUCKET_MILLIS,
        ])
      ).rows[0]!.n;
      for (const statement of TRIM_BUCKETS_SQL) await runNamed(c, statement, { id, start, gen: part.generation, bucket, left });
      // Deleted tuples keep their space until VACUUM, which reclaim() runs.
      return { rows: doomed, partitionsDropped: 0, freedBytes: 0 };
    });
    if (rewritten) this.ts.resetCaches();
    return step;
  }

  async deleteTimeseriesRowsBefore(ref: TimeseriesIndexRef, before: number, limit: number, task?: TaskRef): Promise<TruncationStep> {
    const id = await this.ts.indexId(ref, false);
    if (id === undefined) return NOTHING;
    return this.step(task, async (c) => {
      const parts = await c.query<PartitionRow>(
        'SELECT start_ms, row_count, generation FROM ts_partitions WHERE index_id = $1 AND start_ms < $2 AND row_count > 0 ORDER BY start_ms',
        [id, before],
      );
      let rows = 0;
      for (const candidate of parts.rows) {
        if (rows >= limit) break;
        // Locked before its rows, in start order, as writers do; re-read in case it changed meanwhile.
        const locked = await c.query<PartitionRow>(
          'SELECT start_ms, row_count, generation FROM ts_partitions WHERE index_id = $1 AND start_ms = $2 FOR UPDATE',
          [id, candidate.start_ms],
        );
        const p = locked.rows[0];
        if (!p) continue;
        const table = PostgresTimeseries.table(id, p);
        const r = await c.query(
          `DELETE FROM ${table} WHERE (ts, doc_id) IN (SELECT ts, doc_id FROM ${table} WHERE ts < $1 ORDER BY ts, doc_id LIMIT $2)`,
          [before, limit - rows],
        );
        const n = r.rowCount ?? 0;
        if (n > 0) await c.query('UPDATE ts_partitions SET row_count = row_count - $1 WHERE index_id = $2 AND start_ms = $3', [n, id, p.start_ms]);
        rows += n;
      }
      // Deleted tuples keep their space until VACUUM, which reclaim() runs.
      return { rows, partitionsDropped: 0, freedBytes: 0 };
    });
  }

  /**
   * Drops retired tables a commit at a time for about `maxMillis`: the task's
   * own first (their bytes are the freed bytes), then those no live task will
   * drop. Once none is left, VACUUMs the live partitions that start before the
   * cutoff, where row deletions left dead tuples.
   */
  async reclaimTimeseriesSpace(ref: TimeseriesIndexRef, before: number, maxMillis: number, task?: TaskRef): Promise<ReclaimStep> {
    const id = await this.ts.indexId(ref, false);
    if (id === undefined) return { freedBytes: 0, reclaimedBytes: 0, done: true };
    const started = performance.now();
    let freedBytes = 0;
    let reclaimedBytes = 0;
    for (const own of [true, false]) {
      for (;;) {
        const dropped = await this.dropRetired(
          id,
          own ? 'task_number IS NOT DISTINCT FROM $3::bigint' : ABANDONED,
          own ? [task?.number ?? null] : [],
        );
        if (dropped === undefined) break;
        if (own) freedBytes += dropped;
        // A dropped table's files go back to the file system at its commit.
        reclaimedBytes += dropped;
        if (performance.now() - started > maxMillis) return { freedBytes, reclaimedBytes, done: false };
      }
    }
    return { freedBytes, reclaimedBytes: reclaimedBytes + (await this.vacuumBefore(id, before)), done: true };
  }

  /** Drops up to DROPS_PER_COMMIT retired tables that `which` selects, in one transaction; undefined when none is left. */
  private dropRetired(id: number, which: string, params: unknown[]): Promise<number | undefined> {
    return this.tx(async (c) => {
      const batch = await c.query<Pick<PartitionRow, 'start_ms' | 'generation'>>(
        `SELECT start_ms, generation FROM ts_retired WHERE index_id = $1 AND ${which}
          ORDER BY start_ms, generation LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [id, DROPS_PER_COMMIT, ...params],
      );
      if (batch.rows.length === 0) return undefined;
      const tables = batch.rows.map((p) => PostgresTimeseries.table(id, p));
      const bytes = await PostgresTimeseries.sizeOf(c, tables);
      await c.query(`DROP TABLE IF EXISTS ${tables.join(', ')}`);
      await c.query('DELETE FROM ts_retired WHERE index_id = $1 AND (start_ms, generation) IN (SELECT * FROM unnest($2::bigint[], $3::bigint[]))', [
        id,
        batch.rows.map((p) => p.start_ms),
        batch.rows.map((p) => p.generation),
      ]);
      return bytes;
    });
  }

  private async vacuumBefore(id: number, before: number): Promise<number> {
    const parts = await this.pool.query<PartitionRow>(
      'SELECT start_ms, row_count, generation FROM ts_partitions WHERE index_id = $1 AND start_ms < $2',
      [id, before],
    );
    const tables = parts.rows.map((p) => PostgresTimeseries.table(id, p));
    if (tables.length === 0) return 0;
    const sizeBefore = await PostgresTimeseries.sizeOf(this.pool, tables);
    // VACUUM cannot run in a transaction; a partition rewritten or retired meanwhile is simply skipped.
    for (const t of tables) await this.pool.query(`VACUUM ${t}`).catch(() => undefined);
    // VACUUM may add free-space and visibility maps: bytes given back never count below zero.
    return Math.max(0, sizeBefore - (await PostgresTimeseries.sizeOf(this.pool, tables)));
  }

  async timeseriesIndexSizeBytes(ref: TimeseriesIndexRef): Promise<number> {
    const id = await this.ts.indexId(ref, false);
    if (id === undefined) return 0;
    return PostgresTimeseries.sizeOf(this.pool, await this.ts.liveTables(id));
  }
}
