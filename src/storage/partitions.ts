/**
 * Timeseries indices are split into one partition per UTC day, so a truncation
 * retires whole days instead of deleting rows one by one, and a count before a
 * cutoff sums per-partition counters plus one small range count.
 */
export const PARTITION_MILLIS = 24 * 60 * 60 * 1000;

export const partitionStart = (timestampMillis: number): number => Math.floor(timestampMillis / PARTITION_MILLIS) * PARTITION_MILLIS;

export const partitionEnd = (startMillis: number): number => startMillis + PARTITION_MILLIS;

/** A table-name-safe label for a partition: d19700 for day 19700, n3 for day -3. */
export const partitionLabel = (startMillis: number): string => {
  const day = Math.floor(startMillis / PARTITION_MILLIS);
  return day < 0 ? `n${-day}` : `d${day}`;
};

/**
 * The table holding one generation of a day partition. A truncation retires a
 * whole partition at once (it leaves the index's listing, and its table is
 * dropped later, off the task's path); a day written again afterwards gets a new
 * generation, so a retired table and the live one never share a name.
 * Generation 0 keeps the name partitions had before generations existed.
 */
export const partitionTable = (indexId: number, startMillis: number, generation: number): string =>
  `ts_${indexId}_${partitionLabel(startMillis)}${generation === 0 ? '' : `_g${generation}`}`;

/**
 * Each day partition also keeps how many of its rows fall in each 10-minute bucket (ts_buckets), so a count before
 * a cutoff inside the day reads the buckets before the cutoff's and range-counts one bucket, not up to a whole day.
 */
export const BUCKET_MILLIS = 10 * 60 * 1000;

/** The bucket of a timestamp within its day: 0 to 143. */
export const bucketOf = (timestampMillis: number): number => Math.floor((timestampMillis - partitionStart(timestampMillis)) / BUCKET_MILLIS);
