import type { TruncationStep } from './store.ts';

/** A step that removed rows or partitions: only such a step counts as one of its task's batches. */
export const changedSomething = (step: TruncationStep): boolean => step.rows > 0 || step.partitionsDropped > 0;

/**
 * A WHERE condition on ts_retired, the same in both dialects: tables retired by
 * no task, or by one that stopped early (cancelled, or failed at a shutdown or a
 * crash) and whose own reclaim will not run. Any later reclaim of the index drops them.
 */
export const ABANDONED = "(task_number IS NULL OR task_number IN (SELECT number FROM tasks WHERE state IN ('failed', 'cancelled')))";
