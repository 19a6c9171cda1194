import type Database from 'better-sqlite3';
import type { PortImpl } from '../compose-store.ts';
import type {
  RetentionPolicyRecord,
  RetentionPort,
  VersionHistoryPair,
  VersionRetentionBatch,
  VersionRetentionPreview,
  VersionRule,
} from '../ports/retention.ts';
import {
  applyParams,
  applyRuleSql,
  batchParams,
  DELETE_POLICY_SQL,
  HISTORY_PAIRS_SQL,
  historyUrnsSql,
  LIST_POLICIES_SQL,
  policyParams,
  previewGoingSql,
  previewKeptSql,
  PUT_POLICY_SQL,
  ruleParams,
  toRetentionPolicy,
  type RetentionPolicyRow,
} from '../retention-sql.ts';
import { bySqliteNames } from './statements.ts';

/** Retention policies and versioned retention on SQLite; each batch of urns is one write transaction. */
export class SqliteRetention implements PortImpl<RetentionPort> {
  private readonly applyTx: Database.Transaction<(batch: VersionRetentionBatch) => { versionsDeleted: number; lastUrn: string | null }>;

  constructor(
    db: Database.Database,
    private readonly sql: (text: string) => Database.Statement,
  ) {
    this.applyTx = db.transaction((batch) => this.applyBatch(batch));
  }

  private named(text: string): Database.Statement {
    return this.sql(bySqliteNames(text));
  }

  listRetentionPolicies(): RetentionPolicyRecord[] {
    return (this.named(LIST_POLICIES_SQL).all() as RetentionPolicyRow[]).map(toRetentionPolicy);
  }

  putRetentionPolicy(policy: RetentionPolicyRecord): void {
    this.named(PUT_POLICY_SQL).run(policyParams(policy));
  }

  deleteRetentionPolicy(entityType: string, aspect: string): boolean {
    return this.named(DELETE_POLICY_SQL).run({ entity: entityType, aspect }).changes > 0;
  }

  versionHistoryPairs(): VersionHistoryPair[] {
    return (this.named(HISTORY_PAIRS_SQL).all() as Array<{ entity_type: string; aspect: string; versions: number }>).map((r) => ({
      entityType: r.entity_type,
      aspect: r.aspect,
      versions: r.versions,
    }));
  }

  previewVersionRetention(entityType: string, aspect: string, rule: VersionRule, now: number): VersionRetentionPreview {
    const params = { entity: entityType, aspect, ...ruleParams(rule, now) };
    const going = this.named(previewGoingSql(rule, 'length(CAST(a.metadata AS BLOB))')).get(params) as { versions: number; bytes: number };
    const kept = this.named(previewKeptSql(rule)).get(params) as { oldest: number | null; newest: number | null };
    return { versions: going.versions, bytes: going.bytes, oldestKeptMillis: kept.oldest, newestKeptMillis: kept.newest };
  }

  applyVersionRetention(batch: VersionRetentionBatch): { versionsDeleted: number; lastUrn: string | null } {
    return this.applyTx.immediate(batch);
  }

  private applyBatch(b: VersionRetentionBatch): { versionsDeleted: number; lastUrn: string | null } {
    const urns = (this.named(historyUrnsSql(b.urn !== undefined)).all(batchParams(b)) as Array<{ urn: string }>).map((r) => r.urn);
    if (urns.length === 0) return { versionsDeleted: 0, lastUrn: null };
    const last = urns[urns.length - 1]!;
    const deleted = this.named(applyRuleSql(b.rule, b.moreThanVersions !== undefined)).run(applyParams(b, urns[0]!, last)).changes;
    return { versionsDeleted: deleted, lastUrn: last };
  }
}
