import type Database from 'better-sqlite3';
import { fromJsonTextRequired } from '../json.ts';
import {
  EDGE_COLUMNS,
  KEY_ORDER,
  NOT_SOFT_DELETED,
  RELATIONSHIP_COLUMNS,
  scanWhere,
  toEdge,
  toRelationship,
  type RelationshipRow,
} from '../relationship-sql.ts';
import type {
  AspectIndexEntries,
  AspectIndexer,
  Json,
  RelatedEntitiesPage,
  RelatedEntitiesQuery,
  RelationshipHopQuery,
  RelationshipEdge,
  RelationshipScanQuery,
  StoredRelationship,
} from '../store.ts';
import type { PortImpl } from '../compose-store.ts';
import type { RelationshipPort } from '../ports/relationships.ts';
import type { SqliteSearchIndex } from './search-index.ts';

/** Lists travel as one JSON text parameter, so a statement's text never depends on a list's length. */
const IN_JSON = (column: string) => `${column} IN (SELECT value FROM json_each(?))`;

/**
 * The relationship index and the soft-deletion marks of the SQLite adapter.
 * Every method runs inside the caller's transaction (writes) or opens a read one.
 */
export class SqliteRelationships implements PortImpl<RelationshipPort> {
  private readonly relatedTx: Database.Transaction<(q: RelatedEntitiesQuery) => RelatedEntitiesPage>;

  constructor(
    private readonly db: Database.Database,
    private readonly sql: (text: string) => Database.Statement,
    private readonly indexer: AspectIndexer,
    /** Search entries come from the same value, at the same moment: this part writes them too. */
    readonly searchIndex: SqliteSearchIndex,
  ) {
    // One read transaction: the page and its total come from the same snapshot.
    this.relatedTx = db.transaction((q) => this.readRelated(q));
  }

  /**
   * Replaces what the aspect indexed with what `value` indexes; call inside the transaction that writes `value`.
   * `created`: the aspect had no latest value, so it indexes nothing yet (every path that removes a latest value
   * forgets what it indexed): nothing to delete first, four DELETE statements fewer per aspect.
   */
  index(entityType: string, urn: string, aspect: string, value: Json, created = false): void {
    if (!this.indexer.aspects.has(aspect)) return;
    const entries = this.indexer.index(entityType, urn, aspect, value);
    if (created) {
      this.insert(entityType, urn, aspect, entries);
      return;
    }
    // The search rows are replaced by difference (most of an aspect's values stay the same from one version to the next).
    this.forgetEdges(urn, aspect);
    this.insert(entityType, urn, aspect, entries, false);
    this.searchIndex.replace(entityType, urn, aspect, entries.search ?? []);
  }

  private insert(entityType: string, urn: string, aspect: string, entries: AspectIndexEntries, search = true): void {
    const insert = this.sql(
      `INSERT OR IGNORE INTO relationships (source_urn, destination_urn, relationship_type, owner_urn, aspect, source_type, destination_type, via_urn)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const e of entries.relationships) {
      insert.run(e.source, e.destination, e.relationshipType, urn, aspect, e.sourceType, e.destinationType, e.via);
    }
    if (entries.softDeleted) this.sql('INSERT INTO soft_deletions (urn, aspect) VALUES (?, ?)').run(urn, aspect);
    if (search) this.searchIndex.write(entityType, urn, aspect, entries.search ?? []);
  }

  /** Drops what one aspect of the entity indexed. */
  forgetAspect(urn: string, aspect: string): void {
    if (!this.indexer.aspects.has(aspect)) return;
    this.forgetEdges(urn, aspect);
    this.searchIndex.forgetAspect(urn, aspect);
  }

  /** Drops the edges and the soft-deletion mark one aspect of the entity indexed. */
  private forgetEdges(urn: string, aspect: string): void {
    this.sql('DELETE FROM relationships WHERE owner_urn = ? AND aspect = ?').run(urn, aspect);
    this.sql('DELETE FROM soft_deletions WHERE urn = ? AND aspect = ?').run(urn, aspect);
  }

  /** A hard delete removes the entity from the graph: its own edges, every edge into it, and its soft-deletion mark. */
  forgetEntity(urn: string): void {
    this.sql('DELETE FROM relationships WHERE source_urn = ?').run(urn);
    this.sql('DELETE FROM relationships WHERE destination_urn = ?').run(urn);
    this.sql('DELETE FROM relationships WHERE owner_urn = ?').run(urn);
    this.sql('DELETE FROM soft_deletions WHERE urn = ?').run(urn);
    this.searchIndex.forgetEntity(urn);
  }

  /** Indexes every stored latest aspect value; run once, by the migration that creates the tables. */
  backfill(): void {
    const aspects = JSON.stringify([...this.indexer.aspects]);
    // A page at a time: better-sqlite3 runs no other statement while an iterator is open.
    const page = this.db.prepare(
      `SELECT urn, entity_type, aspect, metadata FROM aspects
        WHERE version = 0 AND aspect IN (SELECT value FROM json_each(?)) AND (urn, aspect) > (?, ?)
        ORDER BY urn, aspect LIMIT 1000`,
    );
    let after = ['', ''];
    for (;;) {
      const rows = page.all(aspects, ...after) as Array<{ urn: string; entity_type: string; aspect: string; metadata: string }>;
      // The tables were created empty in this transaction: nothing to replace, only to insert.
      // The search tables come later (SEARCH_MIGRATION), which starts their own build.
      for (const r of rows)
        this.insert(r.entity_type, r.urn, r.aspect, this.indexer.index(r.entity_type, r.urn, r.aspect, fromJsonTextRequired(r.metadata)), false);
      if (rows.length < 1000) return;
      after = [rows.at(-1)!.urn, rows.at(-1)!.aspect];
    }
  }

  relatedEntities(q: RelatedEntitiesQuery): RelatedEntitiesPage {
    return this.relatedTx(q);
  }

  private readRelated(q: RelatedEntitiesQuery): RelatedEntitiesPage {
    const anchor = q.direction === 'OUTGOING' ? 'r.source_urn' : 'r.destination_urn';
    const other = q.direction === 'OUTGOING' ? 'r.destination_urn' : 'r.source_urn';
    const typed = q.types.length > 0;
    const where = `${anchor} = ?${typed ? ` AND ${IN_JSON('r.relationship_type')}` : ''} AND ${NOT_SOFT_DELETED}`;
    const params = typed ? [q.urn, JSON.stringify(q.types)] : [q.urn];
    const total = (this.sql(`SELECT count(*) AS n FROM relationships r WHERE ${where}`).get(...params) as { n: number }).n;
    const rows = this.sql(
      `SELECT ${RELATIONSHIP_COLUMNS} FROM relationships r WHERE ${where}
        ORDER BY ${other}, r.relationship_type, r.owner_urn, r.aspect LIMIT ? OFFSET ?`,
    ).all(...params, q.count, q.start) as RelationshipRow[];
    return { total, relationships: rows.map(toRelationship) };
  }

  relationshipHop(q: RelationshipHopQuery): RelationshipEdge[] {
    if (q.urns.length === 0) return [];
    const urns = JSON.stringify(q.urns);
    const parts: string[] = [];
    const params: string[] = [];
    for (const [anchor, types] of [
      ['r.source_urn', q.outgoing],
      ['r.destination_urn', q.incoming],
    ] as const) {
      if (types.length === 0) continue;
      parts.push(
        `SELECT ${EDGE_COLUMNS} FROM relationships r WHERE ${IN_JSON(anchor)} AND ${IN_JSON('r.relationship_type')} AND ${NOT_SOFT_DELETED}`,
      );
      params.push(urns, JSON.stringify(types));
    }
    if (parts.length === 0) return [];
    return (this.sql(parts.join(' UNION ALL ')).all(...params) as RelationshipRow[]).map(toEdge);
  }

  scanRelationships(q: RelationshipScanQuery): StoredRelationship[] {
    const params: unknown[] = [];
    const where = scanWhere(
      q,
      (column, values) => (params.push(JSON.stringify(values)), IN_JSON(column)),
      (value) => (params.push(value), '?'),
    );
    // Not cached: a filter's shape is the caller's, and scans are rare enough to prepare each time.
    const rows = this.db
      .prepare(`SELECT ${RELATIONSHIP_COLUMNS} FROM relationships r WHERE ${where} ORDER BY ${KEY_ORDER} LIMIT ?`)
      .all(...params, q.limit) as RelationshipRow[];
    return rows.map(toRelationship);
  }
}
