/**
 * The JSON the server sends about timeseries indices and tasks, declared once: the routes build these, and the CLI
 * (`src/cli/`) and the console (`web/src/`) read them. Types only, so the console's bundle takes nothing from here.
 */

/** One index in getIndexSizes' `indexSizes` (Rest.li `operations` resource). */
export interface IndexSizeWire {
  readonly indexName: string;
  /** DataHub lower-cases the entity and aspect names here. */
  readonly entityName: string;
  readonly aspectName: string;
  /** Bytes / 1,000 (older DataHub's field). */
  readonly sizeMb: number;
  /** Bytes / 1,000,000 (newer DataHub's field). */
  readonly sizeInMb: number;
  readonly sizeBytes: number;
  readonly rowCount: number;
  /** Left out when the index holds no row. */
  readonly oldestTimestampMillis?: number;
  readonly newestTimestampMillis?: number;
}

export type TaskStateWire = 'running' | 'completed' | 'failed' | 'timed_out' | 'cancelled';

/** A task as `GET /api/tasks` and `GET /api/tasks/{id}` show it to people and scripts. */
export interface TaskWire {
  readonly id: string;
  readonly kind: string;
  readonly state: TaskStateWire;
  readonly completed: boolean;
  readonly index: { readonly entityType: string; readonly aspect: string; readonly indexName: string };
  readonly cutoffMillis: number;
  readonly strategy: string;
  readonly batchSize: number;
  readonly timeoutSeconds: number | null;
  readonly requestsPerSecond: number | null;
  readonly createdBy: string;
  readonly totalRows: number;
  readonly rowsToDelete: number;
  readonly rowsDeleted: number;
  readonly batches: number;
  readonly partitionsDropped: number;
  readonly throttledMillis: number;
  readonly freedBytes: number;
  readonly sizeBytesBefore: number | null;
  readonly sizeBytesAfter: number | null;
  readonly reclaimedBytes: number | null;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly runTimeMillis: number;
  readonly cancelRequested: boolean;
  readonly error: string | null;
  readonly owner: { readonly nodeId: string; readonly pid: number; readonly host: string; readonly heartbeatAt: number };
}

/** getEsTaskStatus' document: Elasticsearch's task fields as DataHub returns them, plus Almanac's state, error and strategy. */
export interface EsTaskStatusWire {
  readonly completed: boolean;
  readonly taskId: string;
  readonly status: {
    readonly total: number;
    readonly updated: number;
    readonly created: number;
    readonly deleted: number;
    readonly batches: number;
    readonly version_conflicts: number;
    readonly noops: number;
    readonly retries: { readonly bulk: number; readonly search: number };
    readonly throttled_millis: number;
    readonly requests_per_second: number;
    readonly throttled_until_millis: number;
  };
  readonly runTimeNanos: number;
  readonly state: TaskStateWire;
  readonly error: string | null;
  readonly strategy: string;
}
