import type pg from 'pg';
import { partitionEnd, partitionLabel, partitionStart } from '../partitions.ts';
import { fromJsonText, fromJsonTextRequired } from '../json.ts';
import type {
  TimeseriesEvent,
  TimeseriesIndexRef,
  TimeseriesIndexStats,
  TimeseriesPartition,
  TimeseriesQuery,
} from '../store.ts';
import { indexTableSql, partitionTableSql } from './migrations.ts';

type Queryable = pg.Pool | pg.PoolClient;
type TimeseriesOp = TimeseriesIndexRef & TimeseriesEvent;

/** Duplicate-object errors that a concurrent creator of the same table can raise. */
const RACE_CODES = new Set(['42P07', '23505', '42710']);

/**
 * Timeseries indices on PostgreSQL: one declaratively partitioned table per
 * index, one partition per UTC day, with row counts in ts_partitions.
 * Partitions are created outside the write transaction (DDL races between
 * processes are retried), and the caches here are hints: a batch that meets a
 * partition dropped by another process is retried by the store.
 */
export class PostgresTimeseries {
  private readonly indexIds = new Map<string, number>();
  private readonly knownPartitions = new Set<string>();

  constructor(private readonly pool: pg.Pool) {}

  resetCaches(): void {
    this.knownPartitions.clear();
  }

  static parentTable(indexId: number): string {
    return `ts_${indexId}`;
  }

  static partitionTable(indexId: number, startMillis: number): string {
    return `ts_${indexId}_${partitionLabel(startMillis)}`;
  }

  private async ddl(sql: string): Promise<void> {
    try {
      await this.pool.query(sql);
    } catch (e) {
      if (!RACE_CODES.has((e as { code?: string }).code ?? '')) throw e;
    }
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
    if (id === undefined) return undefined;
    if (create) await this.ddl(indexTableSql(PostgresTimeseries.parentTable(id)));
    this.indexIds.set(key, id);
    return id;
  }

  /** Makes sure every index and day partition the batch touches exists. */
  async prepare(ops: readonly TimeseriesOp[]): Promise<void> {
    for (const op of ops) {
      const id = (await this.indexId(op, true))!;
      const start = partitionStart(op.timestampMillis);
      const table = PostgresTimeseries.partitionTable(id, start);
      if (this.knownPartitions.has(table)) continue;
      await this.ddl(partitionTableSql(PostgresTimeseries.parentTable(id), table, start, partitionEnd(start)));
      await this.pool.query('INSERT INTO ts_partitions (index_id, start_ms, row_count) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING', [id, start]);
      this.knownPartitions.add(table);
    }
  }

  /** Upserts the events in the caller's transaction and updates the partition counts. */
  async upsert(client: pg.PoolClient, ops: readonly TimeseriesOp[]): Promise<void> {
    const byIndex = new Map<number, Map<string, TimeseriesOp>>();
    for (const op of ops) {
      const id = (await this.indexId(op, true, client))!;
      const docs = byIndex.get(id) ?? new Map<string, TimeseriesOp>();
      // One statement cannot touch a row twice: the last write of a doc wins, as it would in sequence.
      docs.set(`${op.timestampMillis}\u0000${op.docId}`, op);
      byIndex.set(id, docs);
    }
    for (const [id, docs] of byIndex) {
      const rows = [...docs.values()];
      const table = PostgresTimeseries.parentTable(id);
      const columns = (list: TimeseriesOp[]) => [
        list.map((o) => o.timestampMillis),
        list.map((o) => o.docId),
        list.map((o) => o.urn),
        list.map((o) => JSON.stringify(o.event)),
        list.map((o) => (o.systemMetadata === null ? null : JSON.stringify(o.systemMetadata))),
      ];
      // Partitioned tables cannot return xmax, so new rows are told apart by RETURNING and the rest are overwritten.
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
      const added = new Map<number, number>();
      for (const r of inserted.rows) {
        const start = partitionStart(r.ts);
        added.set(start, (added.get(start) ?? 0) + 1);
      }
      for (const [start, n] of added) {
        await client.query('UPDATE ts_partitions SET row_count = row_count + $1 WHERE index_id = $2 AND start_ms = $3', [n, id, start]);
      }
    }
  }

  private async partitions(indexId: number): Promise<Array<{ start_ms: number; row_count: number }>> {
    const r = await this.pool.query<{ start_ms: number; row_count: number }>(
      'SELECT start_ms, row_count FROM ts_partitions WHERE index_id = $1 ORDER BY start_ms',
      [indexId],
    );
    return r.rows;
  }

  async listPartitions(ref: TimeseriesIndexRef): Promise<TimeseriesPartition[]> {
    const id = await this.indexId(ref, false);
    if (id === undefined) return [];
    return (await this.partitions(id)).map((p) => ({ startMillis: p.start_ms, endMillis: partitionEnd(p.start_ms), rowCount: p.row_count }));
  }

  async query(q: TimeseriesQuery): Promise<TimeseriesEvent[]> {
    const id = await this.indexId(q, false);
    if (id === undefined || q.limit <= 0) return [];
    const r = await this.pool.query<{ ts: number; doc_id: string; urn: string; event: string; system_metadata: string | null }>(
      `SELECT ts, doc_id, urn, event, system_metadata FROM ${PostgresTimeseries.parentTable(id)}
        WHERE urn = $1 AND ts >= $2 AND ts <= $3 ORDER BY ts DESC LIMIT $4`,
      [q.urn, q.startTimeMillis ?? Number.MIN_SAFE_INTEGER, q.endTimeMillis ?? Number.MAX_SAFE_INTEGER, q.limit],
    );
    return r.rows.map((row) => ({
      urn: row.urn,
      timestampMillis: row.ts,
      docId: row.doc_id,
      event: fromJsonTextRequired(row.event),
      systemMetadata: fromJsonText(row.system_metadata),
    }));
  }

  async countBefore(ref: TimeseriesIndexRef, before: number): Promise<{ matching: number; total: number }> {
    const id = await this.indexId(ref, false);
    if (id === undefined) return { matching: 0, total: 0 };
    const boundary = partitionStart(before);
    const r = await this.pool.query<{ total: number; whole: number; has_boundary: boolean }>(
      `SELECT COALESCE(SUM(row_count), 0)::bigint AS total,
              COALESCE(SUM(row_count) FILTER (WHERE start_ms + $1 <= $2), 0)::bigint AS whole,
              bool_or(start_ms = $3) AS has_boundary
         FROM ts_partitions WHERE index_id = $4`,
      [partitionEnd(0), before, boundary, id],
    );
    const sums = r.rows[0]!;
    let matching = sums.whole;
    if (boundary < before && sums.has_boundary) {
      const c = await this.pool.query<{ n: number }>(
        `SELECT COUNT(*)::bigint AS n FROM ${PostgresTimeseries.partitionTable(id, boundary)} WHERE ts < $1`,
        [before],
      );
      matching += c.rows[0]!.n;
    }
    return { matching, total: sums.total };
  }

  async deleteUrn(client: pg.PoolClient, urn: string): Promise<number> {
    let removed = 0;
    const indices = await client.query<{ id: number }>('SELECT id FROM ts_indices');
    for (const { id } of indices.rows) {
      const r = await client.query<{ start_ms: number; n: number }>(
        `WITH gone AS (DELETE FROM ${PostgresTimeseries.parentTable(id)} WHERE urn = $1 RETURNING ts)
         SELECT (floor(ts / $2::float8) * $2)::bigint AS start_ms, COUNT(*)::bigint AS n FROM gone GROUP BY 1`,
        [urn, partitionEnd(0)],
      );
      for (const { start_ms, n } of r.rows) {
        await client.query('UPDATE ts_partitions SET row_count = row_count - $1 WHERE index_id = $2 AND start_ms = $3', [n, id, start_ms]);
        removed += n;
      }
    }
    return removed;
  }

  async stats(): Promise<TimeseriesIndexStats[]> {
    const indices = await this.pool.query<{ id: number; entity_type: string; aspect: string }>(
      'SELECT id, entity_type, aspect FROM ts_indices ORDER BY entity_type, aspect',
    );
    const out: TimeseriesIndexStats[] = [];
    for (const ix of indices.rows) {
      const parent = PostgresTimeseries.parentTable(ix.id);
      const r = await this.pool.query<{ rows: number; bytes: number; oldest: number | null; newest: number | null }>(
        `SELECT (SELECT COALESCE(SUM(row_count), 0) FROM ts_partitions WHERE index_id = $1)::bigint AS rows,
                (SELECT COALESCE(SUM(pg_total_relation_size(relid)), 0) FROM pg_partition_tree($2::regclass))::bigint AS bytes,
                (SELECT MIN(ts) FROM ${parent}) AS oldest,
                (SELECT MAX(ts) FROM ${parent}) AS newest`,
        [ix.id, parent],
      );
      const s = r.rows[0]!;
      out.push({
        entityType: ix.entity_type,
        aspect: ix.aspect,
        rowCount: s.rows,
        sizeBytes: s.bytes,
        oldestTimestampMillis: s.oldest,
        newestTimestampMillis: s.newest,
      });
    }
    return out;
  }
}
