import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { RetentionPolicies } from '../../catalog/retention/retention-policies.ts';
import type { Json, Parts, TaskRef, TaskState } from '../../storage/store.ts';
import { formatTaskId } from '../../catalog/task-id.ts';
import type { BackgroundTask } from '../task-runner.ts';
import { DEFAULT_BATCH_SIZE, type TimeseriesOperations } from '../truncation/timeseries-operations.ts';
import { planTimeseries, planVersions } from '../../catalog/retention/retention-plan.ts';
import type { RetentionOutcome, RetentionRunRecord } from '../../catalog/retention/retention-record.ts';

/** Urns whose earlier versions one transaction of the versioned pass looks at. */
export const VERSION_PASS_URNS = 500;

const confirmHint = (maxDeletePercent: number) =>
  `more than ALMANAC_RETENTION_MAX_DELETE_PERCENT (${maxDeletePercent}%); run it once with confirmation (almanac retention run --confirm) if that is meant`;

/**
 * One retention run: each timeseries index a policy governs becomes an ordinary truncation task (same fast path,
 * same records, same reclaim), unless it would delete more than the configured share and is not confirmed; then the
 * versioned aspects' earlier versions go, a few hundred urns per transaction. What it did with each index and pair
 * is its progress.
 */
export class RetentionRunTask implements BackgroundTask {
  readonly ref: TaskRef;
  readonly ended: Promise<void>;
  private markEnded!: () => void;
  private readonly outcomes: RetentionOutcome[] = [];
  private versionsDeleted = 0;

  constructor(
    private readonly ports: Pick<Parts, 'retention' | 'tasks' | 'timeseries'>,
    private readonly record: RetentionRunRecord,
    private readonly policies: RetentionPolicies,
    private readonly operations: TimeseriesOperations,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.ref = { nodeId: record.nodeId, number: record.number };
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
  }

  async perform(signal: AbortSignal): Promise<void> {
    let state: TaskState = 'completed';
    let error: string | null = null;
    try {
      if (this.record.timeseries) await this.runTimeseries();
      if (this.record.versions) state = await this.runVersions(signal);
      if (state === 'failed') error = 'Interrupted: the server shut down during the run. What it deleted stays deleted; the next run goes on.';
    } catch (e) {
      this.logger.error({ err: e, taskId: formatTaskId(this.ref) }, 'retention run failed');
      state = 'failed';
      error = 'The retention run stopped on a storage error; what it deleted stays deleted. See the server log.';
    }
    try {
      await this.ports.tasks.updateTask(this.ref, { progress: this.progress(), state, endedAt: this.clock(), error }, { whileRunning: true });
      this.logger.info(
        { taskId: formatTaskId(this.ref), state, versionsDeleted: this.versionsDeleted, outcomes: this.outcomes.length },
        'retention run ended',
      );
    } finally {
      this.markEnded();
    }
  }

  private progress(): Json {
    return { outcomes: this.outcomes, versionsDeleted: this.versionsDeleted } as unknown as Json;
  }

  private async runTimeseries(): Promise<void> {
    const r = this.record;
    const runId = formatTaskId(this.ref);
    for (const item of await planTimeseries(this.ports, this.policies, r.now, r.maxDeletePercent, r.policy)) {
      if (item.rowsToDelete === 0) continue;
      const base = {
        kind: 'timeseries' as const,
        entityType: item.entityType,
        aspect: item.aspect,
        policy: item.policy,
        cutoffMillis: item.cutoffMillis,
        rowsToDelete: item.rowsToDelete,
        totalRows: item.totalRows,
      };
      if (item.needsConfirmation && !r.confirm) {
        const share = item.sharePercent.toFixed(2);
        this.outcomes.push({
          ...base,
          outcome: 'skipped',
          reason: `It would delete ${share}% of the index (${item.rowsToDelete} of ${item.totalRows} rows), ${confirmHint(r.maxDeletePercent)}.`,
        });
        this.logger.warn({ index: item, runId }, 'retention skipped an index: it would delete more than the allowed share');
        continue;
      }
      const started = await this.operations.startTruncation(
        {
          entityType: item.entityType,
          aspect: item.aspect,
          cutoffMillis: item.cutoffMillis,
          strategy: 'rebuild',
          batchSize: DEFAULT_BATCH_SIZE,
          timeoutSeconds: null,
          requestsPerSecond: null,
          totalRows: item.totalRows,
          rowsToDelete: item.rowsToDelete,
          retentionRun: runId,
        },
        this.record.createdBy,
      );
      this.outcomes.push(
        'created' in started
          ? { ...base, outcome: 'started', taskId: formatTaskId(started.created) }
          : { ...base, outcome: 'busy', taskId: formatTaskId(started.running), reason: 'A truncation of this index was already running.' },
      );
    }
    await this.ports.tasks.updateTask(this.ref, { progress: this.progress(), heartbeatAt: this.clock() }, { whileRunning: true });
  }

  /** Returns how the run ends: completed, or failed when stopped by shutdown. */
  private async runVersions(signal: AbortSignal): Promise<TaskState> {
    for (const item of await planVersions(this.ports, this.policies, this.record.policy)) {
      let deleted = 0;
      let afterUrn: string | undefined;
      for (;;) {
        if (signal.aborted) return signal.reason === 'cancelled' ? 'cancelled' : 'failed';
        const step = await this.ports.retention.applyVersionRetention({
          entityType: item.entityType,
          aspect: item.aspect,
          rule: item.rule,
          now: this.record.now,
          ...(afterUrn !== undefined ? { afterUrn } : {}),
          urns: VERSION_PASS_URNS,
        });
        deleted += step.versionsDeleted;
        if (step.lastUrn === null) break;
        afterUrn = step.lastUrn;
        // SQLite runs each batch on this thread: let requests in between.
        await yieldToEventLoop();
      }
      if (deleted > 0) {
        this.versionsDeleted += deleted;
        this.outcomes.push({
          kind: 'versioned',
          entityType: item.entityType,
          aspect: item.aspect,
          policy: item.policy,
          outcome: 'applied',
          versionsDeleted: deleted,
        });
        await this.ports.tasks.updateTask(this.ref, { progress: this.progress(), heartbeatAt: this.clock() }, { whileRunning: true });
      }
    }
    return 'completed';
  }
}
