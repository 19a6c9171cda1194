import type { TimeseriesIndexRef } from './timeseries.ts';

export type TaskState = 'running' | 'completed' | 'failed' | 'timed_out' | 'cancelled';

/** `rebuild` retires whole partitions and trims or rewrites the boundary one; `delete_by_query` deletes rows in batches. */
export type TruncationStrategy = 'rebuild' | 'delete_by_query';

/** A task is addressed as `<nodeId>:<number>`; the number is unique across nodes. */
export interface TaskRef {
  readonly nodeId: string;
  readonly number: number;
}

/** The parts of a task record that change while it runs. */
export interface TaskProgress {
  readonly rowsDeleted: number;
  readonly batches: number;
  readonly partitionsDropped: number;
  readonly throttledMillis: number;
  /** Bytes the index stopped using (engine accounting): trims count at once, retired partitions once reclaim drops them. */
  readonly freedBytes: number;
  /** Index size before and after, and bytes handed back to the file system; null until measured. */
  readonly sizeBytesBefore: number | null;
  readonly sizeBytesAfter: number | null;
  readonly reclaimedBytes: number | null;
}

export interface NewTruncationTask extends TimeseriesIndexRef {
  /** The process that runs it; the task number is assigned by the database. */
  readonly nodeId: string;
  readonly createdBy: string;
  readonly ownerPid: number;
  readonly ownerHost: string;
  readonly cutoffMillis: number;
  readonly strategy: TruncationStrategy;
  readonly batchSize: number;
  readonly timeoutSeconds: number | null;
  readonly requestsPerSecond: number | null;
  readonly totalRows: number;
  readonly rowsToDelete: number;
  readonly startedAt: number;
}

/** A truncation task as recorded durably: who, what, how far, and how it ended. */
export interface TaskRecord extends NewTruncationTask, TaskRef, TaskProgress {
  readonly kind: 'truncateTimeseriesAspect';
  readonly state: TaskState;
  readonly endedAt: number | null;
  readonly heartbeatAt: number;
  readonly error: string | null;
  readonly cancelRequested: boolean;
}

/** Fields a task update may set; the rest stay as they are. */
export type TaskPatch = Partial<TaskProgress> & {
  readonly state?: TaskState;
  readonly endedAt?: number | null;
  readonly heartbeatAt?: number;
  readonly error?: string | null;
};

/**
 * Background task records, shared by every process using the database.
 */
export interface TaskPort {
  /** Records a running truncation, unless one already runs on the index: then that one is returned instead. */
  createTruncationTask(task: NewTruncationTask): Promise<{ created: TaskRecord } | { running: TaskRecord }>;
  /** Applies the patch; with `whileRunning`, only if the task is still running. Returns the record, or undefined when nothing matched. */
  updateTask(ref: TaskRef, patch: TaskPatch, options?: { readonly whileRunning?: boolean }): Promise<TaskRecord | undefined>;
  getTask(ref: TaskRef): Promise<TaskRecord | undefined>;
  /** Newest first. */
  listTasks(filter: { readonly state?: TaskState; readonly limit: number }): Promise<TaskRecord[]>;
  /** Flags a running task for cancellation; its owner stops it at the next step. */
  requestTaskCancel(ref: TaskRef): Promise<TaskRecord | undefined>;
  /** Refreshes the heartbeat of every running task of the node. */
  heartbeatTasks(nodeId: string, now: number): Promise<void>;
  /** Makes this process's liveness visible to other processes until close(), where the backend can. */
  registerTaskNode(nodeId: string): Promise<void>;
  /** Whether the process that registered `nodeId` is alive; undefined when the backend cannot tell. */
  isTaskNodeAlive(nodeId: string): Promise<boolean | undefined>;
}
