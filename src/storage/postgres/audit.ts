import type pg from 'pg';
import type { PortImpl } from '../compose-store.ts';
import type { AuditEvent, AuditPort, AuditQuery, StoredAuditEvent } from '../ports/audit.ts';
import { runNamed } from './named-query.ts';
import {
  INSERT_AUDIT_SQL,
  PRUNE_AUDIT_SQL,
  auditInsertValues,
  auditSearchSql,
  auditSearchValues,
  toAuditEvent,
  type AuditEventRow,
} from '../audit-sql.ts';

const SEARCH = auditSearchSql({
  oneOf: (column, param) => `${column} IN (SELECT jsonb_array_elements_text(:${param}::jsonb))`,
  isNull: (param, type) => `:${param}::${type} IS NULL`,
});

/** Audit events on PostgreSQL. */
export class PostgresAudit implements PortImpl<AuditPort> {
  constructor(private readonly pool: pg.Pool) {}

  async recordAuditEvent(event: AuditEvent): Promise<void> {
    await runNamed(this.pool, INSERT_AUDIT_SQL, auditInsertValues(event));
  }

  async searchAuditEvents(query: AuditQuery, countLimit: number): Promise<{ events: StoredAuditEvent[]; total: number }> {
    const values = auditSearchValues(query, countLimit);
    const [rows, count] = await Promise.all([
      runNamed<AuditEventRow>(this.pool, SEARCH.page, values),
      runNamed<{ n: string }>(this.pool, SEARCH.count, values),
    ]);
    return { events: rows.rows.map(toAuditEvent), total: Number(count.rows[0]?.n ?? 0) };
  }

  async pruneAuditEvents(before: number): Promise<number> {
    return (await runNamed(this.pool, PRUNE_AUDIT_SQL, { before })).rowCount ?? 0;
  }
}
