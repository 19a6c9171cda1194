import type pg from 'pg';
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
import type { PostgresSearchIndex } from './search-index.ts';
import { named } from './named-query.ts';

const BACKFILL_PAGE = 1000;

/** The edges as the six text arrays `unnest` reads: source, destination, source type, type, destination type, via. */
const edgeColumns = (edges: readonly RelationshipEdge[]): Array<Array<string | null>> => [
  edges.map((e) => e.source),
  edges.map((e) => e.destination),
  edges.map((e) => e.sourceType),
  edges.map((e) => e.relationshipType),
  edges.map((e) => e.destinationType),
  edges.map((e) => e.via),
];

/**
 * The relationship index and the soft-deletion marks of the PostgreSQL adapter.
 * Writes run on the caller's transaction client; reads are single statements, so each sees one snapshot.
 */
export class PostgresRelationships implements PortImpl<RelationshipPort> {
  constructor(
    private readonly pool: pg.Pool,
    private readonly indexer: AspectIndexer,
    /** Search entries come from the same value, at the same moment: this part writes them too. */
    private readonly searchIndex: PostgresSearchIndex,
  ) {}

  /**
   * Replaces what the aspect indexed with what `value` indexes, in one statement: edges no longer declared are
   * deleted, new ones inserted, kept ones updated in place (their via entity may change), and the soft-deletion mark
   * set or cleared. No row is touched twice, which one statement requires. Call inside the transaction that writes `value`.
   */
  /** Whether writing the aspect may change the index (it declares relationships or marks soft deletion). */
  indexes(aspect: string): boolean {
    return this.indexer.aspects.has(aspect);
  }

  async index(c: pg.PoolClient, entityType: string, urn: string, aspect: string, value: Json): Promise<void> {
    if (!this.indexer.aspects.has(aspect)) return;
    const entries = this.indexer.index(entityType, urn, aspect, value);
    const edges = entries.relationships;
    // Planned on every call, not prepared: a plan cached while the table was small scans it whole, and a bulk load
    // (thousands of writes before autovacuum's next ANALYZE) would then pay a full scan per write.
    await c.query(
      `WITH e AS (SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS e(s, d, st, t, dt, v)),
       gone AS (
         DELETE FROM relationships r WHERE r.owner_urn = $1 AND r.aspect = $2
            AND NOT EXISTS (SELECT 1 FROM e WHERE e.s = r.source_urn AND e.d = r.destination_urn AND e.t = r.relationship_type)
       ),
       unmarked AS (DELETE FROM soft_deletions WHERE urn = $1 AND aspect = $2 AND NOT $9::boolean),
       marked AS (INSERT INTO soft_deletions (urn, aspect) SELECT $1, $2 WHERE $9::boolean ON CONFLICT DO NOTHING)
       INSERT INTO relationships (source_urn, destination_urn, relationship_type, owner_urn, aspect, source_type, destination_type, via_urn)
       SELECT s, d, t, $1, $2, st, dt, v FROM e
       ON CONFLICT (source_urn, destination_urn, relationship_type, owner_urn, aspect)
       DO UPDATE SET via_urn = excluded.via_urn WHERE relationships.via_urn IS DISTINCT FROM excluded.via_urn`,
      [urn, aspect, ...edgeColumns(edges), entries.softDeleted],
    );
    await this.searchIndex.replace(c, urn, aspect, entries.search ?? []);
  }

  /**
   * Indexes aspects this transaction created: their edges, marks and search entries only inserted, since the tables
   * hold none of theirs (each removal of an aspect locks its latest value, then removes what it indexed, in its
   * transaction).
   */
  async indexCreated(c: pg.PoolClient, items: ReadonlyArray<{ entityType: string; urn: string; aspect: string; value: Json }>): Promise<void> {
    const indexed = items
      .filter((i) => this.indexer.aspects.has(i.aspect))
      .map((i) => ({ urn: i.urn, aspect: i.aspect, entries: this.indexer.index(i.entityType, i.urn, i.aspect, i.value) }));
    if (indexed.length === 0) return;
    await this.insert(c, indexed);
    await this.searchIndex.replaceMany(
      c,
      indexed.map((i) => ({ urn: i.urn, aspect: i.aspect, entries: i.entries.search ?? [] })),
      true,
    );
  }

  /** Inserts the entries of several aspects, into tables that hold none of theirs, in two statements. */
  private async insert(c: pg.PoolClient, items: ReadonlyArray<{ urn: string; aspect: string; entries: AspectIndexEntries }>): Promise<void> {
    const edges = items.flatMap(({ urn, aspect, entries }) => entries.relationships.map((e) => ({ ...e, urn, aspect })));
    if (edges.length > 0) {
      await c.query(
        named(
          `INSERT INTO relationships (source_urn, destination_urn, source_type, relationship_type, destination_type, via_urn, owner_urn, aspect)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
           ON CONFLICT DO NOTHING`,
          [...edgeColumns(edges), edges.map((e) => e.urn), edges.map((e) => e.aspect)],
        ),
      );
    }
    const marked = items.filter((i) => i.entries.softDeleted);
    if (marked.length > 0) {
      await c.query(
        named('INSERT INTO soft_deletions (urn, aspect) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING', [
          marked.map((i) => i.urn),
          marked.map((i) => i.aspect),
        ]),
      );
    }
  }

  /** Drops what one aspect of the entity indexed. */
  async forgetAspect(c: pg.PoolClient, urn: string, aspect: string): Promise<void> {
    if (!this.indexer.aspects.has(aspect)) return;
    await c.query('DELETE FROM relationships WHERE owner_urn = $1 AND aspect = $2', [urn, aspect]);
    await c.query(named('DELETE FROM soft_deletions WHERE urn = $1 AND aspect = $2', [urn, aspect]));
    await this.searchIndex.replace(c, urn, aspect, []);
  }

  /** A hard delete removes the entity from the graph: its own edges, every edge into it, and its soft-deletion mark. */
  async forgetEntity(c: pg.PoolClient, urn: string): Promise<void> {
    await c.query('DELETE FROM relationships WHERE source_urn = $1', [urn]);
    await c.query('DELETE FROM relationships WHERE destination_urn = $1', [urn]);
    await c.query('DELETE FROM relationships WHERE owner_urn = $1', [urn]);
    await c.query('DELETE FROM soft_deletions WHERE urn = $1', [urn]);
    await this.searchIndex.forgetEntity(c, urn);
  }

  /** Indexes every stored latest aspect value, a page at a time; run once, in the transaction of the migration that creates the tables. */
  async backfill(c: pg.PoolClient): Promise<void> {
    const aspects = [...this.indexer.aspects];
    let after = ['', ''];
    for (;;) {
      const page = await c.query<{ urn: string; entity_type: string; aspect: string; metadata: Json }>(
        `SELECT urn, entity_type, aspect, metadata FROM aspects
          WHERE version = 0 AND aspect = ANY($1::text[]) AND (urn, aspect) > ($2, $3)
          ORDER BY urn, aspect LIMIT ${BACKFILL_PAGE}`,
        [aspects, ...after],
      );
      // The tables were created empty in this transaction: nothing to replace, only to insert.
      await this.insert(
        c,
        page.rows.map((r) => ({ urn: r.urn, aspect: r.aspect, entries: this.indexer.index(r.entity_type, r.urn, r.aspect, r.metadata) })),
      );
      if (page.rows.length < BACKFILL_PAGE) break;
      after = [page.rows.at(-1)!.urn, page.rows.at(-1)!.aspect];
    }
    // Statistics now, not at autovacuum's next pass: without them a walk's `= ANY(...)` reads are planned as scans.
    await c.query('ANALYZE relationships');
  }

  async relatedEntities(q: RelatedEntitiesQuery): Promise<RelatedEntitiesPage> {
    const anchor = q.direction === 'OUTGOING' ? 'r.source_urn' : 'r.destination_urn';
    const other = q.direction === 'OUTGOING' ? 'destination_urn' : 'source_urn';
    const typed = q.types.length > 0;
    const where = `${anchor} = $1${typed ? ' AND r.relationship_type = ANY($4::text[])' : ''} AND ${NOT_SOFT_DELETED}`;
    // One statement, so the page and its total come from the same snapshot.
    const r = await this.pool.query<RelationshipRow & { total: number }>(
      named(
        `SELECT t.total, p.* FROM (SELECT count(*)::int AS total FROM relationships r WHERE ${where}) t
         LEFT JOIN LATERAL (
           SELECT ${RELATIONSHIP_COLUMNS} FROM relationships r WHERE ${where}
            ORDER BY r.${other}, r.relationship_type, r.owner_urn, r.aspect LIMIT $2 OFFSET $3
         ) p ON true
         ORDER BY p.${other}, p.relationship_type, p.owner_urn, p.aspect`,
        typed ? [q.urn, q.count, q.start, q.types] : [q.urn, q.count, q.start],
      ),
    );
    const total = r.rows[0]?.total ?? 0;
    return { total, relationships: r.rows.filter((row) => row.source_urn !== null).map(toRelationship) };
  }

  async relationshipHop(q: RelationshipHopQuery): Promise<RelationshipEdge[]> {
    if (q.urns.length === 0) return [];
    const parts: string[] = [];
    const params: unknown[] = [q.urns];
    for (const [anchor, types] of [
      ['r.source_urn', q.outgoing],
      ['r.destination_urn', q.incoming],
    ] as const) {
      if (types.length === 0) continue;
      params.push(types);
      parts.push(
        `SELECT ${EDGE_COLUMNS} FROM relationships r WHERE ${anchor} = ANY($1::text[]) AND r.relationship_type = ANY($${params.length}::text[]) AND ${NOT_SOFT_DELETED}`,
      );
    }
    if (parts.length === 0) return [];
    const r = await this.pool.query<RelationshipRow>(named(parts.join(' UNION ALL '), params));
    return r.rows.map(toEdge);
  }

  async scanRelationships(q: RelationshipScanQuery): Promise<StoredRelationship[]> {
    const params: unknown[] = [];
    const placeholder = (v: unknown) => (params.push(v), `$${params.length}`);
    const where = scanWhere(
      q,
      (column, values) => `${column} = ANY(${placeholder(values)}::text[])`,
      (value) => `${placeholder(value)}::text`,
    );
    // Not named: a filter's shape is the caller's, and scans are rare enough to plan each time.
    const r = await this.pool.query<RelationshipRow>(
      `SELECT ${RELATIONSHIP_COLUMNS} FROM relationships r WHERE ${where} ORDER BY ${KEY_ORDER} LIMIT ${placeholder(q.limit)}`,
      params,
    );
    return r.rows.map(toRelationship);
  }
}
