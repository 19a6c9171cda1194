import type { Json, NewTask, TaskPatch, TaskRecord, TaskState } from './store.ts';

/** The tasks row as both adapters read it (SQLite keeps JSON as text and the boolean as 0/1). */
export interface TaskRow {
  number: number;
  node_id: string;
  kind: string;
  state: string;
  created_by: string;
  owner_pid: number;
  owner_host: string;
  exclusive_key: string | null;
  params: Json | string;
  progress: Json | string;
  started_at: number;
  ended_at: number | null;
  heartbeat_at: number;
  error: string | null;
  cancel_requested: boolean | number;
}

const json = (v: Json | string): Json => (typeof v === 'string' ? (JSON.parse(v) as Json) : v);

export const toTaskRecord = (r: TaskRow): TaskRecord => ({
  kind: r.kind,
  nodeId: r.node_id,
  number: r.number,
  state: r.state as TaskState,
  createdBy: r.created_by,
  ownerPid: r.owner_pid,
  ownerHost: r.owner_host,
  exclusiveKey: r.exclusive_key,
  params: json(r.params),
  progress: json(r.progress),
  startedAt: r.started_at,
  endedAt: r.ended_at,
  heartbeatAt: r.heartbeat_at,
  error: r.error,
  cancelRequested: Boolean(r.cancel_requested),
});

/** Column values of a new task, in INSERT order; JSON as text (PostgreSQL casts it). */
export function newTaskColumns(t: NewTask): Record<string, string | number | null> {
  return {
    node_id: t.nodeId,
    kind: t.kind,
    state: 'running',
    created_by: t.createdBy,
    owner_pid: t.ownerPid,
    owner_host: t.ownerHost,
    exclusive_key: t.exclusiveKey,
    params: JSON.stringify(t.params),
    progress: JSON.stringify(t.progress),
    started_at: t.startedAt,
    heartbeat_at: t.startedAt,
  };
}

const PATCH_COLUMNS: Readonly<Record<Exclude<keyof TaskPatch, 'progress'>, string>> = {
  state: 'state',
  endedAt: 'ended_at',
  heartbeatAt: 'heartbeat_at',
  error: 'error',
};

/** The patch's plain columns as (column, value) pairs; column names come from a fixed table, never from input. */
export function taskPatchColumns(patch: TaskPatch): Array<[string, string | number | null]> {
  return (Object.keys(PATCH_COLUMNS) as Array<keyof typeof PATCH_COLUMNS>)
    .filter((k) => patch[k] !== undefined)
    .map((k) => [PATCH_COLUMNS[k], patch[k] as string | number | null]);
}

/** The progress patch as JSON text, or null when the patch leaves progress alone. */
export const progressPatch = (patch: TaskPatch): string | null => (patch.progress === undefined ? null : JSON.stringify(patch.progress));
