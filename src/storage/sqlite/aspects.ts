import type Database from 'better-sqlite3';
import { partitionStart } from '../partitions.ts';
import { fromJsonText, fromJsonTextRequired, toJsonText } from '../json.ts';
import { deletion, DELETION_ACTOR } from '../change-event-sql.ts';
import { type AspectRow as StoredRow, toStoredAspect } from '../aspect-row.ts';
import { runIdOf } from '../run-id.ts';
import { MissingEntities } from '../store-error.ts';
import type { PortImpl } from '../compose-store.ts';
import type { AspectMentionQuery, AspectPort, AspectWriteOutcome, EntityUrnQuery, StoredAspect, WriteBatch, WriteOp } from '../ports/aspects.ts';
import type { AspectChange } from '../ports/change-events.ts';
import type { VersionRetention } from '../ports/retention.ts';
import type { TimeseriesIndexRef } from '../ports/timeseries.ts';
import { onWriteParams, ON_WRITE_SQL } from '../retention-sql.ts';
import { bySqliteNames } from './statements.ts';
import { findAspectsMentioning, listEntityUrns } from './entity-listing.ts';
import type { SqliteRelationships } from './relationships.ts';
import type { SqliteChangeEvents } from './change-events.ts';
import type { StatementCache } from './statements.ts';
import type { SqliteTimeseries } from './timeseries.ts';
import { END_SESSIONS_SQL } from './user-access.ts';

type AspectOp = Extract<WriteOp, { kind: 'aspect' }>;

/** What deleting a user or group revokes with it: tokens acting as it, its role, its password, its sessions. */
const REVOKE_IDENTITY = [
  'DELETE FROM access_tokens WHERE actor_urn = ?',
  'DELETE FROM role_assignments WHERE actor_urn = ?',
  'DELETE FROM user_credentials WHERE user_urn = ?',
  END_SESSIONS_SQL,
];

type AspectRow = StoredRow<string>;
const toAspect = (r: AspectRow): StoredAspect => toStoredAspect(r, fromJsonTextRequired);

/** A timeseries event's write as the change log records it (DataHub logs every one, a rewrite of the same event too). */
const timeseriesChange = (op: Extract<WriteOp, { kind: 'timeseries' }>, actor: string, at: number): AspectChange => ({
  entityType: op.entityType,
  urn: op.urn,
  aspect: op.aspect,
  changeType: 'UPSERT',
  before: null,
  after: op.event,
  systemMetadata: op.systemMetadata,
  previousSystemMetadata: null,
  actor,
  at,
});

/**
 * Versioned aspects on SQLite: DataHub's aspect table (version 0 the latest), the entities table, and the batch
 * write that also carries timeseries events. better-sqlite3 is synchronous, so a batch runs start to finish without
 * another request interleaving.
 */
export class SqliteAspects implements PortImpl<AspectPort> {
  // Built once: better-sqlite3's transaction() builds its wrappers anew on every call, which cost more than the reads.
  private readonly writeTx: Database.Transaction<(batch: WriteBatch) => AspectWriteOutcome[]>;
  private readonly readEntitiesTx: Database.Transaction<(urns: readonly string[], aspects: readonly string[]) => Map<string, StoredAspect[]>>;
  private readonly deleteEntityTx: Database.Transaction<(urn: string, revokeIdentity: boolean) => { aspectRows: number; timeseriesRows: number }>;
  private readonly deleteAspectTx: Database.Transaction<(urn: string, aspect: string) => number>;

  constructor(
    db: Database.Database,
    private readonly statements: StatementCache,
    private readonly ts: SqliteTimeseries,
    private readonly relationships: SqliteRelationships,
    private readonly retention: VersionRetention,
    private readonly events: SqliteChangeEvents,
  ) {
    this.writeTx = db.transaction((batch) => this.applyBatch(batch));
    this.readEntitiesTx = db.transaction((urns, aspects) => this.readEntities(urns, aspects));
    this.deleteEntityTx = db.transaction((urn, revokeIdentity) => this.deleteEntityRows(urn, revokeIdentity));
    this.deleteAspectTx = db.transaction((urn, aspect) => {
      this.relationships.forgetAspect(urn, aspect);
      const latest = this.sql('SELECT * FROM aspects WHERE urn = ? AND aspect = ? AND version = 0').get(urn, aspect) as AspectRow | undefined;
      const removed = this.sql('DELETE FROM aspects WHERE urn = ? AND aspect = ?').run(urn, aspect).changes;
      if (latest) this.logDeleted(toAspect(latest), DELETION_ACTOR, Date.now());
      return removed;
    });
  }

  private sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  write(batch: WriteBatch): AspectWriteOutcome[] {
    return this.writeTx.immediate(batch);
  }

  private applyBatch(batch: WriteBatch): AspectWriteOutcome[] {
    // Each entity's search keys once for the batch, not once per aspect written (sqlite/search-index.ts).
    return this.relationships.searchIndex.withKeysOnce(() => this.applyOps(batch));
  }

  private applyOps(batch: WriteBatch): AspectWriteOutcome[] {
    // The write transaction is the only writer, so what exists now still exists at its commit.
    const missing = [...new Set(batch.requireEntities ?? [])].filter(
      (urn) => this.sql('SELECT 1 FROM entities WHERE urn = ?').get(urn) === undefined,
    );
    if (missing.length > 0) throw new MissingEntities(missing);
    this.ts.forgetIfChangedElsewhere();
    const outcomes: AspectWriteOutcome[] = [];
    const added = new Map<string, { ref: TimeseriesIndexRef; start: number; stamps: number[] }>();
    const series: AspectChange[] = [];
    for (const op of batch.ops) {
      if (op.kind === 'aspect') {
        outcomes.push(this.writeAspect(op, batch.actor, batch.now));
        continue;
      }
      series.push(timeseriesChange(op, batch.actor, batch.now));
      if (this.ts.upsert(op, op)) {
        const start = partitionStart(op.timestampMillis);
        const key = `${op.entityType}\u0000${op.aspect}\u0000${start}`;
        const slot = added.get(key) ?? { ref: op, start, stamps: [] };
        slot.stamps.push(op.timestampMillis);
        added.set(key, slot);
      }
    }
    for (const { ref, start, stamps } of added.values()) this.ts.addToCount(ref, start, stamps);
    // DataHub logs every timeseries event written, a rewrite of the same one too: one entry for the batch's.
    if (series.length > 0) this.events.timeseriesWritten(series);
    return outcomes;
  }

  /** Inside the caller's write transaction (a batch, or a rollback that keeps an entity it created). */
  writeAspect(op: AspectOp, actor: string, now: number): AspectWriteOutcome {
    const current = this.sql(
      `SELECT metadata, system_metadata, created_on, (SELECT MAX(version) FROM aspects WHERE urn = @urn AND aspect = @aspect) AS max_version
         FROM aspects WHERE urn = @urn AND aspect = @aspect AND version = 0`,
    ).get({ urn: op.urn, aspect: op.aspect }) as
      { metadata: string; system_metadata: string | null; created_on: number; max_version: number } | undefined;
    // An aspect's entity row exists while the aspect does (both go in one transaction): only a first aspect creates it.
    if (!current)
      this.sql('INSERT OR IGNORE INTO entities (urn, entity_type, created_on, created_by) VALUES (?, ?, ?, ?)').run(
        op.urn,
        op.entityType,
        now,
        actor,
      );
    const base = { urn: op.urn, aspect: op.aspect };
    const change = {
      entityType: op.entityType,
      urn: op.urn,
      aspect: op.aspect,
      changeType: 'UPSERT' as const,
      systemMetadata: op.systemMetadata,
      actor,
      at: now,
    };
    const next = op.update
      ? op.update(current && fromJsonTextRequired(current.metadata), current && { versions: current.max_version + 1, modifiedAt: current.created_on })
      : op.value;
    const value = JSON.stringify(next);
    const sm = toJsonText(op.systemMetadata);
    const runId = runIdOf(op.systemMetadata);
    if (!current) {
      this.sql(
        'INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by, run_id) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)',
      ).run(op.urn, op.aspect, op.entityType, value, sm, now, actor, runId);
      this.relationships.index(op.entityType, op.urn, op.aspect, next, true);
      this.events.aspectChanged({ ...change, before: null, after: next, previousSystemMetadata: null });
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
    const previous = fromJsonTextRequired(current.metadata);
    this.events.aspectChanged({ ...change, before: previous, after: next, previousSystemMetadata: fromJsonText(current.system_metadata) });
    const rule = this.retention.ruleFor(op.entityType, op.aspect);
    if (rule) this.sql(bySqliteNames(ON_WRITE_SQL)).run(onWriteParams(op.urn, op.aspect, archived.version, rule, now));
    return { ...base, outcome: 'updated', value: next, previous, previousVersion: archived.version };
  }

  getAspect(urn: string, aspect: string, version = 0): StoredAspect | undefined {
    const row = this.sql('SELECT * FROM aspects WHERE urn = ? AND aspect = ? AND version = ?').get(urn, aspect, version) as AspectRow | undefined;
    return row && toAspect(row);
  }

  getLatestAspects(urn: string, aspects?: readonly string[]): StoredAspect[] {
    const rows = this.sql('SELECT * FROM aspects WHERE urn = ? AND version = 0 ORDER BY aspect').all(urn) as AspectRow[];
    const wanted = aspects && new Set(aspects);
    return rows.filter((r) => !wanted || wanted.has(r.aspect)).map(toAspect);
  }

  getAspectHistory(urn: string, aspect: string, limit: number): StoredAspect[] {
    // Version 0 is the newest; among the rest, the highest version is the most recent.
    const rows = this.sql('SELECT * FROM aspects WHERE urn = ? AND aspect = ? ORDER BY version = 0 DESC, version DESC LIMIT ?').all(
      urn,
      aspect,
      limit,
    ) as AspectRow[];
    return rows.map(toAspect);
  }

  existing(urns: readonly string[]): Set<string> {
    const found = new Set<string>();
    const stmt = this.sql('SELECT 1 FROM entities WHERE urn = ?');
    for (const urn of new Set(urns)) if (stmt.get(urn)) found.add(urn);
    return found;
  }

  /** One read transaction: every entity is read from the same snapshot, and the WAL read lock is taken once. */
  getEntities(urns: readonly string[], aspects: readonly string[]): Map<string, StoredAspect[]> {
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

  listEntityUrns(query: EntityUrnQuery): string[] {
    return listEntityUrns(this.statements, query);
  }

  findAspectsMentioning(query: AspectMentionQuery): StoredAspect[] {
    return (findAspectsMentioning(this.statements, query) as AspectRow[]).map(toAspect);
  }

  deleteEntity(urn: string, options: { readonly revokeIdentity?: boolean } = {}): { aspectRows: number; timeseriesRows: number } {
    return this.deleteEntityTx.immediate(urn, options.revokeIdentity === true);
  }

  /** Inside the caller's write transaction (a delete, or a rollback that removes the entity its run created). */
  deleteEntityRows(urn: string, revokeIdentity: boolean, actor = DELETION_ACTOR, now = Date.now()): { aspectRows: number; timeseriesRows: number } {
    const latest = this.sql('SELECT * FROM aspects WHERE urn = ? AND version = 0 ORDER BY aspect').all(urn) as AspectRow[];
    const aspectRows = this.sql('DELETE FROM aspects WHERE urn = ?').run(urn).changes;
    for (const row of latest) this.logDeleted(toAspect(row), actor, now);
    this.sql('DELETE FROM entities WHERE urn = ?').run(urn);
    this.relationships.forgetEntity(urn);
    if (revokeIdentity) for (const statement of REVOKE_IDENTITY) this.sql(statement).run(urn);
    return { aspectRows, timeseriesRows: this.ts.deleteUrnRows(urn) };
  }

  /** Inside the caller's write transaction: the latest value `a` was deleted. */
  logDeleted(a: StoredAspect, actor: string, at: number): void {
    this.events.aspectChanged(deletion(a, actor, at));
  }

  deleteAspect(urn: string, aspect: string): number {
    return this.deleteAspectTx.immediate(urn, aspect);
  }
}
