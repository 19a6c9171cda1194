import type Database from 'better-sqlite3';
import type { PortImpl } from '../compose-store.ts';
import type { AuditEvent, AuditPort, AuditQuery, StoredAuditEvent } from '../ports/audit.ts';
import { bySqliteNames } from './statements.ts';
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
  oneOf: (column, param) => `${column} IN (SELECT value FROM json_each(:${param}))`,
  isNull: (param) => `:${param} IS NULL`,
});

/** Audit events on SQLite. */
export class SqliteAudit implements PortImpl<AuditPort> {
  constructor(private readonly sql: (text: string) => Database.Statement) {}

  recordAuditEvent(event: AuditEvent): void {
    this.sql(bySqliteNames(INSERT_AUDIT_SQL)).run(auditInsertValues(event));
  }

  searchAuditEvents(query: AuditQuery, countLimit: number): { events: StoredAuditEvent[]; total: number } {
    const values = auditSearchValues(query, countLimit);
    const rows = this.sql(bySqliteNames(SEARCH.page)).all(values) as AuditEventRow[];
    const { n } = this.sql(bySqliteNames(SEARCH.count)).get(values) as { n: number };
    return { events: rows.map(toAuditEvent), total: n };
  }

  pruneAuditEvents(before: number): number {
    return this.sql(bySqliteNames(PRUNE_AUDIT_SQL)).run({ before }).changes;
  }
}
