import { DEFAULT_RUN_ID, SYSTEM_ACTOR, type Catalog } from './catalog.ts';
import { isIdentityUrn } from './deletion.ts';
import { badRequest } from './errors.ts';
import { entitySpec, findAspectSpec, validateAspect } from './registry/index.ts';
import type { Json, RunAspect, RunSummary, Parts, ReadParts } from '../storage/store.ts';

/** DataHub answers a rollback with the first 100 of the run's rows. */
const ROW_SUMMARY_LIMIT = 100;
/** A run's rows are read this many at a time. */
const PAGE = 1000;
/** DataHub's systemMetadataService limits: a describe count above the maximum (or negative) gets the default. */
const DESCRIBE_MAX = 10_000;
const DESCRIBE_DEFAULT = 5_000;

/** DataHub's AspectRowSummary as its system metadata index fills it (no `metadata`, no `version`). */
export interface AspectRowSummary {
  readonly runId: string;
  readonly aspectName: string;
  readonly urn: string;
  /** When the run's value was stored. */
  readonly timestamp: number;
  readonly keyAspect: boolean;
  /** The latest value, with `includeAspect`. */
  readonly aspect?: Json;
}

/** DataHub's RollbackResponse. */
export interface RollbackResponse {
  readonly aspectRowSummaries: readonly AspectRowSummary[];
  readonly entitiesAffected: number;
  /** Aspects other runs wrote on entities this run created: hidden by a soft rollback, deleted by a hard one. */
  readonly aspectsAffected: number;
  readonly entitiesDeleted: number;
  readonly aspectsReverted: number;
  readonly unsafeEntitiesCount: number;
  readonly unsafeEntities: ReadonlyArray<{ readonly urn: string }>;
}

/** Everything a rollback acts on, read before it acts (and before its privileges are checked). */
export interface RollbackPlan {
  readonly runId: string;
  readonly hardDelete: boolean;
  /** The run's latest versions, ordered by urn then aspect. */
  readonly rows: readonly AspectRowSummary[];
  /** Every entity the run wrote to, with its entity type. */
  readonly entities: ReadonlyMap<string, string>;
  /** Entities the run created (it wrote their key aspect): a rollback deletes them, or soft-deletes them. */
  readonly created: readonly string[];
  /** Entities the run created that hold aspects other runs wrote, and how many such aspects. */
  readonly unsafe: { readonly urns: readonly string[]; readonly aspects: number };
}

const summary = (runId: string, row: RunAspect): AspectRowSummary => ({
  runId,
  aspectName: row.aspect,
  urn: row.urn,
  timestamp: row.createdOn,
  keyAspect: row.aspect === entitySpec(row.entityType).keyAspect,
});

/**
 * `datahub ingest list-runs`, `show` and `rollback`, as DataHub's runs resource and RollbackService do them, over
 * the run recorded on every aspect version. A run's rows are the latest versions whose value it wrote; rolling it back
 * restores each to the newest earlier version another run wrote, removes it when there is none, and deletes (or, by
 * default, soft-deletes) the entities it created, one transaction per entity. Then its timeseries rows go.
 */
export class IngestionRuns {
  constructor(
    private readonly ports: Pick<Parts, 'runs'> & Pick<ReadParts, 'aspects'>,
    private readonly catalog: Catalog,
    private readonly clock: () => number = Date.now,
  ) {}

  list(q: { readonly pageOffset: number; readonly pageSize: number; readonly includeSoft: boolean }): Promise<RunSummary[]> {
    return this.ports.runs.listRuns({ offset: q.pageOffset, limit: q.pageSize, includeSoftDeleted: q.includeSoft });
  }

  async describe(q: {
    readonly runId: string;
    readonly start: number;
    readonly count: number;
    readonly includeSoft: boolean;
    readonly includeAspect: boolean;
  }): Promise<AspectRowSummary[]> {
    const limit = q.count < 0 || q.count > DESCRIBE_MAX ? DESCRIBE_DEFAULT : q.count;
    const rows = await this.ports.runs.findRunAspects({ runId: q.runId, includeSoftDeleted: q.includeSoft, offset: q.start, limit });
    const summaries = rows.map((r) => summary(q.runId, r));
    if (!q.includeAspect) return summaries;
    return Promise.all(
      summaries.map(async (s) => {
        const latest = await this.ports.aspects.getAspect(s.urn, s.aspectName);
        return latest ? { ...s, aspect: latest.value } : s;
      }),
    );
  }

  /**
   * Reads what rolling back the run would act on. A soft rollback leaves out entities already soft-deleted, as
   * DataHub's index hides their rows; a hard one includes them.
   */
  async plan(runId: string, hardDelete: boolean): Promise<RollbackPlan> {
    if (runId === DEFAULT_RUN_ID) {
      throw badRequest(`${runId} is a default run-id provided for non labeled ingestion runs. You cannot delete using this reserved run-id`);
    }
    const rows: AspectRowSummary[] = [];
    const entities = new Map<string, string>();
    for (let after: RunAspect | undefined; ;) {
      const page = await this.ports.runs.findRunAspects({ runId, includeSoftDeleted: hardDelete, after, limit: PAGE });
      for (const r of page) {
        rows.push(summary(runId, r));
        entities.set(r.urn, r.entityType);
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1];
    }
    const created = rows.filter((r) => r.keyAspect).map((r) => r.urn);
    // Aspects of the entities it created that another run (or no run) wrote, besides the key and the status.
    const others = (await this.ports.runs.aspectRuns(created)).filter(
      (a) => a.runId !== runId && a.aspect !== 'status' && a.aspect !== entitySpec(entities.get(a.urn)!).keyAspect,
    );
    return { runId, hardDelete, rows, entities, created, unsafe: { urns: [...new Set(others.map((a) => a.urn))], aspects: others.length } };
  }

  /** What the rollback would do, changing nothing. */
  dryRun(plan: RollbackPlan): RollbackResponse {
    const keys = plan.created.length;
    const shown = plan.rows.slice(0, ROW_SUMMARY_LIMIT);
    return {
      aspectRowSummaries: plan.hardDelete ? shown : shown.filter((r) => !r.keyAspect),
      entitiesAffected: plan.entities.size,
      aspectsAffected: plan.unsafe.aspects,
      entitiesDeleted: keys,
      // A soft rollback keeps the key aspects: they are not counted as reverted.
      aspectsReverted: plan.rows.length - (plan.hardDelete ? 0 : keys),
      unsafeEntitiesCount: plan.unsafe.urns.length,
      unsafeEntities: plan.unsafe.urns.map((urn) => ({ urn })),
    };
  }

  /**
   * Rolls the run back, one transaction per entity, each re-reading the entity's rows under lock: a version another
   * run wrote meanwhile is left alone. The run's execution request, when there is one, is marked as DataHub marks it.
   */
  async rollback(plan: RollbackPlan): Promise<RollbackResponse> {
    await this.setExecutionStatus(plan.runId, 'ROLLING_BACK');
    let rolledBack = 0;
    let extraRows = 0;
    const affected = new Set<string>();
    try {
      for (const [urn, entityType] of plan.entities) {
        const spec = entitySpec(entityType);
        const now = this.clock();
        const result = await this.ports.runs.rollbackEntity({
          urn,
          runId: plan.runId,
          keyAspect: spec.keyAspect,
          created: plan.hardDelete
            ? { kind: 'delete', revokeIdentity: isIdentityUrn(urn) }
            : { kind: 'keep', write: this.softDelete(spec.name, urn, now) },
          actor: SYSTEM_ACTOR,
          now,
        });
        const reverted = result.aspects.filter((a) => a.outcome !== 'kept').length;
        rolledBack += reverted;
        if (reverted > 0) affected.add(urn);
        if (result.entityDeleted) extraRows += result.entityDeleted.aspectRows - reverted + result.entityDeleted.timeseriesRows;
      }
      extraRows += await this.ports.runs.deleteRunTimeseriesRows(plan.runId);
    } catch (e) {
      // The failure itself is what the caller needs; a failed status write must not hide it.
      await this.setExecutionStatus(plan.runId, 'ROLLBACK_FAILED').catch(() => undefined);
      throw e;
    }
    await this.setExecutionStatus(plan.runId, 'ROLLED_BACK');
    return {
      aspectRowSummaries: plan.rows.slice(0, ROW_SUMMARY_LIMIT),
      entitiesAffected: affected.size,
      aspectsAffected: plan.unsafe.aspects,
      entitiesDeleted: plan.created.length,
      aspectsReverted: rolledBack + extraRows,
      unsafeEntitiesCount: plan.unsafe.urns.length,
      unsafeEntities: plan.unsafe.urns.map((urn) => ({ urn })),
    };
  }

  /** A soft delete is `status.removed = true`, written without a run; an entity without a status aspect has none. */
  private softDelete(entityType: string, urn: string, now: number) {
    if (!findAspectSpec(entityType, 'status')) return undefined;
    return {
      kind: 'aspect' as const,
      entityType,
      urn,
      aspect: 'status',
      value: validateAspect(entityType, 'status', { removed: true }),
      systemMetadata: { runId: DEFAULT_RUN_ID, lastObserved: now },
    };
  }

  /** DataHub records a rollback on the run's execution request result (ROLLING_BACK, ROLLED_BACK, ROLLBACK_FAILED), when it exists. */
  private async setExecutionStatus(runId: string, status: string): Promise<void> {
    const urn = `urn:li:dataHubExecutionRequest:${runId}`;
    const current = await this.ports.aspects.getAspect(urn, 'dataHubExecutionRequestResult');
    if (!current) return;
    await this.catalog.ingest(
      [
        {
          entityType: 'dataHubExecutionRequest',
          urn,
          changeType: 'UPSERT',
          aspectName: 'dataHubExecutionRequestResult',
          value: { ...current.value, status },
          systemMetadata: null,
        },
      ],
      SYSTEM_ACTOR,
    );
  }
}
