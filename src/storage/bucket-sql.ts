import { BUCKET_MILLIS, bucketOf } from './partitions.ts';

/**
 * Bucket counts of day partitions (partitions.ts), as both adapters keep them. Only inserts add to a bucket, in the
 * transaction that adds to the partition's row count; most deletes leave the buckets as they were. So no bucket ever
 * counts fewer rows than it holds, once its partition is `bucketed` (made with buckets, or counted since), and a
 * partition's buckets are trusted only while they also sum to its row count, which then makes each of them exact.
 * When they do not (rows deleted, or a day written before buckets existed), they are counted again from the table:
 * a count is always exact, and fast once repaired. Parameters by name; `table` is the table as the engine names it.
 */

/** Whether the partition's buckets can be trusted (bucketed, and they sum to its row count), and the rows in buckets before :bucket. */
export const BUCKET_SUMS_SQL = `
  SELECT p.bucketed = 1 AND p.row_count = COALESCE(SUM(b.row_count), 0) AS exact,
         COALESCE(SUM(CASE WHEN b.bucket < :bucket THEN b.row_count ELSE 0 END), 0) AS below
    FROM ts_partitions p
    LEFT JOIN ts_buckets b ON b.index_id = p.index_id AND b.start_ms = p.start_ms AND b.generation = p.generation
   WHERE p.index_id = :id AND p.start_ms = :start AND p.generation = :gen
   GROUP BY p.bucketed, p.row_count`;

export const MARK_BUCKETED_SQL = `UPDATE ts_partitions SET bucketed = 1 WHERE index_id = :id AND start_ms = :start AND generation = :gen`;

export const DELETE_BUCKETS_SQL = `DELETE FROM ts_buckets WHERE index_id = :id AND start_ms = :start AND generation = :gen`;

/** Counts the partition's rows per bucket from its table. */
export const recountBucketsSql = (table: string) => `
  INSERT INTO ts_buckets (index_id, start_ms, generation, bucket, row_count)
  SELECT :id, :start, :gen, (ts - :start) / ${BUCKET_MILLIS}, COUNT(*) FROM ${table} GROUP BY (ts - :start) / ${BUCKET_MILLIS}`;

/**
 * After a trim deleted every row before a cutoff in bucket :bucket: the buckets before it are gone, and it holds
 * :left rows. (Stale buckets stay stale: their sum still differs from the row count, and the next count recounts.)
 */
export const TRIM_BUCKETS_SQL = [
  'DELETE FROM ts_buckets WHERE index_id = :id AND start_ms = :start AND generation = :gen AND bucket < :bucket',
  'UPDATE ts_buckets SET row_count = :left WHERE index_id = :id AND start_ms = :start AND generation = :gen AND bucket = :bucket',
];

/** Adds :n rows to one bucket. */
export const ADD_TO_BUCKET_SQL = `
  INSERT INTO ts_buckets (index_id, start_ms, generation, bucket, row_count) VALUES (:id, :start, :gen, :bucket, :n)
  ON CONFLICT (index_id, start_ms, generation, bucket) DO UPDATE SET row_count = ts_buckets.row_count + excluded.row_count`;

/** Groups inserted timestamps (of one day) by bucket: [bucket, rows] pairs. */
export function bucketCounts(stamps: Iterable<number>): Array<[number, number]> {
  const counts = new Map<number, number>();
  for (const ts of stamps) counts.set(bucketOf(ts), (counts.get(bucketOf(ts)) ?? 0) + 1);
  return [...counts];
}
