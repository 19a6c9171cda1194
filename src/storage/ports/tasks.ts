import type { Json } from './aspects.ts';

export type TaskState = 'running' | 'completed' | 'failed' | 'timed_out' | 'cancelled';

/** `rebuild` retires whole partitions and trims or rewrites the boundary one; `delete_by_query` deletes rows in batches. */
export type TruncationStrategy = 'rebuild' | 'delete_by_query';

/** A task is addressed as `<nodeId>:<number>`; the number is unique across nodes. */
export interface TaskRef {
  readonly nodeId: string;
  readonly number: number;
}

/** A task to record as running. What it does is its kind's business: its parameters and progress are JSON. */
export interface NewTask {
  /** Names the code that runs it and reads its parameters and progress (src/tasks/<kind>/). */
  readonly kind: string;
  /** The process that runs it; the task number is assigned by the database. */
  readonly nodeId: string;
  readonly createdBy: string;
  readonly ownerPid: number;
  readonly ownerHost: string;
  /** At most one running task holds a key (one truncation per index); null: no such limit. */
  readonly exclusiveKey: string | null;
  /** What it was asked to do, fixed at creation. */
  readonly params: Json;
  /** How far it has got; patched as it runs. */
  readonly progress: Json;
  readonly startedAt: number;
}

/** A task as recorded durably: who, what, how far, and how it ended. */
export interface TaskRecord extends NewTask, TaskRef {
  readonly state: TaskState;
  readonly endedAt: number | null;
  readonly heartbeatAt: number;
  readonly error: string | null;
  readonly cancelRequested: boolean;
}

/** Fields a task update may set; the rest stay as they are. `progress` is merged into the stored one, key by key. */
export interface TaskPatch {
  readonly state?: TaskState;
  readonly endedAt?: number | null;
  readonly heartbeatAt?: number;
  readonly error?: string | null;
  readonly progress?: Json;
}

/** What TaskPort only reads: a composition root may answer these from another handle (a read replica). */
export interface TaskReads {
  getTask(ref: TaskRef): Promise<TaskRecord | undefined>;
  /** Newest first. */
  listTasks(filter: { readonly state?: TaskState; readonly kind?: string; readonly limit: number }): Promise<TaskRecord[]>;
  /** Whether the process that registered `nodeId` is alive; undefined when the backend cannot tell. */
  isTaskNodeAlive(nodeId: string): Promise<boolean | undefined>;
}

/** What TaskPort changes: always the primary database. */
export interface TaskWrites {
  /** Records a running task, unless one with the same exclusive key already runs: then that one is returned instead. */
  createTask(task: NewTask): Promise<{ created: TaskRecord } | { running: TaskRecord }>;
  /** Applies the patch; with `whileRunning`, only if the task is still running. Returns the record, or undefined when nothing matched. */
  updateTask(ref: TaskRef, patch: TaskPatch, options?: { readonly whileRunning?: boolean }): Promise<TaskRecord | undefined>;
  /** Forgets tasks that ended before `endedBefore` (running ones never); returns how many. */
  pruneTasks(endedBefore: number): Promise<number>;
  /** Flags a running task for cancellation; its owner stops it at the next step. */
  requestTaskCancel(ref: TaskRef): Promise<TaskRecord | undefined>;
  /** Refreshes the heartbeat of every running task of the node. */
  heartbeatTasks(nodeId: string, now: number): Promise<void>;
  /** Makes this process's liveness visible to other processes until close(), where the backend can. */
  registerTaskNode(nodeId: string): Promise<void>;
}

/**
 * Background task records, shared by every process using the database.
 */
export interface TaskPort extends TaskReads, TaskWrites {}
