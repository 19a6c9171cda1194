import type pg from 'pg';
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
import type { Json } from '../ports/aspects.ts';
import type { AspectRow } from '../aspect-row.ts';
import type { PortImpl } from '../compose-store.ts';
import type { RunPort } from '../ports/runs.ts';
import type { PostgresChangeEvents } from './change-events.ts';
import type { PostgresRelationships } from './relationships.ts';
import type { PostgresTimeseries } from './timeseries.ts';
import { inTransaction } from './transaction.ts';

/** A transaction PostgreSQL aborted to break a deadlock (or a serialization conflict) can simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);

type AspectOp = Extract<WriteOp, { kind: 'aspect' }>;

/** An entity is soft-deleted when its latest status says removed, as DataHub marks its rows. */
const SOFT_DELETED = `EXISTS (SELECT 1 FROM aspects s WHERE s.urn = a.urn AND s.aspect = 'status' AND s.version = 0 AND s.metadata @> '{"removed": true}')`;

/** What the rollback borrows from the aspects part: its aspect write and its entity delete, inside the same transaction. */
export interface RollbackHooks {
  writeAspect(client: pg.PoolClient, op: AspectOp, actor: string, now: number): Promise<unknown>;
  deleteEntityRows(client: pg.PoolClient, urn: string, revokeIdentity: boolean): Promise<{ aspectRows: number; timeseriesRows: number }>;
  logDeleted(client: pg.PoolClient, rows: readonly AspectRow<Json>[]): void;
}

/** Ingestion runs on PostgreSQL: the run that wrote each aspect version is its `run_id` column (index aspects_by_run). */
export class PostgresRuns implements PortImpl<RunPort> {
  constructor(
    private readonly pool: pg.Pool,
    private readonly ts: PostgresTimeseries,
    private readonly relationships: PostgresRelationships,
    private readonly hooks: RollbackHooks,
    private readonly events: PostgresChangeEvents,
  ) {}

  async rollbackEntity(request: EntityRollbackRequest): Promise<EntityRollbackResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.pool, async (c) => {
          const result = await this.rollbackRows(c, request);
          // What the restored or removed versions declare replaces what the run's versions did, in the same transaction.
          if (!result.entityDeleted) {
            for (const a of result.aspects) {
              if (a.outcome === 'kept') continue;
              const latest = await c.query<{ entity_type: string; metadata: Json }>(
                'SELECT entity_type, metadata FROM aspects WHERE urn = $1 AND aspect = $2 AND version = 0',
                [request.urn, a.aspect],
              );
              const row = latest.rows[0];
              if (row) await this.relationships.index(c, row.entity_type, request.urn, a.aspect, row.metadata);
              else await this.relationships.forgetAspect(c, request.urn, a.aspect);
            }
          }
          return result;
        });
      } catch (e) {
        if (!RETRYABLE.has((e as { code?: string }).code ?? '') || attempt >= 3) throw e;
      }
    }
  }

  async deleteRunTimeseriesRows(runId: string): Promise<number> {
    let removed = 0;
    for (const day of await this.ts.livePartitions()) removed += await inTransaction(this.pool, (c) => this.ts.deleteRunRows(c, day, runId));
    return removed;
  }

  async listRuns(q: RunListQuery): Promise<RunSummary[]> {
    const r = await this.pool.query<{ run_id: string; n: number; last: number }>(
      `SELECT run_id, COUNT(*)::bigint AS n, MAX(created_on) AS last
         FROM aspects a WHERE version = 0 AND run_id IS NOT NULL
        GROUP BY run_id HAVING $1 OR COUNT(*) FILTER (WHERE NOT ${SOFT_DELETED}) > 0
        ORDER BY last DESC, run_id LIMIT $2 OFFSET $3`,
      [q.includeSoftDeleted, q.limit, q.offset],
    );
    return r.rows.map((row) => ({ runId: row.run_id, rows: row.n, lastWrittenOn: row.last }));
  }

  async findRunAspects(q: RunAspectQuery): Promise<RunAspect[]> {
    const r = await this.pool.query<{ urn: string; entity_type: string; aspect: string; created_on: number }>(
      `SELECT urn, entity_type, aspect, created_on FROM aspects a
        WHERE run_id = $1 AND version = 0 AND (urn, aspect) > ($2, $3) AND ($4 OR NOT ${SOFT_DELETED})
        ORDER BY urn, aspect LIMIT $5 OFFSET $6`,
      [q.runId, q.after?.urn ?? '', q.after?.aspect ?? '', q.includeSoftDeleted, q.limit, q.offset ?? 0],
    );
    return r.rows.map((row) => ({ urn: row.urn, entityType: row.entity_type, aspect: row.aspect, createdOn: row.created_on }));
  }

  async aspectRuns(urns: readonly string[]): Promise<AspectRun[]> {
    if (urns.length === 0) return [];
    const r = await this.pool.query<{ urn: string; aspect: string; run_id: string | null }>(
      'SELECT urn, aspect, run_id FROM aspects WHERE urn = ANY($1) AND version = 0 ORDER BY urn, aspect',
      [[...new Set(urns)]],
    );
    return r.rows.map((row) => ({ urn: row.urn, aspect: row.aspect, runId: row.run_id }));
  }

  /**
   * Inside the rollback's transaction; the entity's row, then the run's latest versions of the entity, stay locked
   * until it ends. The entity's row first, in the order a write batch and a delete take it (postgres/aspects.ts: a
   * batch holds its entities' rows before their aspects), so a rollback that deletes the entity cannot wait on a
   * batch that waits on its aspects.
   */
  private async rollbackRows(c: pg.PoolClient, req: EntityRollbackRequest): Promise<EntityRollbackResult> {
    await c.query('SELECT 1 FROM entities WHERE urn = $1 FOR UPDATE', [req.urn]);
    const locked = await c.query<{ aspect: string }>(
      'SELECT aspect FROM aspects WHERE urn = $1 AND version = 0 AND run_id = $2 ORDER BY aspect FOR UPDATE',
      [req.urn, req.runId],
    );
    const mine = locked.rows.map((r) => r.aspect);
    const created = mine.includes(req.keyAspect);
    if (created && req.created.kind === 'delete') {
      const entityDeleted = await this.hooks.deleteEntityRows(c, req.urn, req.created.revokeIdentity);
      return { aspects: mine.map((aspect) => ({ aspect, outcome: 'removed' as const })), entityDeleted };
    }
    const aspects: Array<EntityRollbackResult['aspects'][number]> = [];
    for (const aspect of mine) {
      if (aspect !== req.keyAspect) aspects.push({ aspect, outcome: await this.restore(c, req.urn, aspect, req.runId) });
    }
    if (created) {
      if (req.created.kind === 'keep' && req.created.write) await this.hooks.writeAspect(c, req.created.write, req.actor, req.now);
      aspects.push({ aspect: req.keyAspect, outcome: 'kept' });
    }
    return { aspects };
  }

  /**
   * Walks the earlier versions newest first: the run's own are deleted, the first another run wrote becomes version
   * 0 again. With none, the aspect is removed.
   */
  private async restore(c: pg.PoolClient, urn: string, aspect: string, runId: string): Promise<'restored' | 'removed'> {
    const r = await c.query<{ survivor: number | null }>(
      `WITH earlier AS (SELECT version, run_id FROM aspects WHERE urn = $1 AND aspect = $2 AND version > 0),
            survivor AS (SELECT MAX(version) AS version FROM earlier WHERE run_id IS DISTINCT FROM $3),
            dropped AS (DELETE FROM aspects a USING earlier e
                         WHERE a.urn = $1 AND a.aspect = $2 AND a.version = e.version AND e.run_id = $3
                           AND e.version > COALESCE((SELECT version FROM survivor), 0))
       SELECT version AS survivor FROM survivor`,
      [urn, aspect, runId],
    );
    const survivor = r.rows[0]?.survivor ?? null;
    if (survivor === null) {
      const deleted = await c.query<AspectRow<Json>>('DELETE FROM aspects WHERE urn = $1 AND aspect = $2 AND version = 0 RETURNING *', [urn, aspect]);
      this.hooks.logDeleted(c, deleted.rows);
      return 'removed';
    }
    // The value replaced is read in the statement's snapshot, before the update: a change unless it is the same.
    const restored = await c.query<{
      entity_type: string;
      before: Json;
      after: Json;
      before_sm: Json | null;
      after_sm: Json | null;
      changed: boolean;
      created_on: number;
      created_by: string;
    }>(
      `UPDATE aspects l SET metadata = e.metadata, system_metadata = e.system_metadata, created_on = e.created_on, created_by = e.created_by, run_id = e.run_id
         FROM aspects e, (SELECT metadata, system_metadata FROM aspects WHERE urn = $1 AND aspect = $2 AND version = 0) o
        WHERE l.urn = $1 AND l.aspect = $2 AND l.version = 0 AND e.urn = $1 AND e.aspect = $2 AND e.version = $3
        RETURNING l.entity_type, o.metadata AS before, l.metadata AS after, o.system_metadata AS before_sm, l.system_metadata AS after_sm,
                  o.metadata IS DISTINCT FROM l.metadata AS changed, l.created_on, l.created_by`,
      [urn, aspect, survivor],
    );
    const row = restored.rows[0];
    // The restored value is made by whoever wrote it, when they did.
    if (row?.changed) {
      this.events.aspectChanged(c, {
        entityType: row.entity_type,
        urn,
        aspect,
        changeType: 'UPSERT',
        before: row.before,
        after: row.after,
        systemMetadata: row.after_sm,
        previousSystemMetadata: row.before_sm,
        actor: row.created_by,
        at: Number(row.created_on),
      });
    }
    await c.query('DELETE FROM aspects WHERE urn = $1 AND aspect = $2 AND version = $3', [urn, aspect, survivor]);
    return 'restored';
  }
}
