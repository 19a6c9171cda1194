import type pg from 'pg';
import type { EntityUrnQuery } from '../store.ts';
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
