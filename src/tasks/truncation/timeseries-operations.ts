import type { Logger } from 'pino';
import { conflict, notFound } from '../../catalog/errors.ts';
import { timeseriesAspectPairs } from '../../catalog/registry/index.ts';
import { dryRunMessage, FLAG_CONFLICT_MESSAGE, resolveTimeseriesIndex, timeseriesIndexName, truncationStrategy } from '../../catalog/truncation.ts';
import type { Store, TaskRecord, TaskRef, TaskState, TimeseriesIndexRef } from '../../storage/store.ts';
import { formatTaskId } from '../task-id.ts';
import type { TaskRunner } from '../task-runner.ts';
import { TruncateTask } from './truncate-task.ts';
import { isTruncation, newTruncationTask, truncationRecord, type TruncationRecord } from './truncation-record.ts';

export const DEFAULT_BATCH_SIZE = 10000;
const WAIT_POLL_MILLIS = 100;

export interface TruncateRequest {
  readonly entityType: string;
  readonly aspect: string;
  readonly endTimeMillis: number;
  readonly dryRun: boolean;
  readonly batchSize: number;
  readonly timeoutSeconds?: number;
  readonly forceDeleteByQuery?: boolean;
  readonly forceReindex?: boolean;
  /** Almanac's throttle, as Elasticsearch's requests_per_second: rows deleted per second at most. */
  readonly requestsPerSecond?: number;
}

export interface IndexSize extends TimeseriesIndexRef {
  readonly indexName: string;
  readonly sizeBytes: number;
  readonly rowCount: number;
  readonly oldestTimestampMillis: number | null;
  readonly newestTimestampMillis: number | null;
}

/** The operations resource's use cases: truncate an index, list index sizes, follow tasks. */
export class TimeseriesOperations {
  constructor(
    private readonly store: Store,
    private readonly runner: TaskRunner,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Returns DataHub's dry-run summary, its flag-conflict answer, or the id of
   * the started task. Rows strictly older than endTimeMillis are deleted.
   */
  async truncate(req: TruncateRequest, actor: string): Promise<string> {
    const index = resolveTimeseriesIndex(req.entityType, req.aspect);
    const strategy = truncationStrategy(req);
    if (strategy === 'conflict') return FLAG_CONFLICT_MESSAGE;
    const counts = await this.store.countTimeseriesBefore(index, req.endTimeMillis);
    if (req.dryRun) return dryRunMessage(counts, strategy);

    const result = await this.store.createTask(
      newTruncationTask(
        this.runner.owner(),
        actor,
        {
          ...index,
          cutoffMillis: req.endTimeMillis,
          strategy,
          batchSize: req.batchSize,
          timeoutSeconds: req.timeoutSeconds ?? null,
          requestsPerSecond: req.requestsPerSecond ?? null,
          totalRows: counts.total,
          rowsToDelete: counts.matching,
        },
        this.clock(),
      ),
    );
    if ('running' in result) {
      const running = formatTaskId(result.running);
      throw conflict(`A truncation of ${timeseriesIndexName(index)} is already running as task ${running}`, { taskId: running });
    }
    const task = result.created;
    this.logger.info(
      { taskId: formatTaskId(task), index: timeseriesIndexName(index), cutoff: req.endTimeMillis, strategy, rowsToDelete: counts.matching },
      'truncation started',
    );
    this.runner.launch(new TruncateTask(this.store, truncationRecord(task), this.logger, this.clock));
    return formatTaskId(task);
  }

  /** Every timeseries index the registry knows, largest first, with how far back its data goes. */
  async indexSizes(): Promise<IndexSize[]> {
    const stats = new Map((await this.store.timeseriesIndexStats()).map((s) => [`${s.entityType}\u0000${s.aspect}`, s]));
    return timeseriesAspectPairs()
      .map((pair) => {
        const s = stats.get(`${pair.entityType}\u0000${pair.aspect}`);
        return {
          ...pair,
          indexName: timeseriesIndexName(pair),
          sizeBytes: s?.sizeBytes ?? 0,
          rowCount: s?.rowCount ?? 0,
          oldestTimestampMillis: s?.oldestTimestampMillis ?? null,
          newestTimestampMillis: s?.newestTimestampMillis ?? null,
        };
      })
      .sort((a, b) => b.sizeBytes - a.sizeBytes || a.indexName.localeCompare(b.indexName));
  }

  getTask(ref: TaskRef): Promise<TaskRecord | undefined> {
    return this.store.getTask(ref);
  }

  /** The task once it is no longer running, or as it stands after `maxMillis`; undefined if there is no such task. */
  async waitForTask(ref: TaskRef, maxMillis: number): Promise<TaskRecord | undefined> {
    const deadline = this.clock() + maxMillis;
    // A task of this process says when it ends; another process's task is read again every so often.
    let local = this.runner.whenEnded(ref);
    for (;;) {
      const task = await this.store.getTask(ref);
      const left = deadline - this.clock();
      const shutdown = this.runner.shutdownSignal;
      if (!task || task.state !== 'running' || left <= 0 || shutdown.aborted) return task;
      const ended = local ?? new Promise<void>((resolve) => setTimeout(resolve, Math.min(WAIT_POLL_MILLIS, left)));
      local = undefined;
      let timer: NodeJS.Timeout | undefined;
      let onShutdown: (() => void) | undefined;
      await Promise.race([
        ended,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, left))),
        new Promise<void>((resolve) => shutdown.addEventListener('abort', (onShutdown = () => resolve()), { once: true })),
      ]);
      clearTimeout(timer);
      shutdown.removeEventListener('abort', onShutdown!);
    }
  }

  listTasks(filter: { state?: TaskState; limit: number }): Promise<TaskRecord[]> {
    return this.store.listTasks(filter);
  }

  /** The latest truncation tasks, newest first. */
  async truncations(limit: number): Promise<TruncationRecord[]> {
    return (await this.store.listTasks({ limit })).filter(isTruncation).map(truncationRecord);
  }

  /** Asks a running task to stop at its next step; it then ends as cancelled. */
  async cancel(ref: TaskRef): Promise<TaskRecord> {
    const record = await this.runner.cancel(ref);
    if (!record) throw notFound(`Task ${formatTaskId(ref)} not found`);
    return record;
  }
}
