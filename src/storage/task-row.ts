import type { NewTruncationTask, TaskPatch, TaskRecord, TaskState, TruncationStrategy } from './store.ts';

/** The tasks row as both adapters read it (SQLite stores the boolean as 0/1). */
export interface TaskRow {
  number: number;
  node_id: string;
  kind: string;
  state: string;
  created_by: string;
  owner_pid: number;
  owner_host: string;
  entity_type: string;
  aspect: string;
  cutoff_ms: number;
  strategy: string;
  batch_size: number;
  timeout_seconds: number | null;
  requests_per_second: number | null;
  total_rows: number;
  rows_to_delete: number;
  rows_deleted: number;
  batches: number;
  partitions_dropped: number;
  throttled_ms: number;
  freed_bytes: number;
  size_bytes_before: number | null;
  size_bytes_after: number | null;
  reclaimed_bytes: number | null;
  started_at: number;
  ended_at: number | null;
  heartbeat_at: number;
  error: string | null;
  cancel_requested: boolean | number;
}

export const toTaskRecord = (r: TaskRow): TaskRecord => ({
  kind: 'truncateTimeseriesAspect',
  nodeId: r.node_id,
  number: r.number,
  state: r.state as TaskState,
  createdBy: r.created_by,
  ownerPid: r.owner_pid,
  ownerHost: r.owner_host,
  entityType: r.entity_type,
  aspect: r.aspect,
  cutoffMillis: r.cutoff_ms,
  strategy: r.strategy as TruncationStrategy,
  batchSize: r.batch_size,
  timeoutSeconds: r.timeout_seconds,
  requestsPerSecond: r.requests_per_second,
  totalRows: r.total_rows,
  rowsToDelete: r.rows_to_delete,
  rowsDeleted: r.rows_deleted,
  batches: r.batches,
  partitionsDropped: r.partitions_dropped,
  throttledMillis: r.throttled_ms,
  freedBytes: r.freed_bytes,
  sizeBytesBefore: r.size_bytes_before,
  sizeBytesAfter: r.size_bytes_after,
  reclaimedBytes: r.reclaimed_bytes,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  heartbeatAt: r.heartbeat_at,
  error: r.error,
  cancelRequested: Boolean(r.cancel_requested),
});

/** Column values of a new task, in INSERT order. */
export function newTaskColumns(t: NewTruncationTask): Record<string, string | number | null> {
  return {
    node_id: t.nodeId,
    kind: 'truncateTimeseriesAspect',
    state: 'running',
    created_by: t.createdBy,
    owner_pid: t.ownerPid,
    owner_host: t.ownerHost,
    entity_type: t.entityType,
    aspect: t.aspect,
    cutoff_ms: t.cutoffMillis,
    strategy: t.strategy,
    batch_size: t.batchSize,
    timeout_seconds: t.timeoutSeconds,
    requests_per_second: t.requestsPerSecond,
    total_rows: t.totalRows,
    rows_to_delete: t.rowsToDelete,
    started_at: t.startedAt,
    heartbeat_at: t.startedAt,
  };
}

const PATCH_COLUMNS: Readonly<Record<keyof TaskPatch, string>> = {
  state: 'state',
  endedAt: 'ended_at',
  heartbeatAt: 'heartbeat_at',
  error: 'error',
  rowsDeleted: 'rows_deleted',
  batches: 'batches',
  partitionsDropped: 'partitions_dropped',
  throttledMillis: 'throttled_ms',
  freedBytes: 'freed_bytes',
  sizeBytesBefore: 'size_bytes_before',
  sizeBytesAfter: 'size_bytes_after',
  reclaimedBytes: 'reclaimed_bytes',
};

/** The patch as (column, value) pairs; column names come from a fixed table, never from input. */
export function taskPatchColumns(patch: TaskPatch): Array<[string, string | number | null]> {
  return (Object.keys(patch) as Array<keyof TaskPatch>)
    .filter((k) => patch[k] !== undefined && Object.hasOwn(PATCH_COLUMNS, k))
    .map((k) => [PATCH_COLUMNS[k], patch[k] as string | number | null]);
}
