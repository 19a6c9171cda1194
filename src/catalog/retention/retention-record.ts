import type { Json, NewTask, TaskRecord, TaskRef, TaskState } from '../../storage/store.ts';

export const RETENTION_KIND = 'retention';

/** One retention run at a time, whichever process starts it. */
export const RETENTION_KEY = RETENTION_KIND;

/** The actor of scheduled runs and of the passes a policy change starts. */
export const RETENTION_ACTOR = 'urn:li:corpuser:__almanac_retention';

export type RetentionTrigger = 'schedule' | 'manual' | 'policy';

/** What a run was asked to do: the task's params. */
export interface RetentionRunParams {
  readonly trigger: RetentionTrigger;
  /** Only what this policy governs; null: every policy. */
  readonly policy: { readonly entity: string; readonly aspect: string } | null;
  /** Timeseries indices (as truncation tasks) and versioned aspects. */
  readonly timeseries: boolean;
  readonly versions: boolean;
  /** Lifts the share guard for this run. */
  readonly confirm: boolean;
  /** An index run that would delete more than this share of its rows is skipped unless confirmed. */
  readonly maxDeletePercent: number;
  /** The clock the run measures ages from. */
  readonly now: number;
}

/** What the run did with one index or one (entity type, aspect) pair of versioned aspects. */
export interface RetentionOutcome {
  readonly kind: 'timeseries' | 'versioned';
  readonly entityType: string;
  readonly aspect: string;
  /** The policy that governs it. */
  readonly policy: { readonly entity: string; readonly aspect: string };
  /** started: a truncation task runs it; skipped: the share guard stopped it; busy: a truncation of the index already runs; applied: versions deleted. */
  readonly outcome: 'started' | 'skipped' | 'busy' | 'applied';
  readonly reason?: string;
  readonly taskId?: string;
  readonly cutoffMillis?: number;
  readonly rowsToDelete?: number;
  readonly totalRows?: number;
  readonly versionsDeleted?: number;
}

export interface RetentionRunProgress {
  readonly outcomes: readonly RetentionOutcome[];
  readonly versionsDeleted: number;
}

export interface RetentionRunRecord extends RetentionRunParams, RetentionRunProgress, TaskRef {
  readonly state: TaskState;
  readonly createdBy: string;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly error: string | null;
}

export function newRetentionTask(
  owner: { readonly nodeId: string; readonly ownerPid: number; readonly ownerHost: string },
  createdBy: string,
  params: RetentionRunParams,
  startedAt: number,
): NewTask {
  const progress: RetentionRunProgress = { outcomes: [], versionsDeleted: 0 };
  return {
    kind: RETENTION_KIND,
    ...owner,
    createdBy,
    exclusiveKey: RETENTION_KEY,
    params: { ...params } as unknown as Json,
    progress: { ...progress } as unknown as Json,
    startedAt,
  };
}

export const isRetentionRun = (t: TaskRecord): boolean => t.kind === RETENTION_KIND;

export function retentionRunRecord(t: TaskRecord): RetentionRunRecord {
  if (!isRetentionRun(t)) throw new Error(`task ${t.nodeId}:${t.number} is a ${t.kind}, not a retention run`);
  const params = t.params as unknown as RetentionRunParams;
  const progress = t.progress as unknown as Partial<RetentionRunProgress>;
  return {
    ...params,
    outcomes: progress.outcomes ?? [],
    versionsDeleted: progress.versionsDeleted ?? 0,
    nodeId: t.nodeId,
    number: t.number,
    state: t.state,
    createdBy: t.createdBy,
    startedAt: t.startedAt,
    endedAt: t.endedAt,
    error: t.error,
  };
}
