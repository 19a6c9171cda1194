import type pg from 'pg';
import { BUCKET_MILLIS, bucketOf, PARTITION_MILLIS, partitionEnd, partitionStart, partitionTable } from '../partitions.ts';
import { BUCKET_SUMS_SQL, bucketCounts, DELETE_BUCKETS_SQL, MARK_BUCKETED_SQL, recountBucketsSql } from '../bucket-sql.ts';
import { fromJsonText, fromJsonTextRequired } from '../json.ts';
import type {
  TimeseriesEvent,
  TimeseriesIndexRef,
  TimeseriesIndexStats,
  TimeseriesPartition,
  TimeseriesQuery,
  TimeseriesRowScope,
} from '../store.ts';
import type { PortImpl } from '../compose-store.ts';
import type { TimeseriesPort } from '../ports/timeseries.ts';
import { partitionTableSql } from './migrations.ts';
import { runNamed } from './named-query.ts';
import { atCommit, inTransaction, type CommitPart } from './transaction.ts';

type Queryable = pg.Pool | pg.PoolClient;
type TimeseriesOp = TimeseriesIndexRef & TimeseriesEvent;

export interface PartitionRow {
  start_ms: number;
  row_count: number;
  generation: number;
}

/** The partition's and its buckets' row counts, raised by the rows a write inserted (values: n, index, start, generation, buckets, counts). */
const countsPart = (values: readonly unknown[]): CommitPart => ({
  with: (name, param) => `${name('b')} AS (INSERT INTO ts_buckets (index_id, start_ms, generation, bucket, row_count)
      SELECT ${param(2)}, ${param(3)}, ${param(4)}, u.bucket, u.n FROM unnest(${param(5)}::int[], ${param(6)}::bigint[]) AS u(bucket, n)
      ON CONFLICT (index_id, start_ms, generation, bucket) DO UPDATE SET row_count = ts_buckets.row_count + excluded.row_count),
    ${name('p')} AS (UPDATE ts_partitions SET row_count = row_count + ${param(1)} WHERE index_id = ${param(2)} AND start_ms = ${param(3)})`,
  values,
});

/** Another process (a truncation) took a partition out between prepare() and the write: the store retries. */
export class PartitionMoved extends Error {}

const UNDEFINED_TABLE = '42P01';
/** Partitions read per statement by a range query, newest first, until the limit is met. */
const QUERY_CHUNK = 32;
/** Partition tables touched per statement when an entity's rows are deleted. */
const DELETE_CHUNK = 64;

/**
 * Timeseries indices on PostgreSQL: one plain table per (index, UTC day,
 * generation), the live one listed with its row count in ts_partitions. A
 * writer locks the rows of the days it writes (FOR NO KEY UPDATE, in start
 * order) and writes into the generations it finds there, so a truncation that
 * takes a day out (with FOR UPDATE) either waits for it or is seen by it.
 * Tables are created outside the write transaction; the caches here are hints.
 */
export class PostgresTimeseries implements PortImpl<TimeseriesPort> {
  private readonly indexIds = new Map<string, number>();
  /** `${indexId}:${startMillis}` of partitions seen live. */
  private readonly knownPartitions = new Set<string>();

  constructor(private readonly pool: pg.Pool) {}

  resetCaches(): void {
    this.knownPartitions.clear();
  }

  static table(indexId: number, p: Pick<PartitionRow, 'start_ms' | 'generation'>): string {
    return partitionTable(indexId, p.start_ms, p.generation);
  }

  async indexId(ref: TimeseriesIndexRef, create: boolean, db: Queryable = this.pool): Promise<number | undefined> {
    const key = `${ref.entityType}\u0000${ref.aspect}`;
    const cached = this.indexIds.get(key);
    if (cached !== undefined) return cached;
    if (create) {
      await db.query('INSERT INTO ts_indices (entity_type, aspect) VALUES ($1, $2) ON CONFLICT DO NOTHING', [ref.entityType, ref.aspect]);
    }
    const r = await db.query<{ id: number }>('SELECT id FROM ts_indices WHERE entity_type = $1 AND aspect = $2', [ref.entityType, ref.aspect]);
    const id = r.rows[0]?.id;
    if (id !== undefined) this.indexIds.set(key, id);
    return id;
  }

  /** Makes sure every day the batch touches has a live partition. */
  async prepare(ops: readonly TimeseriesOp[]): Promise<void> {
    for (const op of ops) {
      const id = (await this.indexId(op, true))!;
      const start = partitionStart(op.timestampMillis);
      const key = `${id}:${start}`;
      if (this.knownPartitions.has(key)) continue;
      const live = await this.pool.query('SELECT 1 FROM ts_partitions WHERE index_id = $1 AND start_ms = $2', [id, start]);
      if (live.rows.length === 0) await this.createPartition(id, start);
      this.knownPartitions.add(key);
    }
  }

  /** Creates the table first, then lists it: a listed partition always has its table. */
  private async createPartition(id: number, start: number): Promise<void> {
    const generation = Number((await this.pool.query<{ g: string }>("SELECT nextval('ts_generations') AS g")).rows[0]!.g);
    const table = partitionTable(id, start, generation);
    await this.pool.query(partitionTableSql(table));
    const listed = await this.pool.query(
      'INSERT INTO ts_partitions (index_id, start_ms, row_count, generation, bucketed) VALUES ($1, $2, 0, $3, 1) ON CONFLICT DO NOTHING RETURNING 1',
      [id, start, generation],
    );
    // Another process listed the day first: its table is the live one and this one was never used.
    if (listed.rows.length === 0) await this.pool.query(`DROP TABLE IF EXISTS ${table}`);
  }

  /** Upserts the events in the caller's transaction and updates the partition counts. */
  async upsert(client: pg.PoolClient, ops: readonly TimeseriesOp[]): Promise<void> {
    const byDay = new Map<string, { id: number; start: number; docs: Map<string, TimeseriesOp> }>();
    for (const op of ops) {
      const id = (await this.indexId(op, true, client))!;
      const start = partitionStart(op.timestampMillis);
      const key = `${id}:${start}`;
      const day = byDay.get(key) ?? { id, start, docs: new Map<string, TimeseriesOp>() };
      // One statement cannot touch a row twice: the last write of a doc wins, as it would in sequence.
      day.docs.set(`${op.timestampMillis}\u0000${op.docId}`, op);
      byDay.set(key, day);
    }
    const days = [...byDay.values()].sort((a, b) => a.id - b.id || a.start - b.start);
    const locked = await client.query<{ index_id: number; start_ms: number; generation: number }>(
      `SELECT p.index_id, p.start_ms, p.generation
         FROM ts_partitions p JOIN unnest($1::int[], $2::bigint[]) AS d(index_id, start_ms) USING (index_id, start_ms)
        ORDER BY p.index_id, p.start_ms FOR NO KEY UPDATE OF p`,
      [days.map((d) => d.id), days.map((d) => d.start)],
    );
    const generations = new Map(locked.rows.map((r) => [`${r.index_id}:${r.start_ms}`, r.generation]));
    for (const { id, start, docs } of days) {
      const generation = generations.get(`${id}:${start}`);
      if (generation === undefined) throw new PartitionMoved(`partition ${id}:${start} is no longer live`);
      const table = partitionTable(id, start, generation);
      const rows = [...docs.values()];
      const columns = (list: TimeseriesOp[]) => [
        list.map((o) => o.timestampMillis),
        list.map((o) => o.docId),
        list.map((o) => o.urn),
        list.map((o) => JSON.stringify(o.event)),
        list.map((o) => (o.systemMetadata === null ? null : JSON.stringify(o.systemMetadata))),
      ];
      const inserted = await client.query<{ ts: number; doc_id: string }>(
        `INSERT INTO ${table} (ts, doc_id, urn, event, system_metadata)
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[])
         ON CONFLICT (ts, doc_id) DO NOTHING RETURNING ts, doc_id`,
        columns(rows),
      );
      if (inserted.rows.length < rows.length) {
        const fresh = new Set(inserted.rows.map((r) => `${r.ts}\u0000${r.doc_id}`));
        const rest = rows.filter((o) => !fresh.has(`${o.timestampMillis}\u0000${o.docId}`));
        await client.query(
          `UPDATE ${table} t SET urn = u.urn, event = u.event, system_metadata = u.sm
             FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u(ts, doc_id, urn, event, sm)
            WHERE t.ts = u.ts AND t.doc_id = u.doc_id`,
          columns(rest),
        );
      }
      if (inserted.rows.length > 0) {
        const buckets = bucketCounts(inserted.rows.map((r) => Number(r.ts)));
        // Counted at the transaction's end, in the statement that appends the change log's entry (one round trip).
        atCommit(
          client,
          this,
          [countsPart([inserted.rows.length, id, start, generation, buckets.map(([b]) => b), buckets.map(([, n]) => n)])],
          async (_c, parts) => parts,
        );
      }
    }
  }

  private async partitions(indexId: number): Promise<PartitionRow[]> {
    const r = await this.pool.query<PartitionRow>('SELECT start_ms, row_count, generation FROM ts_partitions WHERE index_id = $1 ORDER BY start_ms', [
      indexId,
    ]);
    return r.rows;
  }

  async liveTables(indexId: number): Promise<string[]> {
    return (await this.partitions(indexId)).map((p) => PostgresTimeseries.table(indexId, p));
  }

  async listTimeseriesPartitions(ref: TimeseriesIndexRef): Promise<TimeseriesPartition[]> {
    const id = await this.indexId(ref, false);
    if (id === undefined) return [];
    return (await this.partitions(id)).map((p) => ({ startMillis: p.start_ms, endMillis: partitionEnd(p.start_ms), rowCount: p.row_count }));
  }

  /**
   * Runs a read over the tables of a partition listing. Reclaim may drop a table
   * retired after the listing was read: the read then starts over from a fresh one.
   */
  private async withLiveTables<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await read();
      } catch (e) {
        if ((e as { code?: string }).code !== UNDEFINED_TABLE || attempt >= 5) throw e;
      }
    }
  }

  async oldestTimestampFrom(ref: TimeseriesIndexRef, from: number): Promise<number | null> {
    const id = await this.indexId(ref, false);
    if (id === undefined) return null;
    return this.withLiveTables(async () => {
      for (const p of await this.partitions(id)) {
        if (p.row_count === 0 || partitionEnd(p.start_ms) <= from) continue;
        const r = await this.pool.query<{ ts: number | null }>(`SELECT MIN(ts) AS ts FROM ${PostgresTimeseries.table(id, p)} WHERE ts >= $1`, [from]);
        if (r.rows[0]!.ts !== null) return Number(r.rows[0]!.ts);
      }
      return null;
    });
  }

  async queryTimeseries(q: TimeseriesQuery): Promise<TimeseriesEvent[]> {
    const id = await this.indexId(q, false);
    if (id === undefined || q.limit <= 0) return [];
    const lo = q.startTimeMillis ?? Number.MIN_SAFE_INTEGER;
    const hi = q.endTimeMillis ?? Number.MAX_SAFE_INTEGER;
    return this.withLiveTables(async () => {
      const parts = await this.pool.query<PartitionRow>(
        `SELECT start_ms, row_count, generation FROM ts_partitions
          WHERE index_id = $1 AND start_ms + $2 > $3 AND start_ms <= $4 AND row_count > 0 ORDER BY start_ms DESC`,
        [id, partitionEnd(0), lo, hi],
      );
      const out: TimeseriesEvent[] = [];
      // Newest partitions first, a chunk per statement, stopping as soon as the limit is met.
      for (let i = 0; i < parts.rows.length && out.length < q.limit; i += QUERY_CHUNK) {
        const branches = parts.rows.slice(i, i + QUERY_CHUNK).map(
          (p) =>
            `(SELECT ts, doc_id, urn, event, system_metadata FROM ${PostgresTimeseries.table(id, p)}
                 WHERE urn = $1 AND ts >= $2 AND ts <= $3 ORDER BY ts DESC LIMIT $4)`,
        );
        // With a filter, every row of the urn in these partitions is read (LIMIT NULL) and the filter picks.
        const r = await this.pool.query<{ ts: number; doc_id: string; urn: string; event: string; system_metadata: string | null }>(
          `SELECT * FROM (${branches.join(' UNION ALL ')}) AS chunk ORDER BY ts DESC LIMIT $4`,
          [q.urn, lo, hi, q.match ? null : q.limit - out.length],
        );
        for (const row of r.rows) {
          const e: TimeseriesEvent = {
            urn: row.urn,
            timestampMillis: row.ts,
            docId: row.doc_id,
            event: fromJsonTextRequired(row.event),
            systemMetadata: fromJsonText(row.system_metadata),
          };
          if (out.length < q.limit && (!q.match || q.match(e))) out.push(e);
        }
      }
      return out;
    });
  }

  async countTimeseriesBefore(ref: TimeseriesIndexRef, before: number): Promise<{ matching: number; total: number }> {
    const id = await this.indexId(ref, false);
    if (id === undefined) return { matching: 0, total: 0 };
    const boundary = partitionStart(before);
    return this.withLiveTables(async () => {
      const r = await this.pool.query<{ total: number; whole: number; boundary_generation: number | null }>(
        `SELECT COALESCE(SUM(row_count), 0)::bigint AS total,
                COALESCE(SUM(row_count) FILTER (WHERE start_ms + $1 <= $2), 0)::bigint AS whole,
                MAX(generation) FILTER (WHERE start_ms = $3) AS boundary_generation
           FROM ts_partitions WHERE index_id = $4`,
        [partitionEnd(0), before, boundary, id],
      );
      const sums = r.rows[0]!;
      let matching = sums.whole;
      if (boundary < before && sums.boundary_generation !== null) {
        matching += await this.countInDay({ id, start: boundary, gen: Number(sums.boundary_generation) }, before);
      }
      return { matching, total: sums.total };
    });
  }

  /** Rows of the day before `before`: its buckets before the cutoff's, and a range count in that one bucket. */
  private async countInDay(key: { id: number; start: number; gen: number }, before: number, recounted = false): Promise<number> {
    const table = partitionTable(key.id, key.start, key.gen);
    const bucket = bucketOf(before);
    const sums = (await runNamed<{ exact: boolean; below: number }>(this.pool, BUCKET_SUMS_SQL, { ...key, bucket })).rows[0];
    if (!sums?.exact) {
      if (recounted || !sums) {
        return (await this.pool.query<{ n: number }>(`SELECT COUNT(*)::bigint AS n FROM ${table} WHERE ts < $1`, [before])).rows[0]!.n;
      }
      // Deleted rows or a day written before buckets existed: count its buckets again, once, with the day locked as writers lock it.
      await inTransaction(this.pool, async (c) => {
        const live = await c.query('SELECT 1 FROM ts_partitions WHERE index_id = $1 AND start_ms = $2 AND generation = $3 FOR NO KEY UPDATE', [
          key.id,
          key.start,
          key.gen,
        ]);
        if (live.rows.length === 0) return;
        await runNamed(c, DELETE_BUCKETS_SQL, key);
        await runNamed(c, recountBucketsSql(table), key);
        await runNamed(c, MARK_BUCKETED_SQL, key);
      });
      return this.countInDay(key, before, true);
    }
    const from = key.start + bucket * BUCKET_MILLIS;
    return (
      Number(sums.below) +
      (await this.pool.query<{ n: number }>(`SELECT COUNT(*)::bigint AS n FROM ${table} WHERE ts >= $1 AND ts < $2`, [from, before])).rows[0]!.n
    );
  }

  /** Deletes every event of one urn in every index, in the caller's transaction; returns the rows removed. */
  /** Deletes the urn's events in the scope (every index, or one; inside the window); returns the rows removed. */
  deleteTimeseriesRows(urn: string, scope: TimeseriesRowScope): Promise<number> {
    return inTransaction(this.pool, (c) => this.deleteUrnRows(c, urn, scope));
  }

  /** Inside the caller's transaction. */
  async deleteUrnRows(client: pg.PoolClient, urn: string, scope: TimeseriesRowScope = {}): Promise<number> {
    const lo = scope.startMillis ?? Number.MIN_SAFE_INTEGER;
    const hi = scope.endMillis ?? Number.MAX_SAFE_INTEGER;
    const ids = scope.index
      ? [await this.indexId(scope.index, false, client)].filter((id): id is number => id !== undefined)
      : (await client.query<{ id: number }>('SELECT id FROM ts_indices ORDER BY id')).rows.map((r) => r.id);
    let removed = 0;
    for (const id of ids) {
      // Locked in start order like writers do, so neither waits for a row the other holds.
      const parts = await client.query<PartitionRow>(
        `SELECT start_ms, row_count, generation FROM ts_partitions
          WHERE index_id = $1 AND row_count > 0 AND start_ms > $2::bigint - $4::bigint AND start_ms <= $3
          ORDER BY start_ms FOR NO KEY UPDATE`,
        [id, lo, hi, PARTITION_MILLIS],
      );
      for (let i = 0; i < parts.rows.length; i += DELETE_CHUNK) {
        const chunk = parts.rows.slice(i, i + DELETE_CHUNK);
        const ctes = chunk.map(
          (p, k) => `d${k} AS (DELETE FROM ${PostgresTimeseries.table(id, p)} WHERE urn = $1 AND ts >= $2 AND ts <= $3 RETURNING 1)`,
        );
        const counts = chunk.map((_, k) => `(SELECT COUNT(*) FROM d${k})::bigint`);
        const r = await client.query<{ n: number[] }>(`WITH ${ctes.join(', ')} SELECT ARRAY[${counts.join(', ')}] AS n`, [urn, lo, hi]);
        const n = r.rows[0]!.n.map(Number);
        const starts = chunk.filter((_, k) => n[k]! > 0).map((p) => p.start_ms);
        if (starts.length === 0) continue;
        const gone = n.filter((x) => x > 0);
        await client.query(
          `UPDATE ts_partitions p SET row_count = p.row_count - d.n
             FROM unnest($2::bigint[], $3::bigint[]) AS d(start_ms, n) WHERE p.index_id = $1 AND p.start_ms = d.start_ms`,
          [id, starts, gone],
        );
        removed += gone.reduce((a, b) => a + b, 0);
      }
    }
    return removed;
  }

  /** Every live day partition of every index, as (index, day) pairs. */
  async livePartitions(): Promise<Array<{ indexId: number; startMillis: number }>> {
    const r = await this.pool.query<{ index_id: number; start_ms: number }>(
      'SELECT index_id, start_ms FROM ts_partitions WHERE row_count > 0 ORDER BY index_id, start_ms',
    );
    return r.rows.map((row) => ({ indexId: row.index_id, startMillis: row.start_ms }));
  }

  /**
   * Deletes the rows of one day partition whose systemMetadata carries the run id, in the caller's transaction, with
   * the day locked as writers lock it; returns the rows removed. A day retired meanwhile has nothing left to delete.
   */
  async deleteRunRows(client: pg.PoolClient, day: { indexId: number; startMillis: number }, runId: string): Promise<number> {
    const p = await client.query<PartitionRow>(
      'SELECT start_ms, row_count, generation FROM ts_partitions WHERE index_id = $1 AND start_ms = $2 FOR NO KEY UPDATE',
      [day.indexId, day.startMillis],
    );
    const part = p.rows[0];
    if (!part || part.row_count === 0) return 0;
    // The substring test skips parsing the JSON of rows that cannot match.
    const r = await client.query(
      `DELETE FROM ${PostgresTimeseries.table(day.indexId, part)} WHERE strpos(system_metadata, $1) > 0 AND system_metadata::jsonb ->> 'runId' = $2`,
      [JSON.stringify(runId), runId],
    );
    const n = r.rowCount ?? 0;
    if (n > 0)
      await client.query('UPDATE ts_partitions SET row_count = row_count - $1 WHERE index_id = $2 AND start_ms = $3', [
        n,
        day.indexId,
        day.startMillis,
      ]);
    return n;
  }

  /** Bytes of the named tables with their indexes, TOAST and maps; a table dropped meanwhile counts 0. */
  static async sizeOf(db: Queryable, tables: readonly string[]): Promise<number> {
    if (tables.length === 0) return 0;
    const r = await db.query<{ bytes: number }>(
      'SELECT COALESCE(SUM(pg_total_relation_size(to_regclass(t))), 0)::bigint AS bytes FROM unnest($1::text[]) AS t',
      [tables],
    );
    return r.rows[0]!.bytes;
  }

  async timeseriesIndexStats(): Promise<TimeseriesIndexStats[]> {
    const indices = await this.pool.query<{ id: number; entity_type: string; aspect: string }>(
      'SELECT id, entity_type, aspect FROM ts_indices ORDER BY entity_type, aspect',
    );
    const out: TimeseriesIndexStats[] = [];
    for (const ix of indices.rows) {
      out.push(
        await this.withLiveTables(async () => {
          const parts = await this.partitions(ix.id);
          const nonEmpty = parts.filter((p) => p.row_count > 0);
          const edge = async (p: PartitionRow | undefined, order: 'MIN' | 'MAX'): Promise<number | null> =>
            p
              ? ((await this.pool.query<{ t: number | null }>(`SELECT ${order}(ts) AS t FROM ${PostgresTimeseries.table(ix.id, p)}`)).rows[0]!.t ??
                null)
              : null;
          return {
            entityType: ix.entity_type,
            aspect: ix.aspect,
            rowCount: nonEmpty.reduce((n, p) => n + p.row_count, 0),
            sizeBytes: await PostgresTimeseries.sizeOf(
              this.pool,
              parts.map((p) => PostgresTimeseries.table(ix.id, p)),
            ),
            oldestTimestampMillis: await edge(nonEmpty[0], 'MIN'),
            newestTimestampMillis: await edge(nonEmpty[nonEmpty.length - 1], 'MAX'),
          };
        }),
      );
    }
    return out;
  }
}
