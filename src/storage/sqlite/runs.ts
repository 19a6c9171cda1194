import type Database from 'better-sqlite3';
import type {
  AspectRun,
  EntityRollbackRequest,
  EntityRollbackResult,
  RunAspect,
  RunAspectQuery,
  RunListQuery,
  RunSummary,
  WriteOp,
} from '../store.ts';
import { fromJsonText, fromJsonTextRequired } from '../json.ts';
import { type AspectRow, toStoredAspect } from '../aspect-row.ts';
import { DELETION_ACTOR } from '../change-event-sql.ts';
import type { StoredAspect } from '../ports/aspects.ts';
import type { PortImpl } from '../compose-store.ts';
import type { RunPort } from '../ports/runs.ts';
import type { SqliteRelationships } from './relationships.ts';
import type { SqliteChangeEvents } from './change-events.ts';
import type { SqliteTimeseries } from './timeseries.ts';

type AspectOp = Extract<WriteOp, { kind: 'aspect' }>;

/** An entity is soft-deleted when its latest status says removed, as DataHub marks its rows. */
const SOFT_DELETED = `EXISTS (SELECT 1 FROM aspects s WHERE s.urn = a.urn AND s.aspect = 'status' AND s.version = 0 AND json_extract(s.metadata, '$.removed') = 1)`;

/** What the rollback borrows from the aspects part: its aspect write and its entity delete, inside the same transaction. */
export interface RollbackHooks {
  writeAspect(op: AspectOp, actor: string, now: number): void;
  deleteEntityRows(urn: string, revokeIdentity: boolean): { aspectRows: number; timeseriesRows: number };
  logDeleted(aspect: StoredAspect, actor: string, at: number): void;
}

/** Ingestion runs on SQLite: the run that wrote each aspect version is its `run_id` column (index aspects_by_run). */
export class SqliteRuns implements PortImpl<RunPort> {
  private readonly rollbackEntityTx: Database.Transaction<(request: EntityRollbackRequest) => EntityRollbackResult>;

  constructor(
    private readonly db: Database.Database,
    private readonly sql: (text: string) => Database.Statement,
    private readonly ts: SqliteTimeseries,
    private readonly relationships: SqliteRelationships,
    private readonly hooks: RollbackHooks,
    private readonly events: SqliteChangeEvents,
  ) {
    this.rollbackEntityTx = db.transaction((request) => {
      this.ts.forgetIfChangedElsewhere();
      const result = this.rollbackRows(request);
      // What the restored or removed versions declare replaces what the run's versions did, in the same transaction.
      if (!result.entityDeleted) {
        for (const a of result.aspects) {
          if (a.outcome === 'kept') continue;
          const latest = this.sql('SELECT entity_type, metadata FROM aspects WHERE urn = ? AND aspect = ? AND version = 0').get(
            request.urn,
            a.aspect,
          ) as { entity_type: string; metadata: string } | undefined;
          if (latest) this.relationships.index(latest.entity_type, request.urn, a.aspect, fromJsonTextRequired(latest.metadata));
          else this.relationships.forgetAspect(request.urn, a.aspect);
        }
      }
      return result;
    });
  }

  rollbackEntity(request: EntityRollbackRequest): EntityRollbackResult {
    return this.rollbackEntityTx.immediate(request);
  }

  async deleteRunTimeseriesRows(runId: string): Promise<number> {
    let removed = 0;
    for (const partition of this.ts.livePartitions()) {
      removed += this.db
        .transaction(() => {
          this.ts.forgetIfChangedElsewhere();
          return this.ts.deleteRunRows(partition, runId);
        })
        .immediate();
      // One day per transaction, and the event loop gets a turn between days.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return removed;
  }

  listRuns(q: RunListQuery): RunSummary[] {
    const rows = this.sql(
      `SELECT run_id, COUNT(*) AS n, MAX(created_on) AS last, SUM(CASE WHEN @all THEN 1 WHEN ${SOFT_DELETED} THEN 0 ELSE 1 END) AS live
         FROM aspects a WHERE version = 0 AND run_id IS NOT NULL
        GROUP BY run_id HAVING live > 0 ORDER BY last DESC, run_id LIMIT @limit OFFSET @offset`,
    ).all({ all: q.includeSoftDeleted ? 1 : 0, limit: q.limit, offset: q.offset }) as Array<{ run_id: string; n: number; last: number }>;
    return rows.map((r) => ({ runId: r.run_id, rows: r.n, lastWrittenOn: r.last }));
  }

  findRunAspects(q: RunAspectQuery): RunAspect[] {
    const rows = this.sql(
      `SELECT urn, entity_type, aspect, created_on FROM aspects a
        WHERE run_id = @run AND version = 0 AND (urn, aspect) > (@urn, @aspect) AND (@all OR NOT ${SOFT_DELETED})
        ORDER BY urn, aspect LIMIT @limit OFFSET @offset`,
    ).all({
      run: q.runId,
      urn: q.after?.urn ?? '',
      aspect: q.after?.aspect ?? '',
      all: q.includeSoftDeleted ? 1 : 0,
      limit: q.limit,
      offset: q.offset ?? 0,
    }) as Array<{ urn: string; entity_type: string; aspect: string; created_on: number }>;
    return rows.map((r) => ({ urn: r.urn, entityType: r.entity_type, aspect: r.aspect, createdOn: r.created_on }));
  }

  aspectRuns(urns: readonly string[]): AspectRun[] {
    const stmt = this.sql('SELECT urn, aspect, run_id FROM aspects WHERE urn = ? AND version = 0 ORDER BY aspect');
    return [...new Set(urns)].flatMap((urn) =>
      (stmt.all(urn) as Array<{ urn: string; aspect: string; run_id: string | null }>).map((r) => ({
        urn: r.urn,
        aspect: r.aspect,
        runId: r.run_id,
      })),
    );
  }

  /** Inside the rollback's write transaction. */
  private rollbackRows(req: EntityRollbackRequest): EntityRollbackResult {
    const mine = (
      this.sql('SELECT aspect FROM aspects WHERE urn = ? AND version = 0 AND run_id = ? ORDER BY aspect').all(req.urn, req.runId) as Array<{
        aspect: string;
      }>
    ).map((r) => r.aspect);
    const created = mine.includes(req.keyAspect);
    if (created && req.created.kind === 'delete') {
      return {
        aspects: mine.map((aspect) => ({ aspect, outcome: 'removed' as const })),
        entityDeleted: this.hooks.deleteEntityRows(req.urn, req.created.revokeIdentity),
      };
    }
    const aspects: Array<EntityRollbackResult['aspects'][number]> = [];
    for (const aspect of mine) {
      if (aspect !== req.keyAspect) aspects.push({ aspect, outcome: this.restore(req.urn, aspect, req.runId) });
    }
    if (created) {
      if (req.created.kind === 'keep' && req.created.write) this.hooks.writeAspect(req.created.write, req.actor, req.now);
      aspects.push({ aspect: req.keyAspect, outcome: 'kept' });
    }
    return { aspects };
  }

  /**
   * Walks the earlier versions newest first: the run's own are deleted, the first another run wrote becomes version
   * 0 again. With none, the aspect is removed.
   */
  private restore(urn: string, aspect: string, runId: string): 'restored' | 'removed' {
    const earlier = this.sql('SELECT version, run_id FROM aspects WHERE urn = ? AND aspect = ? AND version > 0 ORDER BY version DESC').all(
      urn,
      aspect,
    ) as Array<{
      version: number;
      run_id: string | null;
    }>;
    const drop = this.sql('DELETE FROM aspects WHERE urn = ? AND aspect = ? AND version = ?');
    for (const v of earlier) {
      if (v.run_id === runId) {
        drop.run(urn, aspect, v.version);
        continue;
      }
      const before = this.sql('SELECT metadata, system_metadata FROM aspects WHERE urn = ? AND aspect = ? AND version = 0').get(urn, aspect) as {
        metadata: string;
        system_metadata: string | null;
      };
      const after = this.sql(
        `UPDATE aspects SET (metadata, system_metadata, created_on, created_by, run_id) =
           (SELECT metadata, system_metadata, created_on, created_by, run_id FROM aspects WHERE urn = @urn AND aspect = @aspect AND version = @v)
          WHERE urn = @urn AND aspect = @aspect AND version = 0 RETURNING entity_type, metadata, system_metadata, created_on, created_by`,
      ).get({ urn, aspect, v: v.version }) as {
        entity_type: string;
        metadata: string;
        system_metadata: string | null;
        created_on: number;
        created_by: string;
      };
      // The restored value is a change of the latest one unless it is the same, made by whoever wrote it, when they did.
      if (after.metadata !== before.metadata) {
        this.events.aspectChanged({
          entityType: after.entity_type,
          urn,
          aspect,
          changeType: 'UPSERT',
          before: fromJsonTextRequired(before.metadata),
          after: fromJsonTextRequired(after.metadata),
          systemMetadata: fromJsonText(after.system_metadata),
          previousSystemMetadata: fromJsonText(before.system_metadata),
          actor: after.created_by,
          at: after.created_on,
        });
      }
      drop.run(urn, aspect, v.version);
      return 'restored';
    }
    const latest = this.sql('SELECT * FROM aspects WHERE urn = ? AND aspect = ? AND version = 0').get(urn, aspect) as AspectRow<string> | undefined;
    drop.run(urn, aspect, 0);
    if (latest) this.hooks.logDeleted(toStoredAspect(latest, fromJsonTextRequired), DELETION_ACTOR, Date.now());
    return 'removed';
  }
}
