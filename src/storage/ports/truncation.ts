import type { TaskRef } from './tasks.ts';
import type { TimeseriesIndexRef } from './timeseries.ts';

/**
 * What one truncation step changed. Row counts are exact; bytes are the engine's
 * own accounting of the pages or files the index stopped using. Retired
 * partitions free their bytes only when reclaim drops them, and a boundary day
 * rewritten into a new table counts that table's bytes against the step.
 */
export interface TruncationStep {
  readonly rows: number;
  readonly partitionsDropped: number;
  readonly freedBytes: number;
}

/** A step that removed rows or partitions: only such a step counts as one of its task's batches (the port's one rule). */
export const changedSomething = (step: TruncationStep): boolean => step.rows > 0 || step.partitionsDropped > 0;

/** What one reclaim call gave back: bytes of retired partitions dropped, and bytes handed to the file system. */
export interface ReclaimStep {
  readonly freedBytes: number;
  readonly reclaimedBytes: number;
  /** Nothing is left to drop or give back. */
  readonly done: boolean;
}

/** What TruncationPort only reads: a composition root may answer these from another handle (a read replica). */
export interface TruncationReads {
  /** Bytes the index occupies, as the engine counts them. */
  timeseriesIndexSizeBytes(index: TimeseriesIndexRef): Promise<number>;
}

/** What TruncationPort changes: always the primary database. */
export interface TruncationWrites {
  /**
   * Retires whole partitions that end at or before `before`, oldest first, up to
   * `maxPartitions`: they leave the index at once (no read sees them again) and
   * their tables are dropped later by reclaimTimeseriesSpace. 0 partitions means none are left.
   */
  retireTimeseriesPartitionsBefore(
    index: TimeseriesIndexRef,
    before: number,
    budget: { readonly maxPartitions: number },
    task?: TaskRef,
  ): Promise<TruncationStep>;
  /** Removes the rows older than `before` from the one partition that straddles it, rewriting it when most of it goes. */
  trimTimeseriesBoundary(index: TimeseriesIndexRef, before: number, task?: TaskRef): Promise<TruncationStep>;
  /** Deletes up to `limit` of the oldest rows older than `before` (delete by query). */
  deleteTimeseriesRowsBefore(index: TimeseriesIndexRef, before: number, limit: number, task?: TaskRef): Promise<TruncationStep>;
  /**
   * For about `maxMillis`: drops the partitions `task` retired (their bytes are
   * `freedBytes`), then those abandoned by tasks that stopped early, then hands
   * space freed by deletions back to the file system; `done` once nothing is left to do.
   */
  reclaimTimeseriesSpace(index: TimeseriesIndexRef, before: number, maxMillis: number, task?: TaskRef): Promise<ReclaimStep>;
}

/**
 * Truncation primitives. Each call is one short transaction that keeps the partition row counts exact, so a task
 * can stop between any two calls. Given a task, the same transaction adds the step to the task's counters (rows
 * deleted, batches, partitions dropped, bytes freed): a crash can never leave the counters behind the data.
 */
export interface TruncationPort extends TruncationReads, TruncationWrites {}
