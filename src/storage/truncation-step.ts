export { changedSomething } from './ports/truncation.ts';

/**
 * A WHERE condition on ts_retired, the same in both dialects: tables retired by
 * no task, or by one that no longer runs (it stopped early, or it completed and
 * its own reclaim was cut short by a crash or a shutdown). Any later reclaim of
 * the index drops them, and so does the sweep at start-up: truncated rows never
 * stay on disk for good.
 */
export const ABANDONED = "(task_number IS NULL OR task_number NOT IN (SELECT number FROM tasks WHERE state = 'running'))";

/**
 * Rows a new table costs to create and index, in row deletions: a boundary day
 * is copied into a new generation (and the old one retired) only when copying
 * the rows it keeps saves at least this many row deletions. Measured on both
 * engines: a new table with its index costs 25 to 40 ms, about 10,000 deletions.
 */
const NEW_TABLE_COST_ROWS = 10_000;

/** Whether trimming `doomed` rows off a boundary day that keeps `kept` is cheaper by rewriting it. */
export const rewriteBoundary = (doomed: number, kept: number): boolean => doomed - kept > NEW_TABLE_COST_ROWS;
