import type { Logger } from 'pino';
import { badRequest, conflict, notFound } from '../errors.ts';
import { findEntitySpec } from '../registry/index.ts';
import type { RetentionPolicies } from './retention-policies.ts';
import { ALL, parseRetentionPolicy, toPolicyRecord, versionRuleOf } from './retention-policy.ts';
import { parseUrn } from '../urn.ts';
import type { RetentionPolicyRecord, Parts, TaskRef } from '../../storage/store.ts';
import { formatTaskId } from '../task-id.ts';
import { planTimeseries, planVersions, type PolicyRef } from './retention-plan.ts';
import {
  isRetentionRun,
  newRetentionTask,
  RETENTION_ACTOR,
  RETENTION_KIND,
  retentionRunRecord,
  type RetentionRunRecord,
  type RetentionTrigger,
} from './retention-record.ts';

export interface RetentionSettings {
  /** A timeseries index run deleting more than this share of its rows is skipped until a run is confirmed. */
  readonly maxDeletePercent: number;
}

/** What one policy would delete now from one index or pair. */
export interface RetentionPreviewEntry {
  readonly policy: PolicyRef;
  readonly kind: 'timeseries' | 'versioned';
  readonly entityType: string;
  readonly aspect: string;
  readonly delete: number;
  readonly total: number;
  readonly sharePercent: number;
  readonly bytes: number;
  readonly bytesEstimated: boolean;
  readonly cutoffMillis: number | null;
  readonly oldestKeptMillis: number | null;
  readonly newestKeptMillis: number | null;
  readonly needsConfirmation: boolean;
}

export interface RunRequest {
  readonly trigger: RetentionTrigger;
  readonly policy?: PolicyRef | null;
  readonly confirm?: boolean;
  readonly timeseries?: boolean;
  readonly versions?: boolean;
}

/** DataHub's applyRetention action parameters, defaults applied. */
export interface ApplyRetentionArgs {
  readonly start: number;
  readonly count: number;
  readonly attemptWithVersion: number;
  readonly aspectName: string | null;
  readonly urn: string | null;
}

/**
 * How a retention run is carried out: as a background task of this process (tasks/retention/task-retention-runner.ts,
 * built by the composition root), which the service records and starts but does not run itself.
 */
export interface RetentionRunner {
  /** Who a task created now belongs to. */
  owner(): { nodeId: string; ownerPid: number; ownerHost: string };
  /** Runs the recorded run's task in this process. */
  launch(record: RetentionRunRecord): void;
  /** Settles when this process's task ends; undefined when the task is not running here. */
  whenEnded(ref: TaskRef): Promise<void> | undefined;
  /** The run once it has ended, or as it stands after `maxMillis` (or at shutdown). */
  waitForEnd(
    ref: TaskRef,
    read: (ref: TaskRef) => Promise<RetentionRunRecord | undefined>,
    maxMillis: number,
  ): Promise<RetentionRunRecord | undefined>;
}

/** Policies, their preview, runs (scheduled, manual, after a change) and DataHub's applyRetention. */
export class RetentionService {
  constructor(
    private readonly ports: Pick<Parts, 'retention' | 'tasks' | 'timeseries'>,
    private readonly policies: RetentionPolicies,
    private readonly runner: RetentionRunner,
    private readonly logger: Logger,
    private readonly settings: RetentionSettings,
    private readonly clock: () => number = Date.now,
  ) {}

  list(): Promise<RetentionPolicyRecord[]> {
    return this.ports.retention.listRetentionPolicies();
  }

  /**
   * Creates or replaces a policy (DataHub's shape, 400 naming a bad field). A policy with a versioned part starts a
   * pass over the versions it governs, as DataHub applies retention when a policy changes.
   */
  async set(input: unknown, actor: string, source: 'api' | 'file' = 'api'): Promise<RetentionPolicyRecord> {
    const record = toPolicyRecord(parseRetentionPolicy(input), source, actor, this.clock());
    await this.ports.retention.putRetentionPolicy(record);
    await this.policies.reload();
    this.logger.info(
      { entity: record.entityType, aspect: record.aspect, maxVersions: record.maxVersions, maxAgeSeconds: record.maxAgeSeconds, actor },
      'retention policy set',
    );
    if (versionRuleOf(record)) await this.startPolicyPass(record);
    return record;
  }

  async remove(entity: string, aspect: string, actor: string): Promise<void> {
    const entityType = entity === ALL ? ALL : (findEntitySpec(entity)?.name ?? entity);
    if (!(await this.ports.retention.deleteRetentionPolicy(entityType, aspect)))
      throw notFound(`No retention policy for entity ${entity} and aspect ${aspect}`);
    await this.policies.reload();
    this.logger.info({ entity: entityType, aspect, actor }, 'retention policy deleted');
  }

  private async startPolicyPass(record: RetentionPolicyRecord): Promise<void> {
    const started = await this.tryStart(
      {
        trigger: 'policy',
        policy: { entity: record.entityType, aspect: record.aspect },
        timeseries: false,
        versions: true,
      },
      RETENTION_ACTOR,
    );
    if ('running' in started) {
      // The run under way reads the policies as it reaches each pair; the next scheduled run covers the rest.
      this.logger.info({ runId: formatTaskId(started.running) }, 'a retention run is under way; the changed policy applies from its next pair');
    }
  }

  /** What every policy would delete now, from the counts a dry run reads; nothing is scanned row by row. */
  async preview(): Promise<RetentionPreviewEntry[]> {
    const now = this.clock();
    const out: RetentionPreviewEntry[] = [];
    const stats = new Map((await this.ports.timeseries.timeseriesIndexStats()).map((s) => [`${s.entityType}\u0000${s.aspect}`, s]));
    for (const item of await planTimeseries(this.ports, this.policies, now, this.settings.maxDeletePercent)) {
      const s = stats.get(`${item.entityType}\u0000${item.aspect}`);
      const sizeBytes = s?.sizeBytes ?? 0;
      out.push({
        policy: item.policy,
        kind: 'timeseries',
        entityType: item.entityType,
        aspect: item.aspect,
        delete: item.rowsToDelete,
        total: item.totalRows,
        sharePercent: item.sharePercent,
        bytes: item.totalRows === 0 ? 0 : Math.round((sizeBytes * item.rowsToDelete) / item.totalRows),
        bytesEstimated: true,
        cutoffMillis: item.cutoffMillis,
        oldestKeptMillis: await this.ports.timeseries.oldestTimestampFrom(item, item.cutoffMillis),
        newestKeptMillis: item.rowsToDelete === item.totalRows ? null : (s?.newestTimestampMillis ?? null),
        needsConfirmation: item.needsConfirmation,
      });
    }
    for (const item of await planVersions(this.ports, this.policies)) {
      const p = await this.ports.retention.previewVersionRetention(item.entityType, item.aspect, item.rule, now);
      out.push({
        policy: item.policy,
        kind: 'versioned',
        entityType: item.entityType,
        aspect: item.aspect,
        delete: p.versions,
        total: item.versions,
        sharePercent: item.versions === 0 ? 0 : (p.versions / item.versions) * 100,
        bytes: p.bytes,
        bytesEstimated: false,
        cutoffMillis: item.rule.maxAgeMillis === null ? null : now - item.rule.maxAgeMillis,
        oldestKeptMillis: p.oldestKeptMillis,
        newestKeptMillis: p.newestKeptMillis,
        needsConfirmation: false,
      });
    }
    return out;
  }

  /**
   * The policy a run is narrowed to: none, or the one named by both fields (400 for one without the other, 404 for a
   * policy that does not exist).
   */
  async runScope(entity: unknown, aspect: unknown): Promise<PolicyRef | null> {
    if (entity == null && aspect == null) return null;
    if (typeof entity !== 'string' || typeof aspect !== 'string') {
      throw badRequest(`Fields 'entity' and 'aspect' name one policy: give both, as strings, or neither`);
    }
    const entityType = entity === ALL ? ALL : (findEntitySpec(entity)?.name ?? entity);
    if (!(await this.ports.retention.listRetentionPolicies()).some((p) => p.entityType === entityType && p.aspect === aspect)) {
      throw notFound(`No retention policy for entity ${entity} and aspect ${aspect}`);
    }
    return { entity: entityType, aspect };
  }

  /** Starts a run now; 409 while another runs. */
  async run(request: RunRequest, actor: string): Promise<RetentionRunRecord> {
    const started = await this.tryStart(request, actor);
    if ('running' in started) {
      const id = formatTaskId(started.running);
      throw conflict(`A retention run is already under way as task ${id}`, { taskId: id });
    }
    return started.created;
  }

  private async tryStart(request: RunRequest, actor: string): Promise<{ created: RetentionRunRecord } | { running: RetentionRunRecord }> {
    const now = this.clock();
    const result = await this.ports.tasks.createTask(
      newRetentionTask(
        this.runner.owner(),
        actor,
        {
          trigger: request.trigger,
          policy: request.policy ?? null,
          timeseries: request.timeseries ?? true,
          versions: request.versions ?? true,
          confirm: request.confirm ?? false,
          maxDeletePercent: this.settings.maxDeletePercent,
          now,
        },
        now,
      ),
    );
    if ('running' in result) return { running: retentionRunRecord(result.running) };
    const record = retentionRunRecord(result.created);
    this.logger.info(
      { runId: formatTaskId(record), trigger: record.trigger, policy: record.policy, confirm: record.confirm },
      'retention run started',
    );
    this.runner.launch(record);
    return { created: record };
  }

  /** Runs every policy now and returns once the run has recorded its end (the truncations it started go on). */
  async runAndWait(request: RunRequest, actor: string): Promise<RetentionRunRecord | undefined> {
    const started = await this.tryStart(request, actor);
    if ('running' in started) return undefined;
    await this.runner.whenEnded(started.created);
    return this.getRun(started.created);
  }

  async getRun(ref: TaskRef): Promise<RetentionRunRecord | undefined> {
    const task = await this.ports.tasks.getTask(ref);
    return task && isRetentionRun(task) ? retentionRunRecord(task) : undefined;
  }

  /** The run once it has ended, or as it stands after `maxMillis`. */
  waitForRun(ref: TaskRef, maxMillis: number): Promise<RetentionRunRecord | undefined> {
    return this.runner.waitForEnd(ref, (r) => this.getRun(r), maxMillis);
  }

  async runs(limit: number): Promise<RetentionRunRecord[]> {
    return (await this.ports.tasks.listTasks({ kind: RETENTION_KIND, limit })).map(retentionRunRecord);
  }

  /**
   * DataHub's `applyRetention` action: applies the governing policies to versioned aspects now, on `count` urns per
   * (entity type, aspect) after skipping `start`, only where more than `attemptWithVersion` versions are stored,
   * narrowed to one urn and/or one aspect. Answers with DataHub's BulkApplyRetentionResult text.
   */
  async applyRetention(args: ApplyRetentionArgs): Promise<string> {
    const began = this.clock();
    const entityType = args.urn === null ? null : parseUrn(args.urn).entityType;
    const pairs = (await planVersions(this.ports, this.policies)).filter(
      (p) => (entityType === null || p.entityType === entityType) && (args.aspectName === null || p.aspect === args.aspectName),
    );
    const planned = this.clock();
    let deleted = 0;
    for (const pair of pairs) {
      const step = await this.ports.retention.applyVersionRetention({
        entityType: pair.entityType,
        aspect: pair.aspect,
        rule: pair.rule,
        now: this.clock(),
        ...(args.urn !== null ? { urn: args.urn } : {}),
        skip: args.start,
        urns: args.count,
        moreThanVersions: args.attemptWithVersion,
      });
      deleted += step.versionsDeleted;
    }
    const done = this.clock();
    if (deleted > 0) this.logger.info({ ...args, versionsDeleted: deleted }, 'applyRetention deleted earlier versions');
    return (
      `BulkApplyRetentionResult(argStart=${args.start}, argCount=${args.count}, argAttemptWithVersion=${args.attemptWithVersion}, ` +
      `argUrn=${args.urn}, argAspectName=${args.aspectName}, rowsHandled=${deleted}, timeRetentionPolicyMapMs=0, ` +
      `timeRowMs=${planned - began}, timeApplyRetentionMs=${done - planned})`
    );
  }
}
