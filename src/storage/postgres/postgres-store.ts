import pg from 'pg';
import type {
  AccessTokenFilter,
  AccessTokenPage,
  AspectIndexer,
  DatasetSearchPage,
  DatasetSearchQuery,
  EntityUrnQuery,
  AspectMentionQuery,
  AccessTokenRecord,
  RelatedEntitiesPage,
  RelatedEntitiesQuery,
  RelationshipEdge,
  RelationshipHopQuery,
  RelationshipScanQuery,
  StoredAspect,
  StoredRelationship,
  Store,
  TimeseriesEvent,
  TimeseriesIndexRef,
  TimeseriesIndexStats,
  TimeseriesPartition,
  TimeseriesQuery,
  TimeseriesRowScope,
  WriteBatch,
  WriteOp,
  AspectRun,
  EntityRollbackRequest,
  EntityRollbackResult,
  RunAspect,
  RunAspectQuery,
  RunListQuery,
  RunSummary,
  DatabaseStats,
} from '../store.ts';

type AspectOp = Extract<WriteOp, { kind: 'aspect' }>;

/** A key aspect write: inserted when absent, never versioned, so a batch's keys can go in one statement. */
const isKeyWrite = (op: WriteOp): op is AspectOp => op.kind === 'aspect' && op.onlyIfAbsent === true && op.update === undefined;
const keyOf = (op: AspectOp): string => `${op.urn}\u0000${op.aspect}`;
import type {
  AspectWriteOutcome,
  Json,
  NewTruncationTask,
  TaskPatch,
  TaskRecord,
  TaskRef,
  TaskState,
  TruncationStep,
  ReclaimStep,
} from '../store.ts';
import { runIdOf } from '../run-id.ts';
import { POSTGRES_MIGRATIONS, RELATIONSHIPS_MIGRATION } from './migrations.ts';
import { PostgresRelationships } from './relationships.ts';
import { named } from './named-query.ts';
import { PostgresIdentity } from './identity.ts';
import { PostgresUserAccess, END_SESSIONS_SQL } from './user-access.ts';
import type { InviteRecord, SessionState, SignInFailures } from '../ports/user-access.ts';
import { PostgresRuns } from './runs.ts';
import { searchDatasets } from './search.ts';
import { findAspectsMentioning, listEntityUrns } from './entity-listing.ts';
import { PostgresTasks } from './tasks.ts';
import { PartitionMoved, PostgresTimeseries } from './timeseries.ts';
import { PostgresTruncation } from './truncation.ts';

/** BIGINT columns hold epoch millis and counts, all well inside 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

const MIGRATION_LOCK = 0x616c6d61; // "alma"
/** A transaction PostgreSQL aborted to break a deadlock (or a serialization conflict) can simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);

interface AspectRow {
  urn: string;
  entity_type: string;
  aspect: string;
  version: number;
  metadata: Json;
  system_metadata: Json | null;
  created_on: number;
  created_by: string;
}

const toAspect = (r: AspectRow): StoredAspect => ({
  urn: r.urn,
  entityType: r.entity_type,
  aspect: r.aspect,
  version: r.version,
  value: r.metadata,
  systemMetadata: r.system_metadata,
  createdOn: r.created_on,
  createdBy: r.created_by,
});

/** The production adapter; several stateless Almanac processes may share one database. */
export class PostgresStore implements Store {
  readonly backend = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly ts: PostgresTimeseries;
  private readonly identity: PostgresIdentity;
  private readonly userAccess: PostgresUserAccess;
  private readonly truncation: PostgresTruncation;
  private readonly tasks: PostgresTasks;
  private readonly runs: PostgresRuns;
  private readonly relationships: PostgresRelationships;

  constructor(url: string, indexer: AspectIndexer, poolSize = 10) {
    this.pool = new pg.Pool({ connectionString: url, max: poolSize, types });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    this.ts = new PostgresTimeseries(this.pool);
    this.identity = new PostgresIdentity(this.pool);
    this.userAccess = new PostgresUserAccess(this.pool);
    this.truncation = new PostgresTruncation(this.pool, this.ts);
    this.tasks = new PostgresTasks(this.pool, () => new pg.Client({ connectionString: url, types }));
    this.runs = new PostgresRuns(this.pool, {
      writeAspect: (c, op, actor, now) => this.writeAspect(c, op, actor, now),
      deleteEntityRows: (c, urn, revokeIdentity) => this.deleteEntityRows(c, urn, revokeIdentity),
    });
    this.relationships = new PostgresRelationships(this.pool, indexer);
  }

  private async tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  async migrate(): Promise<void> {
    await this.tx(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await c.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
      const applied = new Set((await c.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const [i, sql] of POSTGRES_MIGRATIONS.entries()) {
        if (applied.has(i + 1)) continue;
        await c.query(sql);
        // Existing databases get the index of the aspects they already hold before any process can read it.
        if (i + 1 === RELATIONSHIPS_MIGRATION) await this.relationships.backfill(c);
        await c.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [i + 1, Date.now()]);
      }
    });
  }

  async close(): Promise<void> {
    await this.tasks.close();
    await this.pool.end();
  }

  async databaseStats(): Promise<DatabaseStats> {
    return { pool: { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount } };
  }

  async getOrInitSetting(key: string, init: () => string): Promise<string> {
    await this.pool.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING', [key, init()]);
    return (await this.pool.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key])).rows[0]!.value;
  }

  async write(batch: WriteBatch): Promise<AspectWriteOutcome[]> {
    const series = batch.ops.filter((op): op is Extract<WriteOp, { kind: 'timeseries' }> => op.kind === 'timeseries');
    for (let attempt = 1; ; attempt++) {
      await this.ts.prepare(series);
      try {
        return await this.tx(async (c) => {
          const keys = batch.ops.filter(isKeyWrite);
          const created = keys.length > 0 ? await this.insertKeys(c, keys, batch.actor, batch.now) : new Set<string>();
          const outcomes: AspectWriteOutcome[] = [];
          for (const op of batch.ops) {
            if (op.kind !== 'aspect') continue;
            if (isKeyWrite(op))
              outcomes.push({ urn: op.urn, aspect: op.aspect, outcome: created.has(keyOf(op)) ? 'created' : 'unchanged', value: op.value });
            else outcomes.push(await this.writeAspect(c, op, batch.actor, batch.now));
          }
          if (series.length > 0) await this.ts.upsert(c, series);
          return outcomes;
        });
      } catch (e) {
        if (!(e instanceof PartitionMoved) || attempt >= 3) throw e;
        this.ts.resetCaches();
      }
    }
  }

  /**
   * Writes every key aspect of the batch (and its entity row) in one statement,
   * in urn order so concurrent batches lock in the same order; returns those it created.
   */
  private async insertKeys(c: pg.PoolClient, ops: readonly AspectOp[], actor: string, now: number): Promise<Set<string>> {
    // Most keys of a batch exist already (events of known datasets): one read finds them, and only the rest are inserted.
    const present = await c.query<{ urn: string; aspect: string }>(
      named(
        'SELECT a.urn, a.aspect FROM aspects a JOIN unnest($1::text[], $2::text[]) AS k(urn, aspect) ON a.urn = k.urn AND a.aspect = k.aspect AND a.version = 0',
        [ops.map((o) => o.urn), ops.map((o) => o.aspect)],
      ),
    );
    const known = new Set(present.rows.map((row) => `${row.urn}\u0000${row.aspect}`));
    const missing = ops.filter((o) => !known.has(keyOf(o)));
    if (missing.length === 0) return new Set();
    const sorted = [...missing].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    const r = await c.query<{ urn: string; aspect: string }>(
      named(
        `WITH k AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $8::text[]) WITH ORDINALITY AS k(urn, aspect, entity_type, metadata, sm, run_id, n)),
              e AS (INSERT INTO entities (urn, entity_type, created_on, created_by)
                    SELECT urn, entity_type, $6, $7 FROM k ORDER BY n ON CONFLICT DO NOTHING)
         INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by, run_id)
         SELECT urn, aspect, 0, entity_type, metadata::jsonb, sm::jsonb, $6, $7, run_id FROM k ORDER BY n ON CONFLICT DO NOTHING RETURNING urn, aspect`,
        [
          sorted.map((o) => o.urn),
          sorted.map((o) => o.aspect),
          sorted.map((o) => o.entityType),
          sorted.map((o) => JSON.stringify(o.value)),
          sorted.map((o) => (o.systemMetadata === null ? null : JSON.stringify(o.systemMetadata))),
          now,
          actor,
          sorted.map((o) => runIdOf(o.systemMetadata)),
        ],
      ),
    );
    const created = new Set(r.rows.map((row) => `${row.urn}\u0000${row.aspect}`));
    // A key can declare a relationship (a data job's flow): the keys this batch created index theirs.
    for (const op of sorted) if (created.has(keyOf(op))) await this.relationships.index(c, op.entityType, op.urn, op.aspect, op.value);
    return created;
  }

  private async writeAspect(c: pg.PoolClient, op: AspectOp, actor: string, now: number): Promise<AspectWriteOutcome> {
    const base = { urn: op.urn, aspect: op.aspect };
    for (;;) {
      let next = op.value;
      let exists = false;
      if (op.update) {
        // Lock the latest version first, so a concurrent read-modify-write waits for this one.
        const locked = await c.query<{ metadata: Json }>(
          named('SELECT metadata FROM aspects WHERE urn = $1 AND aspect = $2 AND version = 0 FOR UPDATE', [op.urn, op.aspect]),
        );
        exists = locked.rows.length > 0;
        next = op.update(locked.rows[0]?.metadata);
      }
      const value = JSON.stringify(next);
      const sm = op.systemMetadata === null ? null : JSON.stringify(op.systemMetadata);
      if (!exists) {
        const inserted = await c.query(
          named(
            `WITH e AS (INSERT INTO entities (urn, entity_type, created_on, created_by) VALUES ($1, $3, $6, $7) ON CONFLICT DO NOTHING)
             INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by, run_id)
             VALUES ($1, $2, 0, $3, $4::jsonb, $5::jsonb, $6, $7, $8) ON CONFLICT DO NOTHING`,
            [op.urn, op.aspect, op.entityType, value, sm, now, actor, runIdOf(op.systemMetadata)],
          ),
        );
        if (inserted.rowCount === 1) {
          await this.relationships.index(c, op.entityType, op.urn, op.aspect, next);
          return { ...base, outcome: 'created', value: next };
        }
        // A key aspect is derived from the urn, so the stored one equals op.value.
        if (op.onlyIfAbsent) return { ...base, outcome: 'unchanged', value: next };
        // An update computed on no value lost a race to create the aspect: compute it again on the winner's value.
        if (op.update) continue;
      }
      const replaced = await this.replaceLatest(c, op, next, value, sm, actor, now);
      if (replaced) return replaced;
      // The latest version was deleted after the insert met it (a delete or a rollback committed first): write anew.
    }
  }

  /**
   * Writes `next` as version 0 of an existing aspect, keeping the old value as a new version unless it is the same;
   * undefined when there is no version 0 any more.
   */
  private async replaceLatest(
    c: pg.PoolClient,
    op: AspectOp,
    next: Json,
    value: string,
    sm: string | null,
    actor: string,
    now: number,
  ): Promise<AspectWriteOutcome | undefined> {
    const base = { urn: op.urn, aspect: op.aspect };
    const current = await c.query<{ same: boolean }>(
      named('SELECT metadata = $3::jsonb AS same FROM aspects WHERE urn = $1 AND aspect = $2 AND version = 0 FOR UPDATE', [op.urn, op.aspect, value]),
    );
    if (current.rows.length === 0) return undefined;
    if (current.rows[0]!.same) {
      // Same value again: DataHub records the sighting, not a new version; the value's run stays the one that wrote it.
      await c.query(named('UPDATE aspects SET system_metadata = $3::jsonb WHERE urn = $1 AND aspect = $2 AND version = 0', [op.urn, op.aspect, sm]));
      return { ...base, outcome: 'unchanged', value: next };
    }
    const archived = await c.query<{ version: number; metadata: Json }>(
      named(
        `INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by, run_id)
         SELECT urn, aspect, (SELECT MAX(version) + 1 FROM aspects WHERE urn = $1 AND aspect = $2), entity_type, metadata, system_metadata, created_on, created_by, run_id
           FROM aspects WHERE urn = $1 AND aspect = $2 AND version = 0 RETURNING version, metadata`,
        [op.urn, op.aspect],
      ),
    );
    await c.query(
      named(
        'UPDATE aspects SET metadata = $3::jsonb, system_metadata = $4::jsonb, created_on = $5, created_by = $6, run_id = $7 WHERE urn = $1 AND aspect = $2 AND version = 0',
        [op.urn, op.aspect, value, sm, now, actor, runIdOf(op.systemMetadata)],
      ),
    );
    await this.relationships.index(c, op.entityType, op.urn, op.aspect, next);
    const previous = archived.rows[0]!;
    return { ...base, outcome: 'updated', value: next, previous: previous.metadata, previousVersion: Number(previous.version) };
  }

  async getAspect(urn: string, aspect: string, version = 0): Promise<StoredAspect | undefined> {
    const r = await this.pool.query<AspectRow>('SELECT * FROM aspects WHERE urn = $1 AND aspect = $2 AND version = $3', [urn, aspect, version]);
    return r.rows[0] && toAspect(r.rows[0]);
  }

  async getLatestAspects(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    const r = aspects
      ? await this.pool.query<AspectRow>('SELECT * FROM aspects WHERE urn = $1 AND version = 0 AND aspect = ANY($2) ORDER BY aspect', [urn, aspects])
      : await this.pool.query<AspectRow>('SELECT * FROM aspects WHERE urn = $1 AND version = 0 ORDER BY aspect', [urn]);
    return r.rows.map(toAspect);
  }

  async getAspectHistory(urn: string, aspect: string, limit: number): Promise<StoredAspect[]> {
    const r = await this.pool.query<AspectRow>(
      'SELECT * FROM aspects WHERE urn = $1 AND aspect = $2 ORDER BY version = 0 DESC, version DESC LIMIT $3',
      [urn, aspect, limit],
    );
    return r.rows.map(toAspect);
  }

  async existing(urns: readonly string[]): Promise<Set<string>> {
    if (urns.length === 0) return new Set();
    const r = await this.pool.query<{ urn: string }>(named('SELECT urn FROM entities WHERE urn = ANY($1)', [[...new Set(urns)]]));
    return new Set(r.rows.map((row) => row.urn));
  }

  async getEntities(urns: readonly string[], aspects: readonly string[]): Promise<Map<string, StoredAspect[]>> {
    const out = new Map<string, StoredAspect[]>();
    if (urns.length === 0) return out;
    const r = await this.pool.query<{ entity: string } & Partial<AspectRow>>(
      named(
        `SELECT e.urn AS entity, a.urn, a.entity_type, a.aspect, a.version, a.metadata, a.system_metadata, a.created_on, a.created_by
         FROM entities e
         LEFT JOIN aspects a ON a.urn = e.urn AND a.version = 0 AND a.aspect = ANY($2)
        WHERE e.urn = ANY($1)`,
        [[...new Set(urns)], aspects],
      ),
    );
    for (const row of r.rows) {
      const list = out.get(row.entity) ?? [];
      if (row.aspect !== null && row.aspect !== undefined) list.push(toAspect(row as AspectRow));
      out.set(row.entity, list);
    }
    return out;
  }

  searchDatasets(query: DatasetSearchQuery): Promise<DatasetSearchPage> {
    return searchDatasets(this.pool, query);
  }

  relatedEntities(query: RelatedEntitiesQuery): Promise<RelatedEntitiesPage> {
    return this.relationships.related(query);
  }

  relationshipHop(query: RelationshipHopQuery): Promise<RelationshipEdge[]> {
    return this.relationships.hop(query);
  }

  scanRelationships(query: RelationshipScanQuery): Promise<StoredRelationship[]> {
    return this.relationships.scan(query);
  }

  listEntityUrns(query: EntityUrnQuery): Promise<string[]> {
    return listEntityUrns(this.pool, query);
  }

  async findAspectsMentioning(query: AspectMentionQuery): Promise<StoredAspect[]> {
    return ((await findAspectsMentioning(this.pool, query)) as AspectRow[]).map(toAspect);
  }

  async deleteEntity(urn: string, options: { readonly revokeIdentity?: boolean } = {}): Promise<{ aspectRows: number; timeseriesRows: number }> {
    return this.tx((c) => this.deleteEntityRows(c, urn, options.revokeIdentity === true));
  }

  private async deleteEntityRows(c: pg.PoolClient, urn: string, revokeIdentity: boolean): Promise<{ aspectRows: number; timeseriesRows: number }> {
    const aspectRows = (await c.query('DELETE FROM aspects WHERE urn = $1', [urn])).rowCount ?? 0;
    await c.query('DELETE FROM entities WHERE urn = $1', [urn]);
    await this.relationships.forgetEntity(c, urn);
    if (revokeIdentity) {
      // Tokens acting as the user or group, its role, its password and its sessions go with it.
      await c.query(
        `WITH t AS (DELETE FROM access_tokens WHERE actor_urn = $1), r AS (DELETE FROM role_assignments WHERE actor_urn = $1),
         p AS (DELETE FROM user_credentials WHERE user_urn = $1) ${END_SESSIONS_SQL}`,
        [urn],
      );
    }
    const timeseriesRows = await this.ts.deleteUrnRows(c, urn);
    return { aspectRows, timeseriesRows };
  }

  listRuns(query: RunListQuery): Promise<RunSummary[]> {
    return this.runs.listRuns(query);
  }

  findRunAspects(query: RunAspectQuery): Promise<RunAspect[]> {
    return this.runs.findRunAspects(query);
  }

  aspectRuns(urns: readonly string[]): Promise<AspectRun[]> {
    return this.runs.aspectRuns(urns);
  }

  async rollbackEntity(request: EntityRollbackRequest): Promise<EntityRollbackResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.tx(async (c) => {
          const result = await this.runs.rollbackEntity(c, request);
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
    for (const day of await this.ts.livePartitions()) removed += await this.tx((c) => this.ts.deleteRunRows(c, day, runId));
    return removed;
  }

  async deleteAspect(urn: string, aspect: string): Promise<number> {
    return this.tx(async (c) => {
      await this.relationships.forgetAspect(c, urn, aspect);
      return (await c.query('DELETE FROM aspects WHERE urn = $1 AND aspect = $2', [urn, aspect])).rowCount ?? 0;
    });
  }

  deleteTimeseriesRows(urn: string, scope: TimeseriesRowScope): Promise<number> {
    return this.tx((c) => this.ts.deleteUrnRows(c, urn, scope));
  }

  queryTimeseries(query: TimeseriesQuery): Promise<TimeseriesEvent[]> {
    return this.ts.query(query);
  }

  timeseriesIndexStats(): Promise<TimeseriesIndexStats[]> {
    return this.ts.stats();
  }

  countTimeseriesBefore(index: TimeseriesIndexRef, before: number): Promise<{ matching: number; total: number }> {
    return this.ts.countBefore(index, before);
  }

  listTimeseriesPartitions(index: TimeseriesIndexRef): Promise<TimeseriesPartition[]> {
    return this.ts.listPartitions(index);
  }

  retireTimeseriesPartitionsBefore(
    index: TimeseriesIndexRef,
    before: number,
    budget: { readonly maxPartitions: number },
    task?: TaskRef,
  ): Promise<TruncationStep> {
    return this.truncation.retirePartitionsBefore(index, before, budget, task);
  }

  trimTimeseriesBoundary(index: TimeseriesIndexRef, before: number, task?: TaskRef): Promise<TruncationStep> {
    return this.truncation.trimBoundary(index, before, task);
  }

  deleteTimeseriesRowsBefore(index: TimeseriesIndexRef, before: number, limit: number, task?: TaskRef): Promise<TruncationStep> {
    return this.truncation.deleteRowsBefore(index, before, limit, task);
  }

  reclaimTimeseriesSpace(index: TimeseriesIndexRef, before: number, maxMillis: number, task?: TaskRef): Promise<ReclaimStep> {
    return this.truncation.reclaim(index, before, maxMillis, task);
  }

  timeseriesIndexSizeBytes(index: TimeseriesIndexRef): Promise<number> {
    return this.truncation.indexSizeBytes(index);
  }

  createTruncationTask(task: NewTruncationTask): Promise<{ created: TaskRecord } | { running: TaskRecord }> {
    return this.tasks.createTruncationTask(task);
  }

  updateTask(ref: TaskRef, patch: TaskPatch, options: { whileRunning?: boolean } = {}): Promise<TaskRecord | undefined> {
    return this.tasks.updateTask(ref, patch, options.whileRunning ?? false);
  }

  getTask(ref: TaskRef): Promise<TaskRecord | undefined> {
    return this.tasks.getTask(ref);
  }

  listTasks(filter: { state?: TaskState; limit: number }): Promise<TaskRecord[]> {
    return this.tasks.listTasks(filter);
  }

  requestTaskCancel(ref: TaskRef): Promise<TaskRecord | undefined> {
    return this.tasks.requestTaskCancel(ref);
  }

  heartbeatTasks(nodeId: string, now: number): Promise<void> {
    return this.tasks.heartbeatTasks(nodeId, now);
  }

  registerTaskNode(nodeId: string): Promise<void> {
    return this.tasks.registerTaskNode(nodeId);
  }

  isTaskNodeAlive(nodeId: string): Promise<boolean | undefined> {
    return this.tasks.isTaskNodeAlive(nodeId);
  }

  insertAccessToken(t: AccessTokenRecord): Promise<void> {
    return this.identity.insertAccessToken(t);
  }

  getAccessToken(id: string): Promise<AccessTokenRecord | undefined> {
    return this.identity.getAccessToken(id);
  }

  findTokenWithActor(id: string): Promise<{ token: AccessTokenRecord; actorExists: boolean; actorInactive: boolean } | undefined> {
    return this.identity.findTokenWithActor(id);
  }

  deleteAccessToken(id: string): Promise<boolean> {
    return this.identity.deleteAccessToken(id);
  }

  listAccessTokens(filter: AccessTokenFilter, start: number, count: number): Promise<AccessTokenPage> {
    return this.identity.listAccessTokens(filter, start, count);
  }

  deleteExpiredAccessTokens(now: number): Promise<number> {
    return this.identity.deleteExpiredAccessTokens(now);
  }

  getRole(actorUrn: string): Promise<string | undefined> {
    return this.identity.getRole(actorUrn);
  }

  setRole(actorUrns: readonly string[], roleUrn: string | null, assignedBy: string, now: number): Promise<void> {
    return this.identity.setRole(actorUrns, roleUrn, assignedBy, now);
  }

  getPasswordHash(userUrn: string): Promise<string | undefined> {
    return this.identity.getPasswordHash(userUrn);
  }

  setPasswordHash(userUrn: string, hash: string, now: number): Promise<void> {
    return this.identity.setPasswordHash(userUrn, hash, now);
  }

  getSessionState(userUrn: string): Promise<SessionState> {
    return this.userAccess.getSessionState(userUrn);
  }
  endSessions(userUrn: string): Promise<void> {
    return this.userAccess.endSessions(userUrn);
  }
  resetPassword(userUrn: string, hash: string, now: number): Promise<void> {
    return this.userAccess.resetPassword(userUrn, hash, now);
  }
  getInvite(roleKey: string): Promise<InviteRecord | undefined> {
    return this.userAccess.getInvite(roleKey);
  }
  putInvite(invite: InviteRecord): Promise<void> {
    return this.userAccess.putInvite(invite);
  }
  getSignInFailures(username: string, address: string): Promise<SignInFailures | undefined> {
    return this.userAccess.getSignInFailures(username, address);
  }
  recordSignInFailure(username: string, address: string, now: number): Promise<void> {
    return this.userAccess.recordSignInFailure(username, address, now);
  }
  clearSignInFailures(username: string, address: string): Promise<void> {
    return this.userAccess.clearSignInFailures(username, address);
  }
  pruneSignInFailures(before: number): Promise<number> {
    return this.userAccess.pruneSignInFailures(before);
  }
}
