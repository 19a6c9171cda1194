import type { Json } from './aspects.ts';

/** Identifies a timeseries index: one per (entityType, aspect). */
export interface TimeseriesIndexRef {
  readonly entityType: string;
  readonly aspect: string;
}

export interface TimeseriesEvent {
  readonly urn: string;
  readonly timestampMillis: number;
  /** Stable id of the event: re-ingesting the same event overwrites it. */
  readonly docId: string;
  readonly event: Json;
  readonly systemMetadata: Json | null;
}

/** Which timeseries rows of one urn a delete removes: those of every index, or of one, inside an inclusive time window. */
export interface TimeseriesRowScope {
  readonly index?: TimeseriesIndexRef;
  /** Inclusive bounds on timestampMillis (DataHub's gte / lte); either may be omitted. */
  readonly startMillis?: number;
  readonly endMillis?: number;
}

export interface TimeseriesQuery extends TimeseriesIndexRef {
  readonly urn: string;
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  readonly limit: number;
  /** Only events it accepts count toward the limit (criteria on the event's fields). */
  readonly match?: (event: TimeseriesEvent) => boolean;
}

/** One time partition of a timeseries index. */
export interface TimeseriesPartition {
  /** Inclusive start and exclusive end of the partition's time range. */
  readonly startMillis: number;
  readonly endMillis: number;
  readonly rowCount: number;
}

export interface TimeseriesIndexStats extends TimeseriesIndexRef {
  readonly rowCount: number;
  readonly sizeBytes: number;
  readonly oldestTimestampMillis: number | null;
  readonly newestTimestampMillis: number | null;
}

/** What TimeseriesPort only reads: a composition root may answer these from another handle (a read replica). */
export interface TimeseriesReads {
  queryTimeseries(query: TimeseriesQuery): Promise<TimeseriesEvent[]>;
  timeseriesIndexStats(): Promise<TimeseriesIndexStats[]>;
  listTimeseriesPartitions(index: TimeseriesIndexRef): Promise<TimeseriesPartition[]>;
  /** The timestamp of the oldest row at or after `from` (an index seek in the first partition that has one); null if none. */
  oldestTimestampFrom(index: TimeseriesIndexRef, from: number): Promise<number | null>;
}

/** What TimeseriesPort changes: always the primary database. */
export interface TimeseriesWrites {
  /** Deletes the urn's timeseries rows in the scope, in one transaction; returns the rows removed. */
  deleteTimeseriesRows(urn: string, scope: TimeseriesRowScope): Promise<number>;
  /**
   * Rows strictly older than `before`, and all rows, without scanning the index row by row. A write: a boundary day
   * whose bucket counts cannot be trusted is recounted and its buckets stored again.
   */
  countTimeseriesBefore(index: TimeseriesIndexRef, before: number): Promise<{ matching: number; total: number }>;
}

/** Timeseries indices: one per (entityType, aspect), one partition per UTC day. */
export interface TimeseriesPort extends TimeseriesReads, TimeseriesWrites {}
