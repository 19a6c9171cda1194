import type { Logger } from 'pino';
import { badRequest, conflict, notFound } from '../../catalog/errors.ts';
import { timeseriesAspectPairs } from '../../catalog/registry/index.ts';
import { dryRunMessage, FLAG_CONFLICT_MESSAGE, resolveTimeseriesIndex, timeseriesIndexName, truncationStrategy } from '../../catalog/truncation.ts';
import type { Parts, TaskRecord, TaskRef, TaskState, TimeseriesIndexRef } from '../../storage/store.ts';
import { formatTaskId } from '../../catalog/task-id.ts';
import type { TaskRunner } from '../task-runner.ts';
import { waitForTaskEnd } from '../wait-for-task.ts';
import { TruncateTask } from './truncate-task.ts';
import {
  isTruncation,
  newTruncationTask,
  TRUNCATION_KIND,
  truncationRecord,
  type TruncationParams,
  type TruncationRecord,
} from './truncation-record.ts';

export const DEFAULT_BATCH_SIZE = 10000;

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
  /** Runs a truncation whose cutoff lies in the future, which deletes the whole index (refused otherwise). */
  readonly force?: boolean;
}

/** Clocks disagree: a cutoff up to this far ahead of the server's clock is taken as "now", not as a mistake. */
export const FUTURE_CUTOFF_TOLERANCE_MILLIS = 5 * 60_000;

export interface IndexSize extends TimeseriesIndexRef {
  readonly indexName: string;
  readonly sizeBytes: number;
  readonly rowCount: number;
  readonly oldestTimestampMillis: number | null;
  readonly newestTimestampMillis: number | null;
}

function futureCutoffMessage(cutoff: number, now: number, counts: { matching: number; total: number }): string {
  const when = Math.abs(cutoff) < 8.64e15 ? new Date(cutoff).toISOString() : `${cutoff}`;
  const unit = cutoff > now * 100 ? ' It looks like microseconds or nanoseconds; endTimeMillis is in milliseconds.' : '';
  return (
    `Parameter 'endTimeMillis': ${cutoff} (${when}) is in the future, so this truncation would delete every row of the index ` +
    `(${counts.matching} of ${counts.total}).${unit} Pass force: true to run it anyway.`
  );
}

/** The operations resource's use cases: truncate an index, list index sizes, follow tasks. */
export class TimeseriesOperations {
  constructor(
    private readonly ports: Pick<Parts, 'tasks' | 'timeseries' | 'truncation'>,
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
    const counts = await this.ports.timeseries.countTimeseriesBefore(index, req.endTimeMillis);
    if (req.dryRun) return dryRunMessage(counts, strategy);
    const now = this.clock();
    if (req.endTimeMillis > now + FUTURE_CUTOFF_TOLERANCE_MILLIS && req.force !== true) {
      throw badRequest(futureCutoffMessage(req.endTimeMillis, now, counts));
    }

    const result = await this.startTruncation(
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
      actor,
    );
    if ('running' in result) {
      const running = formatTaskId(result.running);
      throw conflict(`A truncation of ${timeseriesIndexName(index)} is already running as task ${running}`, { taskId: running });
    }
    return formatTaskId(result.created);
  }

  /** Records the truncation as a task and runs it in this process, unless one of the same index runs already. */
  async startTruncation(params: TruncationParams, actor: string): Promise<{ created: TaskRecord } | { running: TaskRecord }> {
    const result = await this.ports.tasks.createTask(newTruncationTask(this.runner.owner(), actor, params, this.clock()));
    if ('running' in result) return result;
    const task = result.created;
    this.logger.info(
      {
        taskId: formatTaskId(task),
        index: timeseriesIndexName(params),
        cutoff: params.cutoffMillis,
        strategy: params.strategy,
        rowsToDelete: params.rowsToDelete,
        ...(params.retentionRun ? { retentionRun: params.retentionRun } : {}),
      },
      'truncation started',
    );
    this.runner.launch(new TruncateTask(this.ports, truncationRecord(task), this.logger, this.clock));
    return result;
  }

  /** Every timeseries index the registry knows, largest first, with how far back its data goes. */
  async indexSizes(): Promise<IndexSize[]> {
    const stats = new Map((await this.ports.timeseries.timeseriesIndexStats()).map((s) => [`${s.entityType}\u0000${s.aspect}`, s]));
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

  /** The truncation task; undefined for none, or for a task of another kind (a retention run has its own routes). */
  async getTask(ref: TaskRef): Promise<TaskRecord | undefined> {
    const task = await this.ports.tasks.getTask(ref);
    return task && isTruncation(task) ? task : undefined;
  }

  /** The task once it is no longer running, or as it stands after `maxMillis`; undefined if there is no such task. */
  waitForTask(ref: TaskRef, maxMillis: number): Promise<TaskRecord | undefined> {
    return waitForTaskEnd(this.runner, (r) => this.getTask(r), ref, maxMillis, this.clock);
  }

  listTasks(filter: { state?: TaskState; limit: number }): Promise<TaskRecord[]> {
    return this.ports.tasks.listTasks({ ...filter, kind: TRUNCATION_KIND });
  }

  /** The latest truncation tasks, newest first. */
  async truncations(limit: number): Promise<TruncationRecord[]> {
    return (await this.ports.tasks.listTasks({ limit, kind: TRUNCATION_KIND })).map(truncationRecord);
  }

  /** Asks a running task to stop at its next step; it then ends as cancelled. */
  async cancel(ref: TaskRef): Promise<TaskRecord> {
    if (!(await this.getTask(ref))) throw notFound(`Task ${formatTaskId(ref)} not found`);
    const record = await this.runner.cancel(ref);
    if (!record) throw notFound(`Task ${formatTaskId(ref)} not found`);
    return record;
  }
}
