import type { AspectMentionQuery, EntityUrnQuery } from '../store.ts';
import type { StatementCache } from './statements.ts';

/** The predicate of the aspects_soft_deleted partial index, written the same way so the planner uses it. */
const SOFT_DELETED = `aspect = 'status' AND version = 0 AND json_extract(metadata, '$.removed') = 1`;

const SQL = {
  // The entities_by_type index, (entity_type, urn).
  all: `SELECT urn FROM entities WHERE entity_type = @type AND urn > @after ORDER BY urn LIMIT @limit`,
  // The aspects_soft_deleted partial index: reads only soft-deleted entities.
  removed: `SELECT urn FROM aspects WHERE entity_type = @type AND urn > @after AND ${SOFT_DELETED} ORDER BY urn LIMIT @limit`,
  // entities_by_type, and one primary-key probe of the status aspect per entity.
  kept: `SELECT e.urn FROM entities e WHERE e.entity_type = @type AND e.urn > @after
           AND NOT EXISTS (SELECT 1 FROM aspects s WHERE s.urn = e.urn AND s.aspect = 'status' AND s.version = 0 AND json_extract(s.metadata, '$.removed') = 1)
         ORDER BY e.urn LIMIT @limit`,
};

export function listEntityUrns(statements: StatementCache, q: EntityUrnQuery): string[] {
  const sql = q.removed === undefined ? SQL.all : q.removed ? SQL.removed : SQL.kept;
  const rows = statements.get(sql).all({ type: q.entityType, after: q.afterUrn ?? '', limit: q.limit }) as Array<{ urn: string }>;
  return rows.map((r) => r.urn);
}

/** Latest versions of the named aspects whose JSON text contains the text, after (urn, aspect). Rows as stored. */
export function findAspectsMentioning(statements: StatementCache, q: AspectMentionQuery): unknown[] {
  return statements
    .get(
      `SELECT * FROM aspects
        WHERE version = 0 AND aspect IN (SELECT value FROM json_each(@aspects)) AND instr(metadata, @text) > 0
          AND (urn > @urn OR (urn = @urn AND aspect > @aspect))
        ORDER BY urn, aspect LIMIT @limit`,
    )
    .all({ aspects: JSON.stringify(q.aspects), text: q.text, urn: q.after?.urn ?? '', aspect: q.after?.aspect ?? '', limit: q.limit });
}
