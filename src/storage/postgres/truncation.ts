import type pg from 'pg';
import { PARTITION_MILLIS, partitionStart } from '../partitions.ts';
import type { TaskRef, TimeseriesIndexRef, TruncationStep } from '../store.ts';
import { changedSomething } from '../truncation-step.ts';
import { PostgresTasks } from './tasks.ts';
import { PostgresTimeseries } from './timeseries.ts';

const NOTHING: TruncationStep = { rows: 0, partitionsDropped: 0, freedBytes: 0 };
const LOCK_NOT_AVAILABLE = '55P03';
/**
 * A waiting ACCESS EXCLUSIVE request queues every later reader and writer of the
 * index behind it, so the wait is kept short and retried rather than left open.
 */
const LOCK_WAIT = "SET LOCAL lock_timeout = '500ms'";
const LOCK_ATTEMPTS = 20;
const DROPS_PER_STATEMENT = 16;

/**
 * Truncation on PostgreSQL: a day partition is dropped with DROP TABLE (its files
 * are unlinked at commit, whatever its row count), the boundary partition is
 * emptied by DELETE or rewritten under TRUNCATE, and delete-by-query removes the
 * oldest rows in batches.
 */
export class PostgresTruncation {
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
      const c = await this.pool.connect();
      try {
        await c.query('BEGIN');
        const result = await fn(c);
        await c.query('COMMIT');
        return result;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        if ((e as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= LOCK_ATTEMPTS) throw e;
      } finally {
        c.release();
      }
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }

  private static async sizeOf(c: pg.PoolClient, tables: readonly string[]): Promise<number> {
    const r = await c.query<{ bytes: number }>(
      'SELECT COALESCE(SUM(pg_total_relation_size(to_regclass(t))), 0)::bigint AS bytes FROM unnest($1::text[]) AS t',
      [tables],
    );
    return r.rows[0]!.bytes;
  }

  async dropPartitionsBefore(
    ref: TimeseriesIndexRef,
    before: number,
    budget: { maxPartitions: number; maxMillis: number },
    task?: TaskRef,
  ): Promise<TruncationStep> {
    const id = await this.ts.indexId(ref, false);
    if (id === undefined) return NOTHING;
    const step = await this.step(task, async (c) => {
      const started = performance.now();
      await c.query(LOCK_WAIT);
      // Writers lock the parent before any partition, so taking it first cannot deadlock with them;
      // once held, no transaction is half-way through changing these partitions' row counts.
      await c.query(`LOCK TABLE ONLY ${PostgresTimeseries.parentTable(id)} IN ACCESS EXCLUSIVE MODE`);
      const whole = await c.query<{ start_ms: number; row_count: number }>(
        'SELECT start_ms, row_count FROM ts_partitions WHERE index_id = $1 AND start_ms <= $2 ORDER BY start_ms LIMIT $3',
        [id, before - PARTITION_MILLIS, budget.maxPartitions],
      );
      let rows = 0;
      let dropped = 0;
      let freedBytes = 0;
      for (let i = 0; i < whole.rows.length; i += DROPS_PER_STATEMENT) {
        if (dropped > 0 && performance.now() - started > budget.maxMillis) break;
        const chunk = whole.rows.slice(i, i + DROPS_PER_STATEMENT);
        const tables = chunk.map((p) => PostgresTimeseries.partitionTable(id, p.start_ms));
        freedBytes += await PostgresTruncation.sizeOf(c, tables);
        await c.query(`DROP TABLE IF EXISTS ${tables.join(', ')}`);
        await c.query('DELETE FROM ts_partitions WHERE index_id = $1 AND start_ms = ANY($2::bigint[])', [id, chunk.map((p) => p.start_ms)]);
        rows += chunk.reduce((n, p) => n + p.row_count, 0);
        dropped += chunk.length;
      }
      return { rows, partitionsDropped: dropped, freedBytes };
    });
    if (step.partitionsDropped > 0) this.ts.resetCaches();
    return step;
  }

  async trimBoundary(ref: TimeseriesIndexRef, before: number, task?: TaskRef): Promise<TruncationStep> {
    const id = await this.ts.indexId(ref, false);
    const start = partitionStart(before);
    if (id === undefined || start === before) return NOTHING;
    const table = PostgresTimeseries.partitionTable(id, start);
    return this.step(task, async (c) => {
      const exists = await c.query('SELECT 1 FROM ts_partitions WHERE index_id = $1 AND start_ms = $2', [id, start]);
      if (exists.rows.length === 0) return NOTHING;
      await c.query(LOCK_WAIT);
      await c.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      const counts = await c.query<{ doomed: number; kept: number }>(
        `SELECT COUNT(*) FILTER (WHERE ts < $1)::bigint AS doomed, COUNT(*) FILTER (WHERE ts >= $1)::bigint AS kept FROM ${table}`,
        [before],
      );
      const { doomed, kept } = counts.rows[0]!;
      if (doomed === 0) return NOTHING;
      const sizeBefore = await PostgresTruncation.sizeOf(c, [table]);
      if (doomed > kept) {
        // Most of the day goes: keep the rest aside and TRUNCATE, which gives the files back at once.
        await c.query(`CREATE TEMP TABLE almanac_kept ON COMMIT DROP AS SELECT * FROM ${table} WHERE ts >= $1`, [before]);
        await c.query(`TRUNCATE ${table}`);
        await c.query(`INSERT INTO ${table} SELECT * FROM almanac_kept`);
      } else {
        await c.query(`DELETE FROM ${table} WHERE ts < $1`, [before]);
      }
      await c.query('UPDATE ts_partitions SET row_count = row_count - $1 WHERE index_id = $2 AND start_ms = $3', [doomed, id, start]);
      return { rows: doomed, partitionsDropped: 0, freedBytes: sizeBefore - (await PostgresTruncation.sizeOf(c, [table])) };
    });
  }

  async deleteRowsBefore(ref: TimeseriesIndexRef, before: number, limit: number, task?: TaskRef): Promise<TruncationStep> {
    const id = await this.ts.indexId(ref, false);
    if (id === undefined) return NOTHING;
    const parent = PostgresTimeseries.parentTable(id);
    return this.step(task, async (c) => {
      const r = await c.query<{ start_ms: number; n: number }>(
        `WITH victims AS (SELECT ts, doc_id FROM ${parent} WHERE ts < $1 ORDER BY ts, doc_id LIMIT $2),
              gone AS (DELETE FROM ${parent} t USING victims v WHERE t.ts = v.ts AND t.doc_id = v.doc_id RETURNING t.ts)
         SELECT (floor(ts / $3::float8) * $3)::bigint AS start_ms, COUNT(*)::bigint AS n FROM gone GROUP BY 1`,
        [before, limit, PARTITION_MILLIS],
      );
      let rows = 0;
      for (const { start_ms, n } of r.rows) {
        await c.query('UPDATE ts_partitions SET row_count = row_count - $1 WHERE index_id = $2 AND start_ms = $3', [n, id, start_ms]);
        rows += n;
      }
      // Deleted tuples keep their space until VACUUM, which reclaim() runs.
      return { rows, partitionsDropped: 0, freedBytes: 0 };
    });
  }

  /** VACUUMs what deletions may have left dead tuples in: the partitions that start before the cutoff. */
  async reclaim(ref: TimeseriesIndexRef, before: number): Promise<{ reclaimedBytes: number; done: boolean }> {
    const id = await this.ts.indexId(ref, false);
    if (id === undefined) return { reclaimedBytes: 0, done: true };
    const parts = await this.pool.query<{ start_ms: number }>('SELECT start_ms FROM ts_partitions WHERE index_id = $1 AND start_ms < $2', [id, before]);
    const tables = parts.rows.map((p) => PostgresTimeseries.partitionTable(id, p.start_ms));
    if (tables.length === 0) return { reclaimedBytes: 0, done: true };
    const size = async () =>
      (
        await this.pool.query<{ bytes: number }>(
          'SELECT COALESCE(SUM(pg_total_relation_size(to_regclass(t))), 0)::bigint AS bytes FROM unnest($1::text[]) AS t',
          [tables],
        )
      ).rows[0]!.bytes;
    const sizeBefore = await size();
    // VACUUM cannot run in a transaction; a partition dropped meanwhile is simply skipped.
    for (const t of tables) await this.pool.query(`VACUUM ${t}`).catch(() => undefined);
    // VACUUM may add free-space and visibility maps: bytes given back never count below zero.
    return { reclaimedBytes: Math.max(0, sizeBefore - (await size())), done: true };
  }

  async indexSizeBytes(ref: TimeseriesIndexRef): Promise<number> {
    const id = await this.ts.indexId(ref, false);
    if (id === undefined) return 0;
    const r = await this.pool.query<{ bytes: number }>(
      `SELECT COALESCE(SUM(pg_total_relation_size(relid)), 0)::bigint AS bytes
         FROM pg_partition_tree(to_regclass($1))`,
      [PostgresTimeseries.parentTable(id)],
    );
    return r.rows[0]?.bytes ?? 0;
  }
}
