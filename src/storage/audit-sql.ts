import type { AuditEvent, AuditQuery, StoredAuditEvent } from './ports/audit.ts';

/** The audit_events row as both adapters read it. */
export interface AuditEventRow {
  id: number | string;
  ts: number | string;
  event_type: string;
  actor_urn: string;
  entity_urn: string | null;
  entity_type: string | null;
  aspect_name: string | null;
  details: string | null;
}

export const toAuditEvent = (r: AuditEventRow): StoredAuditEvent => ({
  id: Number(r.id),
  timestamp: Number(r.ts),
  eventType: r.event_type,
  actorUrn: r.actor_urn,
  ...(r.entity_urn !== null ? { entityUrn: r.entity_urn } : {}),
  ...(r.entity_type !== null ? { entityType: r.entity_type } : {}),
  ...(r.aspect_name !== null ? { aspectName: r.aspect_name } : {}),
  ...(r.details !== null ? { details: JSON.parse(r.details) as Record<string, string> } : {}),
});

export const INSERT_AUDIT_SQL = `
  INSERT INTO audit_events (ts, event_type, actor_urn, entity_urn, entity_type, aspect_name, details)
  VALUES (:ts, :type, :actor, :entity_urn, :entity_type, :aspect, :details)`;

export const auditInsertValues = (e: AuditEvent): Record<string, unknown> => ({
  ts: e.timestamp,
  type: e.eventType,
  actor: e.actorUrn,
  entity_urn: e.entityUrn ?? null,
  entity_type: e.entityType ?? null,
  aspect: e.aspectName ?? null,
  details: e.details && Object.keys(e.details).length > 0 ? JSON.stringify(e.details) : null,
});

export const PRUNE_AUDIT_SQL = 'DELETE FROM audit_events WHERE ts < :before';

/**
 * How an engine writes "column is one of the JSON array parameter's strings" and "the parameter is null"; the rest of
 * the search is the same SQL on both, with constant text (each filter is one JSON array parameter).
 */
export interface AuditDialect {
  readonly oneOf: (column: string, param: string) => string;
  readonly isNull: (param: string, type: 'text' | 'bigint') => string;
}

function where(d: AuditDialect): string {
  const filter = (column: string, param: string) => `(${d.isNull(param, 'text')} OR ${d.oneOf(column, param)})`;
  return `ts >= :start AND ts < :end AND ${filter('event_type', 'types')} AND ${filter('entity_type', 'entities')}
    AND ${filter('aspect_name', 'aspects')} AND ${filter('actor_urn', 'actors')}`;
}

/** The page (newest first, after the cursor) and the capped count. Parameters by name, see `auditSearchValues`. */
export const auditSearchSql = (d: AuditDialect) => ({
  page: `SELECT id, ts, event_type, actor_urn, entity_urn, entity_type, aspect_name, details FROM audit_events
    WHERE ${where(d)} AND (${d.isNull('after_ts', 'bigint')} OR ts < :after_ts OR (ts = :after_ts AND id < :after_id))
    ORDER BY ts DESC, id DESC LIMIT :limit`,
  count: `SELECT COUNT(*) AS n FROM (SELECT 1 FROM audit_events WHERE ${where(d)} LIMIT :count_limit) matched`,
});

const list = (values: readonly string[]) => (values.length === 0 ? null : JSON.stringify(values));

export const auditSearchValues = (q: AuditQuery, countLimit: number): Record<string, unknown> => ({
  start: q.startTime,
  end: q.endTime,
  types: list(q.eventTypes),
  entities: list(q.entityTypes),
  aspects: list(q.aspectTypes),
  actors: list(q.actorUrns),
  after_ts: q.after?.timestamp ?? null,
  after_id: q.after?.id ?? null,
  limit: q.limit,
  count_limit: countLimit,
});
