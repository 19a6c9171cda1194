import type { ScheduledRun } from './store.ts';

/** The scheduled_runs row as both adapters read it. */
export interface ScheduledRunRow {
  job: string;
  due_at: number;
  node_id: string;
  claimed_at: number;
  lease_until: number;
  attempts: number;
  finished_at: number | null;
  outcome: string | null;
  error: string | null;
}

export const toScheduledRun = (r: ScheduledRunRow): ScheduledRun => ({
  job: r.job,
  dueAt: r.due_at,
  nodeId: r.node_id,
  claimedAt: r.claimed_at,
  leaseUntil: r.lease_until,
  attempts: r.attempts,
  finishedAt: r.finished_at,
  outcome: r.outcome as ScheduledRun['outcome'],
  error: r.error,
});

/**
 * One statement claims an occurrence on both engines: the first insert wins; a later one takes the row over only
 * while it is unfinished and its lease has run out. Parameters by name: job, due, node, now, until.
 */
export const CLAIM_SQL = `
  INSERT INTO scheduled_runs (job, due_at, node_id, claimed_at, lease_until, attempts)
  VALUES (:job, :due, :node, :now, :until, 1)
  ON CONFLICT (job, due_at) DO UPDATE SET node_id = excluded.node_id, claimed_at = excluded.claimed_at,
    lease_until = excluded.lease_until, attempts = scheduled_runs.attempts + 1
  WHERE scheduled_runs.finished_at IS NULL AND scheduled_runs.lease_until < excluded.claimed_at
  RETURNING node_id`;

export const FINISH_SQL = `
  UPDATE scheduled_runs SET finished_at = :now, outcome = :outcome, error = :error
   WHERE job = :job AND due_at = :due AND node_id = :node AND finished_at IS NULL`;

export const LIST_SQL = `SELECT * FROM scheduled_runs WHERE (:job IS NULL OR job = :job) ORDER BY due_at DESC, job LIMIT :limit`;

export const PRUNE_SQL = `DELETE FROM scheduled_runs WHERE finished_at IS NOT NULL AND due_at < :before`;
