import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { BUCKET_MILLIS, bucketOf, partitionEnd, partitionStart, partitionTable } from '../partitions.ts';
import { ADD_TO_BUCKET_SQL, BUCKET_SUMS_SQL, bucketCounts, DELETE_BUCKETS_SQL, MARK_BUCKETED_SQL, recountBucketsSql } from '../bucket-sql.ts';
import type {
  TimeseriesEvent,
  TimeseriesIndexRef,
  TimeseriesIndexStats,
  TimeseriesPartition,
  TimeseriesQuery,
  TimeseriesRowScope,
} from '../store.ts';
import { fromJsonText, fromJsonTextRequired, toJsonText } from '../json.ts';
import type { PortImpl } from '../compose-store.ts';
import type { TimeseriesPort } from '../ports/timeseries.ts';
import { partitionTableSql } from './migrations.ts';
import { bySqliteNames, StatementCache } from './statements.ts';

export interface PartitionRow {
  start_ms: number;
  row_count: number;
  generation: number;
}

/**
 * Timeseries indices on SQLite: one table per (index, UTC day, generation),
 * the live one listed with its row count in ts_partitions. Must be called inside
 * the caller's transaction for writes. SQLite has one writer at a time; a write
 * transaction calls forgetIfChangedElsewhere() first, so the in-memory caches
 * stay true even when another process shares the file.
 */
export class SqliteTimeseries implements PortImpl<TimeseriesPort> {
  private readonly indexIds = new Map<string, number>();
  /** Live partition tables by `${indexId}:${startMillis}`. */
  private readonly knownPartitions = new Map<string, string>();
  /** `PRAGMA data_version` when the caches were last known true. */
  private dataVersion: number | undefined;
  private readonly statements: StatementCache;
  private readonly deleteTimeseriesTx: Database.Transaction<(urn: string, scope: TimeseriesRowScope) => number>;

  constructor(
    private readonly db: Database.Database,
    /** The database file, for reads moved off this thread; ':memory:' keeps them here. */
    private readonly file: string,
  ) {
    this.statements = new StatementCache(db);
    this.deleteTimeseriesTx = db.transaction((urn, scope) => this.deleteUrnRows(urn, scope));
  }

  private stmt(sql: string): Database.Statement {
    return this.statements.get(sql);
  }

  /** Forgets cached statements and partitions, e.g. after partitions were dropped. */
  resetCaches(): void {
    this.knownPartitions.clear();
    this.statements.clear();
  }

  /**
   * Forgets the caches when another connection (another process on the same
   * file) has committed since the last call, e.g. retired or dropped a partition.
   * Call it inside the write transaction, before the first write.
   */
  forgetIfChangedElsewhere(): void {
    // A prepared statement: db.pragma() prepares one on every call, 6x the cost on every write.
    const version = (this.statements.get('PRAGMA data_version').get() as { data_version: number }).data_version;
    if (version !== this.dataVersion) this.resetCaches();
    this.dataVersion = version;
  }

  indexId(ref: TimeseriesIndexRef, create: boolean): number | undefined {
    const key = `${ref.entityType}\u0000${ref.aspect}`;
    const cached = this.indexIds.get(key);
    if (cached !== undefined) return cached;
    if (create) {
      this.stmt('INSERT OR IGNORE INTO ts_indices (entity_type, aspect) VALUES (?, ?)').run(ref.entityType, ref.aspect);
    }
    const row = this.stmt('SELECT id FROM ts_indices WHERE entity_type = ? AND aspect = ?').get(ref.entityType, ref.aspect) as
      { id: number } | undefined;
    if (row) this.indexIds.set(key, row.id);
    return row?.id;
  }

  static table(indexId: number, p: Pick<PartitionRow, 'start_ms' | 'generation'>): string {
    return partitionTable(indexId, p.start_ms, p.generation);
  }

  /** The live partition of the day, if there is one. */
  partition(indexId: number, startMillis: number): PartitionRow | undefined {
    return this.stmt('SELECT start_ms, row_count, generation FROM ts_partitions WHERE index_id = ? AND start_ms = ?').get(indexId, startMillis) as
      PartitionRow | undefined;
  }

  /** A generation no table of the day has, live or retired. */
  nextGeneration(indexId: number, startMillis: number): number {
    const row = this.stmt(
      `SELECT MAX(generation) AS g FROM (SELECT generation FROM ts_partitions WHERE index_id = @id AND start_ms = @start
         UNION ALL SELECT generation FROM ts_retired WHERE index_id = @id AND start_ms = @start)`,
    ).get({ id: indexId, start: startMillis }) as { g: number | null };
    return row.g === null ? 0 : row.g + 1;
  }

  private ensurePartition(indexId: number, startMillis: number): string {
    const key = `${indexId}:${startMillis}`;
    let table = this.knownPartitions.get(key);
    if (table === undefined) {
      const live = this.partition(indexId, startMillis);
      const generation = live?.generation ?? this.nextGeneration(indexId, startMillis);
      table = partitionTable(indexId, startMillis, generation);
      if (!live) {
        this.db.exec(partitionTableSql(table));
        this.stmt('INSERT INTO ts_partitions (index_id, start_ms, row_count, generation, bucketed) VALUES (?, ?, 0, ?, 1)').run(
          indexId,
          startMillis,
          generation,
        );
      }
      this.knownPartitions.set(key, table);
    }
    return table;
  }

  /** Inserts or overwrites one event; returns true when it added a row. */
  upsert(ref: TimeseriesIndexRef, e: TimeseriesEvent): boolean {
    const indexId = this.indexId(ref, true)!;
    const start = partitionStart(e.timestampMillis);
    const table = this.ensurePartition(indexId, start);
    const event = JSON.stringify(e.event);
    const sm = toJsonText(e.systemMetadata);
    const inserted = this.stmt(`INSERT INTO "${table}" (ts, doc_id, urn, event, system_metadata) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`).run(
      e.timestampMillis,
      e.docId,
      e.urn,
      event,
      sm,
    ).changes;
    if (inserted === 0) {
      this.stmt(`UPDATE "${table}" SET urn = ?, event = ?, system_metadata = ? WHERE ts = ? AND doc_id = ?`).run(
        e.urn,
        event,
        sm,
        e.timestampMillis,
        e.docId,
      );
      return false;
    }
    return true;
  }

  /** Counts rows the caller's transaction inserted into the day: its row count and its buckets. */
  addToCount(ref: TimeseriesIndexRef, startMillis: number, stamps: readonly number[]): void {
    const indexId = this.indexId(ref, true)!;
    const part = this.stmt('UPDATE ts_partitions SET row_count = row_count + ? WHERE index_id = ? AND start_ms = ? RETURNING generation').get(
      stamps.length,
      indexId,
      startMillis,
    ) as { generation: number };
    const add = this.stmt(bySqliteNames(ADD_TO_BUCKET_SQL));
    for (const [bucket, n] of bucketCounts(stamps)) add.run({ id: indexId, start: startMillis, gen: part.generation, bucket, n });
  }

  private partitions(indexId: number): PartitionRow[] {
    return this.stmt('SELECT start_ms, row_count, generation FROM ts_partitions WHERE index_id = ? ORDER BY start_ms').all(indexId) as PartitionRow[];
  }

  liveTables(indexId: number): string[] {
    return this.partitions(indexId).map((p) => SqliteTimeseries.table(indexId, p));
  }

  listTimeseriesPartitions(ref: TimeseriesIndexRef): TimeseriesPartition[] {
    const indexId = this.indexId(ref, false);
    if (indexId === undefined) return [];
    return this.partitions(indexId).map((p) => ({ startMillis: p.start_ms, endMillis: partitionEnd(p.start_ms), rowCount: p.row_count }));
  }

  oldestTimestampFrom(ref: TimeseriesIndexRef, from: number): number | null {
    const indexId = this.indexId(ref, false);
    if (indexId === undefined) return null;
    for (const p of this.partitions(indexId)) {
      if (p.row_count === 0 || partitionEnd(p.start_ms) <= from) continue;
      const row = this.stmt(`SELECT MIN(ts) AS ts FROM "${SqliteTimeseries.table(indexId, p)}" WHERE ts >= ?`).get(from) as { ts: number | null };
      if (row.ts !== null) return row.ts;
    }
    return null;
  }

  queryTimeseries(q: TimeseriesQuery): TimeseriesEvent[] {
    const indexId = this.indexId(q, false);
    if (indexId === undefined || q.limit <= 0) return [];
    const lo = q.startTimeMillis ?? Number.MIN_SAFE_INTEGER;
    const hi = q.endTimeMillis ?? Number.MAX_SAFE_INTEGER;
    const parts = this.partitions(indexId).filter((p) => partitionEnd(p.start_ms) > lo && p.start_ms <= hi && p.row_count > 0);
    const out: TimeseriesEvent[] = [];
    // Newest partition first, stopping as soon as the limit is met.
    for (let i = parts.length - 1; i >= 0 && out.length < q.limit; i--) {
      const table = SqliteTimeseries.table(indexId, parts[i]!);
      const rows = this.stmt(
        `SELECT ts, doc_id, urn, event, system_metadata FROM "${table}" WHERE urn = ? AND ts >= ? AND ts <= ? ORDER BY ts DESC LIMIT ?`,
      ).all(q.urn, lo, hi, q.match ? -1 : q.limit - out.length) as Array<{
        ts: number;
        doc_id: string;
        urn: string;
        event: string;
        system_metadata: string | null;
      }>;
      // With a filter, every row of the urn in the partition is read (LIMIT -1) and the filter picks.
      for (const r of rows) {
        const e: TimeseriesEvent = {
          urn: r.urn,
          timestampMillis: r.ts,
          docId: r.doc_id,
          event: fromJsonTextRequired(r.event),
          systemMetadata: fromJsonText(r.system_metadata),
        };
        if (out.length < q.limit && (!q.match || q.match(e))) out.push(e);
      }
    }
    return out;
  }

  countTimeseriesBefore(ref: TimeseriesIndexRef, before: number): { matching: number; total: number } {
    const indexId = this.indexId(ref, false);
    if (indexId === undefined) return { matching: 0, total: 0 };
    const sums = this.stmt(
      `SELECT COALESCE(SUM(row_count), 0) AS total,
              COALESCE(SUM(CASE WHEN start_ms + ? <= ? THEN row_count ELSE 0 END), 0) AS whole
         FROM ts_partitions WHERE index_id = ?`,
    ).get(partitionEnd(0), before, indexId) as { total: number; whole: number };
    const boundary = partitionStart(before);
    const part = boundary < before ? this.partition(indexId, boundary) : undefined;
    return { matching: sums.whole + (part ? this.countInDay(indexId, part, before) : 0), total: sums.total };
  }

  /** Rows of the day before `before`: its buckets before the cutoff's, and a range count in that one bucket. */
  private countInDay(indexId: number, part: PartitionRow, before: number, recounted = false): number {
    const table = `"${SqliteTimeseries.table(indexId, part)}"`;
    const key = { id: indexId, start: part.start_ms, gen: part.generation };
    const bucket = bucketOf(before);
    const sums = this.stmt(bySqliteNames(BUCKET_SUMS_SQL)).get({ ...key, bucket }) as { exact: number; below: number } | undefined;
    if (!sums?.exact) {
      if (recounted) return (this.stmt(`SELECT COUNT(*) AS n FROM ${table} WHERE ts < ?`).get(before) as { n: number }).n;
      // Deleted rows or a day written before buckets existed: count its buckets again, once.
      this.db
        .transaction(() => {
          this.stmt(bySqliteNames(DELETE_BUCKETS_SQL)).run(key);
          this.stmt(bySqliteNames(recountBucketsSql(table))).run(key);
          this.stmt(bySqliteNames(MARK_BUCKETED_SQL)).run(key);
        })
        .immediate();
      const now = this.partition(indexId, part.start_ms);
      return now ? this.countInDay(indexId, now, before, true) : 0;
    }
    const from = part.start_ms + bucket * BUCKET_MILLIS;
    return sums.below + (this.stmt(`SELECT COUNT(*) AS n FROM ${table} WHERE ts >= ? AND ts < ?`).get(from, before) as { n: number }).n;
  }

  /** Deletes the urn's events in the scope (every index, or one; inside the window); returns the rows removed. */
  deleteTimeseriesRows(urn: string, scope: TimeseriesRowScope): number {
    return this.deleteTimeseriesTx.immediate(urn, scope);
  }

  /** Inside the caller's transaction. */
  deleteUrnRows(urn: string, scope: TimeseriesRowScope = {}): number {
    const lo = scope.startMillis ?? Number.MIN_SAFE_INTEGER;
    const hi = scope.endMillis ?? Number.MAX_SAFE_INTEGER;
    const ids = scope.index
      ? [this.indexId(scope.index, false)].filter((id): id is number => id !== undefined)
      : (this.stmt('SELECT id FROM ts_indices').all() as Array<{ id: number }>).map((r) => r.id);
    let removed = 0;
    for (const id of ids) {
      for (const p of this.partitions(id)) {
        if (p.row_count === 0 || partitionEnd(p.start_ms) <= lo || p.start_ms > hi) continue;
        const n = this.stmt(`DELETE FROM "${SqliteTimeseries.table(id, p)}" WHERE urn = ? AND ts >= ? AND ts <= ?`).run(urn, lo, hi).changes;
        if (n > 0) {
          this.stmt('UPDATE ts_partitions SET row_count = row_count - ? WHERE index_id = ? AND start_ms = ?').run(n, id, p.start_ms);
          removed += n;
        }
      }
    }
    return removed;
  }

  /** Every live day partition of every index, as (index, day) pairs. */
  livePartitions(): Array<{ indexId: number; startMillis: number }> {
    const rows = this.stmt('SELECT index_id, start_ms FROM ts_partitions WHERE row_count > 0 ORDER BY index_id, start_ms').all() as Array<{
      index_id: number;
      start_ms: number;
    }>;
    return rows.map((r) => ({ indexId: r.index_id, startMillis: r.start_ms }));
  }

  /**
   * Deletes the rows of one day partition whose systemMetadata carries the run id, inside the caller's transaction;
   * returns the rows removed. A day retired meanwhile has nothing left to delete.
   */
  deleteRunRows(day: { indexId: number; startMillis: number }, runId: string): number {
    const p = this.partition(day.indexId, day.startMillis);
    if (!p || p.row_count === 0) return 0;
    // The substring test skips parsing the JSON of rows that cannot match.
    const n = this.stmt(
      `DELETE FROM "${SqliteTimeseries.table(day.indexId, p)}" WHERE instr(system_metadata, ?) > 0 AND json_extract(system_metadata, '$.runId') = ?`,
    ).run(JSON.stringify(runId), runId).changes;
    if (n > 0)
      this.stmt('UPDATE ts_partitions SET row_count = row_count - ? WHERE index_id = ? AND start_ms = ?').run(n, day.indexId, day.startMillis);
    return n;
  }

  /** Table sizes by name, as dbstat reports them; reads every page of the file. */
  static readonly TABLE_SIZES_SQL = "SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE name LIKE 'ts\\_%' ESCAPE '\\' GROUP BY name";

  /** `tableSizes` (from TABLE_SIZES_SQL) may be computed elsewhere, e.g. off this thread. */
  async timeseriesIndexStats(): Promise<TimeseriesIndexStats[]> {
    // Sizes come from a walk over every page: done on a worker thread, the rest here.
    return this.stats(await this.tableSizes());
  }

  /** Bytes per table (and its indexes), from a walk over every page of the file. */
  async tableSizes(): Promise<Array<{ name: string; bytes: number }>> {
    const sql = SqliteTimeseries.TABLE_SIZES_SQL;
    return (this.file === ':memory:' ? this.stmt(sql).all() : await readOnWorker(this.file, sql, [])) as Array<{ name: string; bytes: number }>;
  }

  private stats(tableSizes: ReadonlyArray<{ name: string; bytes: number }>): TimeseriesIndexStats[] {
    const indices = this.stmt('SELECT id, entity_type, aspect FROM ts_indices ORDER BY entity_type, aspect').all() as Array<{
      id: number;
      entity_type: string;
      aspect: string;
    }>;
    const sizes = new Map<string, number>();
    for (const r of tableSizes) {
      sizes.set(r.name, r.bytes);
    }
    return indices.map((ix) => {
      const parts = this.partitions(ix.id);
      let sizeBytes = 0;
      for (const p of parts) {
        const table = SqliteTimeseries.table(ix.id, p);
        sizeBytes += (sizes.get(table) ?? 0) + (sizes.get(`${table}_urn`) ?? 0);
      }
      const nonEmpty = parts.filter((p) => p.row_count > 0);
      const edge = (first: PartitionRow | undefined, order: 'MIN' | 'MAX'): number | null =>
        first
          ? ((this.stmt(`SELECT ${order}(ts) AS t FROM "${SqliteTimeseries.table(ix.id, first)}"`).get() as { t: number | null }).t ?? null)
          : null;
      return {
        entityType: ix.entity_type,
        aspect: ix.aspect,
        rowCount: nonEmpty.reduce((n, p) => n + p.row_count, 0),
        sizeBytes,
        oldestTimestampMillis: edge(nonEmpty[0], 'MIN'),
        newestTimestampMillis: edge(nonEmpty[nonEmpty.length - 1], 'MAX'),
      };
    });
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
