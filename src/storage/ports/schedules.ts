/**
 * Periodic jobs run once across every process sharing the database: each occurrence of a job (its due time) is a
 * row, claimed by one process with a lease. A claim whose lease ran out unfinished (its process died) can be taken
 * again; a finished occurrence never runs again.
 */
export interface ScheduledRun {
  readonly job: string;
  readonly dueAt: number;
  /** The process that claimed it last. */
  readonly nodeId: string;
  readonly claimedAt: number;
  readonly leaseUntil: number;
  /** How many times it was claimed: 1 unless a claimant died before finishing. */
  readonly attempts: number;
  readonly finishedAt: number | null;
  readonly outcome: 'completed' | 'failed' | null;
  readonly error: string | null;
}

export interface ScheduleClaim {
  readonly job: string;
  readonly dueAt: number;
  readonly nodeId: string;
  readonly now: number;
  readonly leaseMillis: number;
}

/** What SchedulePort only reads: a composition root may answer these from another handle (a read replica). */
export interface ScheduleReads {
  /** Newest first. */
  listScheduledRuns(filter: { readonly job?: string; readonly limit: number }): Promise<ScheduledRun[]>;
}

/** What SchedulePort changes: always the primary database. */
export interface ScheduleWrites {
  /** Claims the occurrence for this node: true for one caller only, unless an earlier claim's lease ran out unfinished. */
  claimScheduledRun(claim: ScheduleClaim): Promise<boolean>;
  /** Records how the claimed occurrence ended; only the claimant's own claim is updated. */
  finishScheduledRun(run: {
    readonly job: string;
    readonly dueAt: number;
    readonly nodeId: string;
    readonly now: number;
    readonly outcome: 'completed' | 'failed';
    readonly error: string | null;
  }): Promise<void>;
  /** Forgets finished occurrences due before `before`; returns how many. */
  pruneScheduledRuns(before: number): Promise<number>;
}

export interface SchedulePort extends ScheduleReads, ScheduleWrites {}
