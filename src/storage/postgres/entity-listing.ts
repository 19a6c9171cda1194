import type pg from 'pg';
import type { AspectMentionQuery, EntityUrnQuery } from '../store.ts';
import { named } from './named-query.ts';

const SQL = {
  // The entities_by_type index, (entity_type, urn).
  all: `SELECT urn FROM entities WHERE entity_type = $1 AND urn > $2 ORDER BY urn LIMIT $3`,
  // The aspects_soft_deleted partial index (same predicate): reads only soft-deleted entities.
  removed: `SELECT urn FROM aspects WHERE entity_type = $1 AND urn > $2
              AND aspect = 'status' AND version = 0 AND (metadata->>'removed') = 'true' ORDER BY urn LIMIT $3`,
  // entities_by_type, and one primary-key probe of the status aspect per entity.
  kept: `SELECT e.urn FROM entities e WHERE e.entity_type = $1 AND e.urn > $2
           AND NOT EXISTS (SELECT 1 FROM aspects s WHERE s.urn = e.urn AND s.aspect = 'status' AND s.version = 0 AND (s.metadata->>'removed') = 'true')
         ORDER BY e.urn LIMIT $3`,
};

export async function listEntityUrns(pool: pg.Pool, q: EntityUrnQuery): Promise<string[]> {
  const sql = q.removed === undefined ? SQL.all : q.removed ? SQL.removed : SQL.kept;
  const rows = await pool.query<{ urn: string }>(named(sql, [q.entityType, q.afterUrn ?? '', q.limit]));
  return rows.rows.map((r) => r.urn);
}

/** Latest versions of the named aspects whose JSON text contains the text, after (urn, aspect). Rows as stored. */
export async function findAspectsMentioning(pool: pg.Pool, q: AspectMentionQuery): Promise<unknown[]> {
  const rows = await pool.query(
    `SELECT urn, entity_type, aspect, version, metadata, system_metadata, created_on, created_by FROM aspects
      WHERE version = 0 AND aspect = ANY($1) AND strpos(metadata::text, $2) > 0 AND (urn, aspect) > ($3, $4)
      ORDER BY urn, aspect LIMIT $5`,
    [q.aspects, q.text, q.after?.urn ?? '', q.after?.aspect ?? '', q.limit],
  );
  return rows.rows;
}
