import type pg from 'pg';
import type { PortImpl } from '../compose-store.ts';
import type {
  AspectMentionQuery,
  AspectPort,
  AspectWriteOutcome,
  EntityUrnQuery,
  Json,
  StoredAspect,
  WriteBatch,
  WriteOp,
} from '../ports/aspects.ts';
import { type AspectRow as StoredRow, toStoredAspect } from '../aspect-row.ts';
import type { VersionRetention } from '../ports/retention.ts';
import { onWriteParams, ON_WRITE_SQL } from '../retention-sql.ts';
import { runIdOf } from '../run-id.ts';
import { MissingEntities } from '../store-error.ts';
import { findAspectsMentioning, listEntityUrns } from './entity-listing.ts';
import { named, positional } from './named-query.ts';
import type { PostgresChangeEvents } from './change-events.ts';
import { deletion, DELETION_ACTOR } from '../change-event-sql.ts';
import type { PostgresRelationships } from './relationships.ts';
import { PartitionMoved, type PostgresTimeseries } from './timeseries.ts';
import { inTransaction } from './transaction.ts';
import { END_SESSIONS_SQL } from './user-access.ts';

type AspectOp = Extract<WriteOp, { kind: 'aspect' }>;

/** A key aspect write: inserted when absent, never versioned, so a batch's keys can go in one statement. */
const writesKey = (op: AspectOp): boolean => op.onlyIfAbsent === true && op.update === undefined;
const isKeyWrite = (op: WriteOp): op is AspectOp => op.kind === 'aspect' && writesKey(op);
const keyOf = (op: AspectOp): string => `${op.urn}\u0000${op.aspect}`;

type AspectRow = StoredRow<Json>;

/** PostgreSQL's SQLSTATE for a transaction ended to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';

/** WriteBatch.requireEntities inside the batch's transaction: the entities found stay until it ends (FOR KEY SHARE). */
async function requireEntities(c: pg.PoolClient, urns: readonly string[]): Promise<void> {
  const wanted = [...new Set(urns)];
  const found = await c.query<{ urn: string }>(named('SELECT urn FROM entities WHERE urn = ANY($1) FOR KEY SHARE', [wanted]));
  const present = new Set(found.rows.map((row) => row.urn));
  const missing = wanted.filter((urn) => !present.has(urn));
  if (missing.length > 0) throw new MissingEntities(missing);
}
/** An aspect or timeseries write's change, but for its values before and after. */
const changeOf = (op: WriteOp, actor: string, at: number) => ({
  entityType: op.entityType,
  urn: op.urn,
  aspect: op.aspect,
  changeType: 'UPSERT' as const,
  systemMetadata: op.systemMetadata,
  previousSystemMetadata: null,
  actor,
  at,
});

/** node-postgres parses jsonb columns itself. */
const toAspect = (r: AspectRow): StoredAspect => toStoredAspect(r, (json) => json);

/**
 * Locks the rows of the entities a batch writes to (those that exist), in urn order, against a delete until the batch
 * commits: a delete of the entity locks its row first (deleteEntityRows), so it either sees everything the batch
 * wrote or runs before the batch reads anything. Without it, a batch adding an aspect while the entity was deleted
 * left the new aspect and its search rows behind the delete, and a search, which reads its matches' types from their
 * urns (postgres/search.ts), found an entity that was gone. A `KEY SHARE` lock: batches writing one entity do not wait
 * on each other for it. Returns the urns locked.
 */
async function lockEntities(c: pg.PoolClient, ops: readonly WriteOp[]): Promise<Set<string>> {
  const urns = [...new Set(ops.map((op) => op.urn))];
  if (urns.length === 0) return new Set();
  const r = await c.query<{ urn: string }>('SELECT urn FROM entities WHERE urn = ANY($1::text[]) ORDER BY urn FOR KEY SHARE', [urns]);
  return new Set(r.rows.map((row) => row.urn));
}

/** An entity a batch wrote to was deleted by a transaction that held it while the batch wrote: the batch runs again. */
class EntityDeletedMeanwhile extends Error {}

/**
 * At the end of a batch, the entities its aspects went to that lockEntities did not lock (they had no row then): each
 * row made if missing (the batch wrote it, unless another batch had: a delete since may have taken it) and locked
 * like the others. A row a delete holds is waited for; if that delete then removes it, what the batch wrote beside
 * the delete would outlive the entity, so the batch is rolled back and runs again (EntityDeletedMeanwhile).
 */
async function lockCreatedEntities(
  c: pg.PoolClient,
  ops: readonly WriteOp[],
  locked: ReadonlySet<string>,
  actor: string,
  now: number,
): Promise<void> {
  const created = new Map<string, string>();
  for (const op of ops) if (op.kind === 'aspect' && !locked.has(op.urn)) created.set(op.urn, op.entityType);
  if (created.size === 0) return;
  const urns = [...created.keys()].sort();
  // Two statements: a row made by the first is seen by the second (a statement does not see its own CTE's rows).
  await c.query(
    `INSERT INTO entities (urn, entity_type, created_on, created_by)
     SELECT urn, entity_type, $3, $4 FROM unnest($1::text[], $2::text[]) AS n(urn, entity_type) ON CONFLICT DO NOTHING`,
    [urns, urns.map((u) => created.get(u)), now, actor],
  );
  const r = await c.query<{ urn: string }>('SELECT urn FROM entities WHERE urn = ANY($1::text[]) ORDER BY urn FOR KEY SHARE', [urns]);
  if (r.rows.length < urns.length) throw new EntityDeletedMeanwhile();
}

/**
 * Versioned aspects on PostgreSQL: DataHub's aspect table (version 0 the latest), the entities table, and the batch
 * write that also carries timeseries events, one transaction per batch. A batch locks the aspects it creates first (in
 * key order), then the rest in its own order; a batch that two writers' orders deadlock is run again (below).
 */
export class PostgresAspects implements PortImpl<AspectPort> {
  constructor(
    private readonly pool: pg.Pool,
    private readonly ts: PostgresTimeseries,
    private readonly relationships: PostgresRelationships,
    private readonly retention: VersionRetention,
    private readonly events: PostgresChangeEvents,
  ) {}

  async write(batch: WriteBatch): Promise<AspectWriteOutcome[]> {
    const series = batch.ops.filter((op): op is Extract<WriteOp, { kind: 'timeseries' }> => op.kind === 'timeseries');
    for (let attempt = 1; ; attempt++) {
      await this.ts.prepare(series);
      try {
        return await inTransaction(this.pool, async (c) => {
          const locked = await lockEntities(c, batch.ops);
          if (batch.requireEntities && batch.requireEntities.length > 0) await requireEntities(c, batch.requireEntities);
          const keys = batch.ops.filter(isKeyWrite);
          const created = keys.length > 0 ? await this.insertKeys(c, keys, batch.actor, batch.now) : new Set<string>();
          const fresh = await this.insertFresh(c, batch.ops, batch.actor, batch.now);
          const outcomes: AspectWriteOutcome[] = [];
          for (const [i, op] of batch.ops.entries()) {
            if (op.kind !== 'aspect') continue;
            if (writesKey(op))
              outcomes.push({ urn: op.urn, aspect: op.aspect, outcome: created.has(keyOf(op)) ? 'created' : 'unchanged', value: op.value });
            else if (fresh.has(i)) {
              // Logged here, in the batch's order, though written before the loop.
              this.events.aspectChanged(c, { ...changeOf(op, batch.actor, batch.now), before: null, after: op.value });
              outcomes.push({ urn: op.urn, aspect: op.aspect, outcome: 'created', value: op.value });
            } else outcomes.push(await this.writeAspect(c, op, batch.actor, batch.now));
          }
          if (series.length > 0) {
            await this.ts.upsert(c, series);
            // DataHub logs every timeseries event written, a rewrite of the same one too: one entry for the batch's.
            this.events.timeseriesWritten(
              c,
              series.map((op) => ({ ...changeOf(op, batch.actor, batch.now), before: null, after: op.event })),
            );
          }
          await lockCreatedEntities(c, batch.ops, locked, batch.actor, batch.now);
          return outcomes;
        });
      } catch (e) {
        // PostgreSQL ends one of two transactions that wait on each other's rows (40P01): the batch was rolled back
        // whole, so it runs again (an update function included) on the rows as the other left them.
        const again = e instanceof PartitionMoved || e instanceof EntityDeletedMeanwhile || (e as { code?: unknown }).code === DEADLOCK_DETECTED;
        if (!again || attempt >= 3) throw e;
        if (e instanceof PartitionMoved) this.ts.resetCaches();
      }
    }
  }

  /** Writes every key aspect of the batch (and its entity row) in one statement; returns those it created. */
  private async insertKeys(c: pg.PoolClient, ops: readonly AspectOp[], actor: string, now: number): Promise<Set<string>> {
    // Most keys of a batch exist already (events of known datasets): one read finds them, and only the rest are inserted.
    const present = await c.query<{ urn: string; aspect: string }>(
      named(
        'SELECT a.urn, a.aspect FROM aspects a JOIN unnest($1::text[], $2::text[]) AS k(urn, aspect) ON a.urn = k.urn AND a.aspect = k.aspect AND a.version = 0',
        [ops.map((o) => o.urn), ops.map((o) => o.aspect)],
      ),
    );
    const known = new Set(present.rows.map((row) => `${row.urn}\u0000${row.aspect}`));
    // A key given twice is created once (its index rows inserted once).
    const missing = [...new Map(ops.filter((o) => !known.has(keyOf(o))).map((o) => [keyOf(o), o] as const)).values()];
    if (missing.length === 0) return new Set();
    const createdOps = await this.createAbsent(c, missing, actor, now);
    const created = new Set(createdOps.map(keyOf));
    // A key can declare a relationship (a data job's flow): createAbsent indexed those the batch created.
    for (const op of createdOps) this.events.aspectChanged(c, { ...changeOf(op, actor, now), before: null, after: op.value });
    return created;
  }

  /**
   * Creates, in one statement, the batch's plain writes (no update function) of aspects that do not exist yet, the
   * first write of each (urn, aspect) only, and indexes them all at once (an ingest of new entities: a statement or
   * three per aspect cost PostgreSQL more than the rows). Returns the places in `ops` of those it created: the rest
   * (aspects that exist, a second write of one, a lost race) are written one by one. A batch with fewer than two
   * such writes skips it (one insert attempt is what writeAspect tries first anyway). Their change-log entries are
   * the caller's, in the batch's order.
   */
  private async insertFresh(c: pg.PoolClient, ops: readonly WriteOp[], actor: string, now: number): Promise<Set<number>> {
    const seen = new Set<string>();
    const candidates: AspectOp[] = [];
    const at = new Map<AspectOp, number>();
    for (const [i, op] of ops.entries()) {
      if (op.kind !== 'aspect' || writesKey(op)) continue;
      const key = keyOf(op);
      if (seen.has(key)) continue;
      seen.add(key);
      if (op.update === undefined) {
        candidates.push(op);
        at.set(op, i);
      }
    }
    if (candidates.length < 2) return new Set();
    return new Set((await this.createAbsent(c, candidates, actor, now)).map((op) => at.get(op)!));
  }

  /**
   * Inserts the ops' aspects (and their entities' rows) where absent, in one statement, in key order (two batches
   * creating the same aspects wait on each other in one order), and indexes those it created, all at once; returns
   * those, in key order. The ops name distinct aspects.
   */
  private async createAbsent(c: pg.PoolClient, ops: readonly AspectOp[], actor: string, now: number): Promise<AspectOp[]> {
    const sorted = [...ops].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
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
    const inserted = new Set(r.rows.map((row) => `${row.urn}\u0000${row.aspect}`));
    const created = sorted.filter((op) => inserted.has(keyOf(op)));
    await this.relationships.indexCreated(c, created);
    return created;
  }

  /** Inside the caller's transaction (a batch, or a rollback that keeps an entity it created). */
  async writeAspect(c: pg.PoolClient, op: AspectOp, actor: string, now: number): Promise<AspectWriteOutcome> {
    const base = { urn: op.urn, aspect: op.aspect };
    for (;;) {
      let next = op.value;
      let exists = false;
      if (op.update) {
        // Lock the latest version first, so a concurrent read-modify-write waits for this one.
        const locked = await c.query<{ metadata: Json; created_on: string; max_version: number }>(
          named(
            `SELECT metadata, created_on, (SELECT MAX(version) FROM aspects WHERE urn = $1 AND aspect = $2) AS max_version
               FROM aspects WHERE urn = $1 AND aspect = $2 AND version = 0 FOR UPDATE`,
            [op.urn, op.aspect],
          ),
        );
        const row = locked.rows[0];
        exists = row !== undefined;
        next = op.update(row?.metadata, row && { versions: Number(row.max_version) + 1, modifiedAt: Number(row.created_on) });
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
          this.events.aspectChanged(c, { ...changeOf(op, actor, now), before: null, after: next });
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
    const archived = await c.query<{ version: number; metadata: Json; system_metadata: Json | null }>(
      named(
        `INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by, run_id)
         SELECT urn, aspect, (SELECT MAX(version) + 1 FROM aspects WHERE urn = $1 AND aspect = $2), entity_type, metadata, system_metadata, created_on, created_by, run_id
           FROM aspects WHERE urn = $1 AND aspect = $2 AND version = 0 RETURNING version, metadata, system_metadata`,
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
    this.events.aspectChanged(c, {
      ...changeOf(op, actor, now),
      before: previous.metadata,
      after: next,
      previousSystemMetadata: previous.system_metadata,
    });
    const rule = this.retention.ruleFor(op.entityType, op.aspect);
    if (rule) {
      const q = positional(ON_WRITE_SQL, onWriteParams(op.urn, op.aspect, Number(previous.version), rule, now));
      await c.query(named(q.text, q.values));
    }
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

  listEntityUrns(query: EntityUrnQuery): Promise<string[]> {
    return listEntityUrns(this.pool, query);
  }

  async findAspectsMentioning(query: AspectMentionQuery): Promise<StoredAspect[]> {
    return ((await findAspectsMentioning(this.pool, query)) as AspectRow[]).map(toAspect);
  }

  async deleteEntity(urn: string, options: { readonly revokeIdentity?: boolean } = {}): Promise<{ aspectRows: number; timeseriesRows: number }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.pool, (c) => this.deleteEntityRows(c, urn, options.revokeIdentity === true));
      } catch (e) {
        // Two deletes of entities with edges both ways can wait on each other's edge rows (40P01): rolled back whole,
        // the delete runs again, as a batch does.
        if ((e as { code?: unknown }).code !== DEADLOCK_DETECTED || attempt >= 3) throw e;
      }
    }
  }

  /**
   * Inside the caller's transaction (a delete, or a rollback that removes the entity its run created). The entity's
   * row is locked first: a batch writing to the entity holds it (lockEntities) until it commits, so every row it
   * wrote is seen and deleted here, or the batch waits and writes the entity anew after this commits.
   */
  async deleteEntityRows(c: pg.PoolClient, urn: string, revokeIdentity: boolean): Promise<{ aspectRows: number; timeseriesRows: number }> {
    await c.query('SELECT 1 FROM entities WHERE urn = $1 FOR UPDATE', [urn]);
    const deleted = await c.query<AspectRow>('DELETE FROM aspects WHERE urn = $1 RETURNING *', [urn]);
    const aspectRows = deleted.rowCount ?? 0;
    this.logDeleted(c, deleted.rows);
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

  async deleteAspect(urn: string, aspect: string): Promise<number> {
    return inTransaction(this.pool, async (c) => {
      // The latest value locked first: a write replacing it meanwhile commits before what it indexed is forgotten (or
      // waits, and finds it gone), so no edge or search row outlives the aspect (a new aspect's are only inserted).
      await c.query(named('SELECT 1 FROM aspects WHERE urn = $1 AND aspect = $2 AND version = 0 FOR UPDATE', [urn, aspect]));
      await this.relationships.forgetAspect(c, urn, aspect);
      const deleted = await c.query<AspectRow>('DELETE FROM aspects WHERE urn = $1 AND aspect = $2 RETURNING *', [urn, aspect]);
      this.logDeleted(c, deleted.rows);
      return deleted.rowCount ?? 0;
    });
  }

  /** Inside the caller's transaction: logs the deletion of each latest value among `rows` (the rows deleted). */
  logDeleted(c: pg.PoolClient, rows: readonly AspectRow[], actor = DELETION_ACTOR, at = Date.now()): void {
    const latest = rows.filter((r) => Number(r.version) === 0).sort((a, b) => (a.aspect < b.aspect ? -1 : a.aspect > b.aspect ? 1 : 0));
    for (const row of latest) this.events.aspectChanged(c, deletion(toAspect(row), actor, at));
  }
}
