/**
 * Timeseries indices are split into one partition per UTC day, so a truncation
 * drops whole days instead of deleting rows one by one, and a count before a
 * cutoff sums per-partition counters plus one small range count.
 */
export const PARTITION_MILLIS = 24 * 60 * 60 * 1000;

export const partitionStart = (timestampMillis: number): number =>
  Math.floor(timestampMillis / PARTITION_MILLIS) * PARTITION_MILLIS;

export const partitionEnd = (startMillis: number): number => startMillis + PARTITION_MILLIS;

/** A table-name-safe label for a partition: d19700 for day 19700, n3 for day -3. */
export const partitionLabel = (startMillis: number): string => {
  const day = Math.floor(startMillis / PARTITION_MILLIS);
  return day < 0 ? `n${-day}` : `d${day}`;
};
