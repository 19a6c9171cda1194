import { timeseriesIndexName } from '../catalog/truncation.ts';
import type { TaskRecord } from '../storage/store.ts';
import { formatTaskId } from '../tasks/task-id.ts';

const runTimeMillis = (t: TaskRecord, now: number): number => Math.max(0, (t.endedAt ?? now) - t.startedAt);

/**
 * getEsTaskStatus's document: Elasticsearch's task fields as DataHub returns
 * them (completed, taskId, status, runTimeNanos), plus Almanac's state, error and strategy.
 */
export function esTaskStatus(t: TaskRecord, now: number): Record<string, unknown> {
  return {
    completed: t.state !== 'running',
    taskId: formatTaskId(t),
    status: {
      total: t.rowsToDelete,
      updated: 0,
      created: 0,
      deleted: t.rowsDeleted,
      batches: t.batches,
      version_conflicts: 0,
      noops: 0,
      retries: { bulk: 0, search: 0 },
      throttled_millis: t.throttledMillis,
      requests_per_second: t.requestsPerSecond ?? -1,
      throttled_until_millis: 0,
    },
    runTimeNanos: runTimeMillis(t, now) * 1_000_000,
    state: t.state,
    error: t.error,
    strategy: t.strategy,
  };
}

/** The task as the plain JSON routes show it to people and scripts. */
export function taskView(t: TaskRecord, now: number): Record<string, unknown> {
  const index = { entityType: t.entityType, aspect: t.aspect };
  return {
    id: formatTaskId(t),
    kind: t.kind,
    state: t.state,
    completed: t.state !== 'running',
    index: { ...index, indexName: timeseriesIndexName(index) },
    cutoffMillis: t.cutoffMillis,
    strategy: t.strategy,
    batchSize: t.batchSize,
    timeoutSeconds: t.timeoutSeconds,
    requestsPerSecond: t.requestsPerSecond,
    createdBy: t.createdBy,
    totalRows: t.totalRows,
    rowsToDelete: t.rowsToDelete,
    rowsDeleted: t.rowsDeleted,
    batches: t.batches,
    partitionsDropped: t.partitionsDropped,
    throttledMillis: t.throttledMillis,
    freedBytes: t.freedBytes,
    sizeBytesBefore: t.sizeBytesBefore,
    sizeBytesAfter: t.sizeBytesAfter,
    reclaimedBytes: t.reclaimedBytes,
    startedAt: t.startedAt,
    endedAt: t.endedAt,
    runTimeMillis: runTimeMillis(t, now),
    cancelRequested: t.cancelRequested,
    error: t.error,
    owner: { nodeId: t.nodeId, pid: t.ownerPid, host: t.ownerHost, heartbeatAt: t.heartbeatAt },
  };
}
