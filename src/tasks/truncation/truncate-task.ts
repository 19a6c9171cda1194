import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Parts, TaskRef, TaskState, TruncationStep } from '../../storage/store.ts';
import { changedSomething } from '../../storage/ports/truncation.ts';
import { formatTaskId } from '../../catalog/task-id.ts';
import type { BackgroundTask, StopReason } from '../task-runner.ts';
import { truncationRecord, type TruncationRecord } from './truncation-record.ts';

/** The longest delay a Node timer keeps (about 24.8 days). */
const MAX_TIMER_MILLIS = 2 ** 31 - 1;

/** Partitions one retire step takes out of the index (a metadata change each; their tables are dropped by reclaim). */
const RETIRE_STEP_PARTITIONS = 1024;
const RECLAIM_STEP_MILLIS = 50;
/** The heartbeat and throttle time are written, and a cancel asked for elsewhere read, at most this often. */
const PROGRESS_EVERY_MILLIS = 100;

const SHUTDOWN_MESSAGE =
  'Interrupted: the server shut down before the task finished. Rows deleted so far stay deleted and counts are consistent; run the truncation again to finish.';

class LostOwnership extends Error {}

/**
 * Deletes the rows of one timeseries index older than the cutoff, in steps that
 * each leave the index consistent: whole day partitions are retired, then the
 * boundary day is trimmed (rebuild), or rows go in batches (delete by query).
 * Between steps it honours cancel, shutdown, the timeout and the throttle.
 * Once the rows are gone it records the task's end, then drops the tables it
 * retired, hands freed space back to the file system, and measures the index.
 */
export class TruncateTask implements BackgroundTask {
  readonly ref: TaskRef;
  readonly ended: Promise<void>;
  private markEnded!: () => void;
  /** The deletion counters are the store's: each step adds its own in its transaction. The task keeps only its waiting time. */
  private throttledMillis: number;
  private lastWrite = 0;
  private cancelledElsewhere = false;
  private stepMillis = 0;
  private readonly deadline: number;

  constructor(
    private readonly ports: Pick<Parts, 'tasks' | 'truncation'>,
    private readonly record: TruncationRecord,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.ref = { nodeId: record.nodeId, number: record.number };
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
    this.throttledMillis = record.throttledMillis;
    this.deadline = record.timeoutSeconds === null ? Infinity : record.startedAt + record.timeoutSeconds * 1000;
  }

  private get index() {
    return { entityType: this.record.entityType, aspect: this.record.aspect };
  }

  async perform(signal: AbortSignal): Promise<void> {
    try {
      await this.run(signal);
    } finally {
      this.markEnded();
    }
  }

  private async run(signal: AbortSignal): Promise<void> {
    let state: TaskState = 'completed';
    let error: string | null = null;
    try {
      state = (await this.deleteRows(signal)) ?? 'completed';
      if (state === 'failed') error = SHUTDOWN_MESSAGE;
    } catch (e) {
      if (e instanceof LostOwnership) return;
      this.logger.error({ err: e, taskId: formatTaskId(this.ref) }, 'truncation failed');
      state = 'failed';
      error = 'The truncation stopped on a storage error; rows deleted so far stay deleted and counts are consistent. See the server log.';
    }
    const ended = await this.ports.tasks.updateTask(
      this.ref,
      { progress: { throttledMillis: this.throttledMillis }, state, endedAt: this.clock(), error },
      { whileRunning: true },
    );
    this.markEnded();
    if (!ended) return;
    const record = truncationRecord(ended);
    this.logger.info({ taskId: formatTaskId(this.ref), state, rowsDeleted: record.rowsDeleted }, 'truncation ended');
    // After a cancel or at shutdown the caller wants it to stop: sizes are measured and space reclaimed only otherwise.
    if (!signal.aborted && !this.cancelledElsewhere) await this.measureAndReclaim(record, signal);
  }

  /** Runs the strategy's steps; returns why it stopped early, if it did. */
  private async deleteRows(signal: AbortSignal): Promise<TaskState | undefined> {
    const { cutoffMillis: cutoff, strategy, batchSize, requestsPerSecond } = this.record;
    if (strategy === 'rebuild') {
      const budget = { maxPartitions: requestsPerSecond === null ? RETIRE_STEP_PARTITIONS : 1 };
      for (;;) {
        const stop = this.stopReason(signal);
        if (stop) return stop;
        const step = await this.timed(() => this.ports.truncation.retireTimeseriesPartitionsBefore(this.index, cutoff, budget, this.ref));
        if (step.partitionsDropped === 0) break;
        await this.afterStep(step, signal);
      }
      const stop = this.stopReason(signal);
      if (stop) return stop;
      await this.afterStep(await this.timed(() => this.ports.truncation.trimTimeseriesBoundary(this.index, cutoff, this.ref)), signal);
      return undefined;
    }
    for (;;) {
      const stop = this.stopReason(signal);
      if (stop) return stop;
      const step = await this.timed(() => this.ports.truncation.deleteTimeseriesRowsBefore(this.index, cutoff, batchSize, this.ref));
      if (step.rows === 0) return undefined;
      await this.afterStep(step, signal);
    }
  }

  private stopReason(signal: AbortSignal): TaskState | undefined {
    if (signal.aborted) return signal.reason === ('cancelled' satisfies StopReason) ? 'cancelled' : 'failed';
    if (this.cancelledElsewhere) return 'cancelled';
    if (this.clock() >= this.deadline) return 'timed_out';
    return undefined;
  }

  private async timed(run: () => Promise<TruncationStep>): Promise<TruncationStep> {
    const started = this.clock();
    const step = await run();
    this.stepMillis = this.clock() - started;
    return step;
  }

  private async afterStep(step: TruncationStep, signal: AbortSignal): Promise<void> {
    if (!changedSomething(step)) return;
    await this.throttle(step.rows, signal);
    if (this.clock() - this.lastWrite >= PROGRESS_EVERY_MILLIS) await this.saveProgress(signal);
    // SQLite steps run on this thread: let requests in between.
    await yieldToEventLoop();
  }

  /** Waits so that rows go at no more than requestsPerSecond, cut short by a stop or the deadline. */
  private async throttle(rows: number, signal: AbortSignal): Promise<void> {
    const rps = this.record.requestsPerSecond;
    if (rps === null) return;
    // A timer longer than 2^31-1 ms fires at once; a wait that long is still bounded by the deadline or a cancel.
    const wait = Math.min((rows / rps) * 1000 - this.stepMillis, this.deadline - this.clock(), MAX_TIMER_MILLIS);
    if (wait <= 0 || signal.aborted) return;
    const started = this.clock();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
    this.throttledMillis += this.clock() - started;
  }

  private async saveProgress(signal: AbortSignal): Promise<void> {
    this.lastWrite = this.clock();
    const saved = await this.ports.tasks.updateTask(
      this.ref,
      { progress: { throttledMillis: this.throttledMillis }, heartbeatAt: this.lastWrite },
      { whileRunning: true },
    );
    if (!saved) throw new LostOwnership();
    // A cancel requested through another process reaches this one here.
    if (saved.cancelRequested && !signal.aborted) this.cancelledElsewhere = true;
  }

  /**
   * Reclaims first, then measures: the retired partitions' bytes are known once
   * reclaim drops them, and measuring (on SQLite, a walk over every page of the
   * index) costs far less once they are gone. The size before is the size after
   * plus every byte freed.
   */
  private async measureAndReclaim(ended: TruncationRecord, signal: AbortSignal): Promise<void> {
    try {
      let reclaimed = 0;
      let freed = ended.freedBytes;
      // SQLite reclaims on this thread: whoever waits for the end hears of it before the first step runs.
      await yieldToEventLoop();
      for (let done = false; !done;) {
        if (signal.aborted) return;
        const r = await this.ports.truncation.reclaimTimeseriesSpace(this.index, this.record.cutoffMillis, RECLAIM_STEP_MILLIS, this.ref);
        reclaimed += r.reclaimedBytes;
        freed += r.freedBytes;
        done = r.done;
        await yieldToEventLoop();
      }
      const sizeAfter = await this.ports.truncation.timeseriesIndexSizeBytes(this.index);
      await this.ports.tasks.updateTask(this.ref, {
        progress: { freedBytes: freed, sizeBytesAfter: sizeAfter, sizeBytesBefore: sizeAfter + freed, reclaimedBytes: reclaimed },
      });
    } catch (err) {
      this.logger.warn({ err, taskId: formatTaskId(this.ref) }, 'could not measure or reclaim space after a truncation');
    }
  }
}
