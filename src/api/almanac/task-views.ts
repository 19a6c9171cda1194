import { timeseriesIndexName } from '../../catalog/truncation.ts';
import type { TaskRecord } from '../../storage/store.ts';
import { formatTaskId } from '../../catalog/task-id.ts';
import type { EsTaskStatusWire, IndexSizeWire, TaskWire } from '../wire/timeseries.ts';
import type { IndexSize } from '../../tasks/truncation/timeseries-operations.ts';
import { truncationRecord, type TruncationRecord } from '../../tasks/truncation/truncation-record.ts';

const runTimeMillis = (t: Pick<TaskRecord, 'startedAt' | 'endedAt'>, now: number): number => Math.max(0, (t.endedAt ?? now) - t.startedAt);

/**
 * getEsTaskStatus's document: Elasticsearch's task fields as DataHub returns
 * them (completed, taskId, status, runTimeNanos), plus Almanac's state, error and strategy.
 */
export function esTaskStatus(task: TaskRecord, now: number): EsTaskStatusWire {
  const t: TruncationRecord = truncationRecord(task);
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
export function taskView(task: TaskRecord, now: number): TaskWire {
  const t: TruncationRecord = truncationRecord(task);
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

/** One index in getIndexSizes' answer. */
export function indexSizeView(s: IndexSize): IndexSizeWire {
  return {
    indexName: s.indexName,
    entityName: s.entityType.toLowerCase(),
    aspectName: s.aspect.toLowerCase(),
    // Older DataHub filled sizeMb with bytes / 1000, newer fills sizeInMb with bytes / 1000000: both are given.
    sizeMb: s.sizeBytes / 1000,
    sizeInMb: s.sizeBytes / 1_000_000,
    sizeBytes: s.sizeBytes,
    rowCount: s.rowCount,
    ...(s.oldestTimestampMillis !== null ? { oldestTimestampMillis: s.oldestTimestampMillis } : {}),
    ...(s.newestTimestampMillis !== null ? { newestTimestampMillis: s.newestTimestampMillis } : {}),
  };
}
