import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { partitionStart } from '../partitions.ts';
import { fromJsonText, fromJsonTextRequired, toJsonText } from '../json.ts';
import { runIdOf } from '../run-id.ts';
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
  NewTruncationTask,
  TaskPatch,
  TaskRecord,
  TaskRef,
  TaskState,
  TruncationStep,
  ReclaimStep,
  AspectRun,
  EntityRollbackRequest,
  EntityRollbackResult,
  RunAspect,
  RunAspectQuery,
  RunListQuery,
  RunSummary,
  DatabaseStats,
} from '../store.ts';
import type { AspectWriteOutcome } from '../store.ts';

type AspectOp = Extract<WriteOp, { kind: 'aspect' }>;

/** What deleting a user or group revokes with it: tokens acting as it, its role, its password, its sessions. */
const REVOKE_IDENTITY = [
  'DELETE FROM access_tokens WHERE actor_urn = ?',
  'DELETE FROM role_assignments WHERE actor_urn = ?',
  'DELETE FROM user_credentials WHERE user_urn = ?',
  END_SESSIONS_SQL,
];
import { RELATIONSHIPS_MIGRATION, SQLITE_MIGRATIONS } from './migrations.ts';
import { SqliteRelationships } from './relationships.ts';
import { SqliteIdentity } from './identity.ts';
import { SqliteUserAccess, END_SESSIONS_SQL } from './user-access.ts';
import type { InviteRecord, SessionState, SignInFailures } from '../ports/user-access.ts';
import { SqliteRuns } from './runs.ts';
import { searchDatasets } from './search.ts';
import { findAspectsMentioning, listEntityUrns } from './entity-listing.ts';
import { StatementCache } from './statements.ts';
import { SqliteTasks } from './tasks.ts';
import { SqliteTimeseries } from './timeseries.ts';
import { SqliteTruncation } from './truncation.ts';

interface AspectRow {
  urn: string;
  entity_type: string;
  aspect: string;
  version: number;
  metadata: string;
  system_metadata: string | null;
  created_on: number;
  created_by: string;
}

const toAspect = (r: AspectRow): StoredAspect => ({
  urn: r.urn,
  entityType: r.entity_type,
  aspect: r.aspect,
  version: r.version,
  value: fromJsonTextRequired(r.metadata),
  systemMetadata: fromJsonText(r.system_metadata),
  createdOn: r.created_on,
  createdBy: r.created_by,
});

export interface SqliteOptions {
  /** Run WAL checkpoints on a worker thread (off for :memory: and short-lived CLI use). */
  readonly backgroundCheckpoints?: boolean;
}

/**
 * The embedded adapter: better-sqlite3 in WAL mode. Calls are synchronous under
 * the hood, so a write batch runs start to finish without another request
 * interleaving; the async signatures only satisfy the port.
 */
export class SqliteStore implements Store {
  readonly backend = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly ts: SqliteTimeseries;
  private readonly identity: SqliteIdentity;
  private readonly userAccess: SqliteUserAccess;
  private readonly truncation: SqliteTruncation;
  private readonly tasks: SqliteTasks;
  private readonly runs: SqliteRuns;
  private readonly relationships: SqliteRelationships;
  private checkpointer: Worker | undefined;
  private readonly statements: StatementCache;
  // Built once: better-sqlite3's transaction() builds its wrappers anew on every call, which cost more than the reads.
  private readonly writeTx: Database.Transaction<(batch: WriteBatch) => AspectWriteOutcome[]>;
  private readonly readEntitiesTx: Database.Transaction<(urns: readonly string[], aspects: readonly string[]) => Map<string, StoredAspect[]>>;
  private readonly deleteEntityTx: Database.Transaction<(urn: string, revokeIdentity: boolean) => { aspectRows: number; timeseriesRows: number }>;
  private readonly deleteAspectTx: Database.Transaction<(urn: string, aspect: string) => number>;
  private readonly deleteTimeseriesTx: Database.Transaction<(urn: string, scope: TimeseriesRowScope) => number>;
  private readonly rollbackEntityTx: Database.Transaction<(request: EntityRollbackRequest) => EntityRollbackResult>;

  constructor(
    private readonly file: string,
    indexer: AspectIndexer,
    private readonly options: SqliteOptions = {},
  ) {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    // Must precede the first table: lets a truncation hand pages back to the file system.
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('journal_size_limit = 67108864');
    this.db.pragma('cache_size = -65536');
    this.statements = new StatementCache(this.db);
    this.ts = new SqliteTimeseries(this.db);
    this.identity = new SqliteIdentity((text) => this.sql(text));
    this.userAccess = new SqliteUserAccess(this.db, (text) => this.sql(text));
    this.tasks = new SqliteTasks(this.db, (text) => this.sql(text));
    this.truncation = new SqliteTruncation(this.db, this.ts, this.tasks, file);
    this.relationships = new SqliteRelationships(this.db, (text) => this.sql(text), indexer);
    this.writeTx = this.db.transaction((batch) => this.applyBatch(batch));
    this.readEntitiesTx = this.db.transaction((urns, aspects) => this.readEntities(urns, aspects));
    this.deleteEntityTx = this.db.transaction((urn, revokeIdentity) => this.deleteEntityRows(urn, revokeIdentity));
    this.runs = new SqliteRuns((text) => this.sql(text), {
      writeAspect: (op, actor, now) => this.writeAspect(op, actor, now),
      deleteEntityRows: (urn, revokeIdentity) => this.deleteEntityRows(urn, revokeIdentity),
    });
    this.rollbackEntityTx = this.db.transaction((request) => {
      this.ts.forgetIfChangedElsewhere();
      const result = this.runs.rollbackEntity(request);
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
    this.deleteAspectTx = this.db.transaction((urn, aspect) => {
      this.relationships.forgetAspect(urn, aspect);
      return this.sql('DELETE FROM aspects WHERE urn = ? AND aspect = ?').run(urn, aspect).changes;
    });
    this.deleteTimeseriesTx = this.db.transaction((urn, scope) => this.ts.deleteUrnRows(urn, scope));
  }

  private sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  private deleteEntityRows(urn: string, revokeIdentity: boolean): { aspectRows: number; timeseriesRows: number } {
    const aspectRows = this.sql('DELETE FROM aspects WHERE urn = ?').run(urn).changes;
    this.sql('DELETE FROM entities WHERE urn = ?').run(urn);
    this.relationships.forgetEntity(urn);
    if (revokeIdentity) for (const statement of REVOKE_IDENTITY) this.sql(statement).run(urn);
    return { aspectRows, timeseriesRows: this.ts.deleteUrnRows(urn) };
  }

  async migrate(): Promise<void> {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
    const applied = new Set((this.db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version));
    SQLITE_MIGRATIONS.forEach((sql, i) => {
      const version = i + 1;
      if (applied.has(version)) return;
      this.db
        .transaction(() => {
          this.db.exec(sql);
          // Existing databases get the index of the aspects they already hold before any process can read it.
          if (version === RELATIONSHIPS_MIGRATION) this.relationships.backfill();
          this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
        })
        .immediate();
    });
    if (this.options.backgroundCheckpoints && this.file !== ':memory:') this.startCheckpointer();
  }

  private startCheckpointer(): void {
    this.db.pragma('wal_autocheckpoint = 0');
    this.checkpointer = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
      workerData: { path: this.file, intervalMs: 1000 },
    });
    this.checkpointer.unref();
  }

  async close(): Promise<void> {
    const worker = this.checkpointer;
    if (worker) {
      this.checkpointer = undefined;
      await new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.once('error', () => resolve());
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      });
      await worker.terminate();
    }
    if (this.db.open) this.db.close();
  }

  async databaseStats(): Promise<DatabaseStats> {
    // No WAL file yet (nothing written since the last checkpoint truncated it, or an in-memory database): 0 bytes.
    const wal = await fs.promises.stat(`${this.file}-wal`).catch(() => undefined);
    return { walBytes: wal?.size ?? 0 };
  }

  async getOrInitSetting(key: string, init: () => string): Promise<string> {
    this.sql('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(key, init());
    return (this.sql('SELECT value FROM settings WHERE key = ?').get(key) as { value: string }).value;
  }

  async write(batch: WriteBatch): Promise<AspectWriteOutcome[]> {
    return this.writeTx.immediate(batch);
  }

  private applyBatch(batch: WriteBatch): AspectWriteOutcome[] {
    this.ts.forgetIfChangedElsewhere();
    const outcomes: AspectWriteOutcome[] = [];
    const added = new Map<string, { ref: TimeseriesIndexRef; start: number; n: number }>();
    for (const op of batch.ops) {
      if (op.kind === 'aspect') {
        outcomes.push(this.writeAspect(op, batch.actor, batch.now));
      } else if (this.ts.upsert(op, op)) {
        const start = partitionStart(op.timestampMillis);
        const key = `${op.entityType}\u0000${op.aspect}\u0000${start}`;
        const slot = added.get(key) ?? { ref: op, start, n: 0 };
        slot.n++;
        added.set(key, slot);
      }
    }
    for (const { ref, start, n } of added.values()) this.ts.addToCount(ref, start, n);
    return outcomes;
  }

  private writeAspect(op: AspectOp, actor: string, now: number): AspectWriteOutcome {
    this.sql('INSERT OR IGNORE INTO entities (urn, entity_type, created_on, created_by) VALUES (?, ?, ?, ?)').run(op.urn, op.entityType, now, actor);
    const current = this.sql('SELECT metadata FROM aspects WHERE urn = ? AND aspect = ? AND version = 0').get(op.urn, op.aspect) as
      { metadata: string } | undefined;
    const base = { urn: op.urn, aspect: op.aspect };
    const next = op.update ? op.update(current && fromJsonTextRequired(current.metadata)) : op.value;
    const value = JSON.stringify(next);
    const sm = toJsonText(op.systemMetadata);
    const runId = runIdOf(op.systemMetadata);
    if (!current) {
      this.sql(
        'INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by, run_id) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)',
      ).run(op.urn, op.aspect, op.entityType, value, sm, now, actor, runId);
      this.relationships.index(op.entityType, op.urn, op.aspect, next);
      return { ...base, outcome: 'created', value: next };
    }
    // A key aspect is derived from the urn, so the stored one equals op.value.
    if (op.onlyIfAbsent) return { ...base, outcome: 'unchanged', value: op.value };
    if (current.metadata === value) {
      // Same value again: DataHub records the sighting, not a new version; the value's run stays the one that wrote it.
      this.sql('UPDATE aspects SET system_metadata = ? WHERE urn = ? AND aspect = ? AND version = 0').run(sm, op.urn, op.aspect);
      return { ...base, outcome: 'unchanged', value: next };
    }
    const archived = this.sql(
      `INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by, run_id)
         SELECT urn, aspect, (SELECT MAX(version) + 1 FROM aspects WHERE urn = @urn AND aspect = @aspect), entity_type, metadata, system_metadata, created_on, created_by, run_id
           FROM aspects WHERE urn = @urn AND aspect = @aspect AND version = 0 RETURNING version`,
    ).get({ urn: op.urn, aspect: op.aspect }) as { version: number };
    this.sql(
      'UPDATE aspects SET metadata = ?, system_metadata = ?, created_on = ?, created_by = ?, run_id = ? WHERE urn = ? AND aspect = ? AND version = 0',
    ).run(value, sm, now, actor, runId, op.urn, op.aspect);
    this.relationships.index(op.entityType, op.urn, op.aspect, next);
    return { ...base, outcome: 'updated', value: next, previous: fromJsonTextRequired(current.metadata), previousVersion: archived.version };
  }

  async getAspect(urn: string, aspect: string, version = 0): Promise<StoredAspect | undefined> {
    const row = this.sql('SELECT * FROM aspects WHERE urn = ? AND aspect = ? AND version = ?').get(urn, aspect, version) as AspectRow | undefined;
    return row && toAspect(row);
  }

  async getLatestAspects(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]> {
    const rows = this.sql('SELECT * FROM aspects WHERE urn = ? AND version = 0 ORDER BY aspect').all(urn) as AspectRow[];
    const wanted = aspects && new Set(aspects);
    return rows.filter((r) => !wanted || wanted.has(r.aspect)).map(toAspect);
  }

  async getAspectHistory(urn: string, aspect: string, limit: number): Promise<StoredAspect[]> {
    // Version 0 is the newest; among the rest, the highest version is the most recent.
    const rows = this.sql('SELECT * FROM aspects WHERE urn = ? AND aspect = ? ORDER BY version = 0 DESC, version DESC LIMIT ?').all(
      urn,
      aspect,
      limit,
    ) as AspectRow[];
    return rows.map(toAspect);
  }

  async existing(urns: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    const stmt = this.sql('SELECT 1 FROM entities WHERE urn = ?');
    for (const urn of new Set(urns)) if (stmt.get(urn)) found.add(urn);
    return found;
  }

  async getEntities(urns: readonly string[], aspects: readonly string[]): Promise<Map<string, StoredAspect[]>> {
    // One read transaction: every entity is read from the same snapshot, and the WAL read lock is taken once.
    return this.readEntitiesTx(urns, aspects);
  }

  private readEntities(urns: readonly string[], aspects: readonly string[]): Map<string, StoredAspect[]> {
    const exists = this.sql('SELECT 1 FROM entities WHERE urn = ?');
    // Primary-key lookups: a large aspect that was not asked for is never read.
    const latest = this.sql('SELECT * FROM aspects WHERE urn = ? AND aspect = ? AND version = 0');
    const out = new Map<string, StoredAspect[]>();
    for (const urn of urns) {
      if (out.has(urn) || !exists.get(urn)) continue;
      const found: StoredAspect[] = [];
      for (const aspect of aspects) {
        const row = latest.get(urn, aspect) as AspectRow | undefined;
        if (row) found.push(toAspect(row));
      }
      out.set(urn, found);
    }
    return out;
  }

  async searchDatasets(query: DatasetSearchQuery): Promise<DatasetSearchPage> {
    return searchDatasets(this.statements, query);
  }

  async relatedEntities(query: RelatedEntitiesQuery): Promise<RelatedEntitiesPage> {
    return this.relationships.related(query);
  }

  async relationshipHop(query: RelationshipHopQuery): Promise<RelationshipEdge[]> {
    return this.relationships.hop(query);
  }

  async scanRelationships(query: RelationshipScanQuery): Promise<StoredRelationship[]> {
    return this.relationships.scan(query);
  }

  async listEntityUrns(query: EntityUrnQuery): Promise<string[]> {
    return listEntityUrns(this.statements, query);
  }

  async findAspectsMentioning(query: AspectMentionQuery): Promise<StoredAspect[]> {
    return (findAspectsMentioning(this.statements, query) as AspectRow[]).map(toAspect);
  }

  async deleteEntity(urn: string, options: { readonly revokeIdentity?: boolean } = {}): Promise<{ aspectRows: number; timeseriesRows: number }> {
    return this.deleteEntityTx.immediate(urn, options.revokeIdentity === true);
  }

  async deleteAspect(urn: string, aspect: string): Promise<number> {
    return this.deleteAspectTx.immediate(urn, aspect);
  }

  async deleteTimeseriesRows(urn: string, scope: TimeseriesRowScope): Promise<number> {
    return this.deleteTimeseriesTx.immediate(urn, scope);
  }

  async listRuns(query: RunListQuery): Promise<RunSummary[]> {
    return this.runs.listRuns(query);
  }

  async findRunAspects(query: RunAspectQuery): Promise<RunAspect[]> {
    return this.runs.findRunAspects(query);
  }

  async aspectRuns(urns: readonly string[]): Promise<AspectRun[]> {
    return this.runs.aspectRuns(urns);
  }

  async rollbackEntity(request: EntityRollbackRequest): Promise<EntityRollbackResult> {
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

  async queryTimeseries(query: TimeseriesQuery): Promise<TimeseriesEvent[]> {
    return this.ts.query(query);
  }

  async timeseriesIndexStats(): Promise<TimeseriesIndexStats[]> {
    // Sizes come from a walk over every page: done on a worker thread, the rest here.
    return this.ts.stats(await this.truncation.tableSizes());
  }

  async countTimeseriesBefore(index: TimeseriesIndexRef, before: number): Promise<{ matching: number; total: number }> {
    return this.ts.countBefore(index, before);
  }

  async listTimeseriesPartitions(index: TimeseriesIndexRef): Promise<TimeseriesPartition[]> {
    return this.ts.listPartitions(index);
  }

  async retireTimeseriesPartitionsBefore(
    index: TimeseriesIndexRef,
    before: number,
    budget: { readonly maxPartitions: number },
    task?: TaskRef,
  ): Promise<TruncationStep> {
    return this.truncation.retirePartitionsBefore(index, before, budget, task);
  }

  async trimTimeseriesBoundary(index: TimeseriesIndexRef, before: number, task?: TaskRef): Promise<TruncationStep> {
    return this.truncation.trimBoundary(index, before, task);
  }

  async deleteTimeseriesRowsBefore(index: TimeseriesIndexRef, before: number, limit: number, task?: TaskRef): Promise<TruncationStep> {
    return this.truncation.deleteRowsBefore(index, before, limit, task);
  }

  async reclaimTimeseriesSpace(index: TimeseriesIndexRef, _before: number, maxMillis: number, task?: TaskRef): Promise<ReclaimStep> {
    return this.truncation.reclaim(index, maxMillis, task);
  }

  timeseriesIndexSizeBytes(index: TimeseriesIndexRef): Promise<number> {
    return this.truncation.indexSizeBytes(index);
  }

  async createTruncationTask(task: NewTruncationTask): Promise<{ created: TaskRecord } | { running: TaskRecord }> {
    return this.tasks.createTruncationTask(task);
  }

  async updateTask(ref: TaskRef, patch: TaskPatch, options: { whileRunning?: boolean } = {}): Promise<TaskRecord | undefined> {
    return this.tasks.updateTask(ref, patch, options.whileRunning ?? false);
  }

  async getTask(ref: TaskRef): Promise<TaskRecord | undefined> {
    return this.tasks.getTask(ref);
  }

  async listTasks(filter: { state?: TaskState; limit: number }): Promise<TaskRecord[]> {
    return this.tasks.listTasks(filter);
  }

  async requestTaskCancel(ref: TaskRef): Promise<TaskRecord | undefined> {
    return this.tasks.requestTaskCancel(ref);
  }

  async heartbeatTasks(nodeId: string, now: number): Promise<void> {
    this.tasks.heartbeatTasks(nodeId, now);
  }

  /** One SQLite file is served by one process, which knows its own tasks: nothing to publish. */
  async registerTaskNode(_nodeId: string): Promise<void> {}

  async isTaskNodeAlive(_nodeId: string): Promise<boolean | undefined> {
    return undefined;
  }

  async insertAccessToken(t: AccessTokenRecord): Promise<void> {
    this.identity.insertAccessToken(t);
  }

  async getAccessToken(id: string): Promise<AccessTokenRecord | undefined> {
    return this.identity.getAccessToken(id);
  }

  async findTokenWithActor(id: string): Promise<{ token: AccessTokenRecord; actorExists: boolean; actorInactive: boolean } | undefined> {
    return this.identity.findTokenWithActor(id);
  }

  async deleteAccessToken(id: string): Promise<boolean> {
    return this.identity.deleteAccessToken(id);
  }

  async listAccessTokens(filter: AccessTokenFilter, start: number, count: number): Promise<AccessTokenPage> {
    return this.identity.listAccessTokens(filter, start, count);
  }

  async deleteExpiredAccessTokens(now: number): Promise<number> {
    return this.identity.deleteExpiredAccessTokens(now);
  }

  async getRole(actorUrn: string): Promise<string | undefined> {
    return this.identity.getRole(actorUrn);
  }

  async setRole(actorUrns: readonly string[], roleUrn: string | null, assignedBy: string, now: number): Promise<void> {
    this.db.transaction(() => this.identity.setRole(actorUrns, roleUrn, assignedBy, now)).immediate();
  }

  async getPasswordHash(userUrn: string): Promise<string | undefined> {
    return this.identity.getPasswordHash(userUrn);
  }

  async setPasswordHash(userUrn: string, hash: string, now: number): Promise<void> {
    this.identity.setPasswordHash(userUrn, hash, now);
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
