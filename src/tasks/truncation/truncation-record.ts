import type { Json, NewTask, TaskRecord, TaskRef, TaskState, TimeseriesIndexRef, TruncationStrategy } from '../../storage/store.ts';

export const TRUNCATION_KIND = 'truncateTimeseriesAspect';

/** What a truncation was asked to do: the task's params. */
export interface TruncationParams extends TimeseriesIndexRef {
  readonly cutoffMillis: number;
  readonly strategy: TruncationStrategy;
  readonly batchSize: number;
  readonly timeoutSeconds: number | null;
  readonly requestsPerSecond: number | null;
  readonly totalRows: number;
  readonly rowsToDelete: number;
  /** The retention run that started it (`<nodeId>:<number>`); absent for a truncation asked for directly. */
  readonly retentionRun?: string;
}

/** How far it got: the task's progress (the step counters the storage adds in each step's transaction). */
export interface TruncationProgress {
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

/** A truncation task as its code and its views read it: the record's common fields with its params and progress. */
export interface TruncationRecord extends TruncationParams, TruncationProgress, TaskRef {
  readonly kind: typeof TRUNCATION_KIND;
  readonly state: TaskState;
  readonly createdBy: string;
  readonly ownerPid: number;
  readonly ownerHost: string;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly heartbeatAt: number;
  readonly error: string | null;
  readonly cancelRequested: boolean;
}

const NO_PROGRESS: TruncationProgress = {
  rowsDeleted: 0,
  batches: 0,
  partitionsDropped: 0,
  throttledMillis: 0,
  freedBytes: 0,
  sizeBytesBefore: null,
  sizeBytesAfter: null,
  reclaimedBytes: null,
};

/** Only one truncation of an index runs at a time, whichever process starts it. */
export const truncationKey = (index: TimeseriesIndexRef): string => `${TRUNCATION_KIND}:${index.entityType}:${index.aspect}`;

export function newTruncationTask(
  owner: { readonly nodeId: string; readonly ownerPid: number; readonly ownerHost: string },
  createdBy: string,
  params: TruncationParams,
  startedAt: number,
): NewTask {
  return {
    kind: TRUNCATION_KIND,
    ...owner,
    createdBy,
    exclusiveKey: truncationKey(params),
    params: { ...params } as unknown as Json,
    progress: { ...NO_PROGRESS } as unknown as Json,
    startedAt,
  };
}

export const isTruncation = (t: TaskRecord): boolean => t.kind === TRUNCATION_KIND;

/** The record as a truncation; progress keys a task has not written yet read as none done. */
export function truncationRecord(t: TaskRecord): TruncationRecord {
  if (!isTruncation(t)) throw new Error(`task ${t.nodeId}:${t.number} is a ${t.kind}, not a truncation`);
  const params = t.params as unknown as TruncationParams;
  return {
    ...NO_PROGRESS,
    ...(t.progress as unknown as Partial<TruncationProgress>),
    entityType: params.entityType,
    aspect: params.aspect,
    cutoffMillis: params.cutoffMillis,
    strategy: params.strategy,
    batchSize: params.batchSize,
    timeoutSeconds: params.timeoutSeconds,
    requestsPerSecond: params.requestsPerSecond,
    totalRows: params.totalRows,
    rowsToDelete: params.rowsToDelete,
    ...(params.retentionRun !== undefined ? { retentionRun: params.retentionRun } : {}),
    kind: TRUNCATION_KIND,
    nodeId: t.nodeId,
    number: t.number,
    state: t.state,
    createdBy: t.createdBy,
    ownerPid: t.ownerPid,
    ownerHost: t.ownerHost,
    startedAt: t.startedAt,
    endedAt: t.endedAt,
    heartbeatAt: t.heartbeatAt,
    error: t.error,
    cancelRequested: t.cancelRequested,
  };
}
