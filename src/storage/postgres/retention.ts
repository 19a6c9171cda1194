import type pg from 'pg';
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
import { runNamed } from './named-query.ts';
import { inTransaction } from './transaction.ts';

/** Retention policies and versioned retention on PostgreSQL; each batch of urns is one transaction. */
export class PostgresRetention implements PortImpl<RetentionPort> {
  constructor(private readonly pool: pg.Pool) {}

  async listRetentionPolicies(): Promise<RetentionPolicyRecord[]> {
    return (await runNamed<RetentionPolicyRow>(this.pool, LIST_POLICIES_SQL)).rows.map(toRetentionPolicy);
  }

  async putRetentionPolicy(policy: RetentionPolicyRecord): Promise<void> {
    await runNamed(this.pool, PUT_POLICY_SQL, policyParams(policy));
  }

  async deleteRetentionPolicy(entityType: string, aspect: string): Promise<boolean> {
    return ((await runNamed(this.pool, DELETE_POLICY_SQL, { entity: entityType, aspect })).rowCount ?? 0) > 0;
  }

  async versionHistoryPairs(): Promise<VersionHistoryPair[]> {
    const r = await runNamed<{ entity_type: string; aspect: string; versions: number }>(this.pool, HISTORY_PAIRS_SQL);
    return r.rows.map((row) => ({ entityType: row.entity_type, aspect: row.aspect, versions: row.versions }));
  }

  async previewVersionRetention(entityType: string, aspect: string, rule: VersionRule, now: number): Promise<VersionRetentionPreview> {
    const params = { entity: entityType, aspect, ...ruleParams(rule, now) };
    const going = await runNamed<{ versions: number; bytes: string }>(this.pool, previewGoingSql(rule, 'octet_length(a.metadata::text)'), params);
    const kept = await runNamed<{ oldest: number | null; newest: number | null }>(this.pool, previewKeptSql(rule), params);
    return {
      versions: going.rows[0]!.versions,
      bytes: Number(going.rows[0]!.bytes),
      oldestKeptMillis: kept.rows[0]!.oldest,
      newestKeptMillis: kept.rows[0]!.newest,
    };
  }

  applyVersionRetention(b: VersionRetentionBatch): Promise<{ versionsDeleted: number; lastUrn: string | null }> {
    return inTransaction(this.pool, async (c) => {
      const found = await runNamed<{ urn: string }>(c, historyUrnsSql(b.urn !== undefined), batchParams(b));
      const urns = found.rows.map((r) => r.urn);
      if (urns.length === 0) return { versionsDeleted: 0, lastUrn: null };
      const last = urns[urns.length - 1]!;
      const deleted = await runNamed(c, applyRuleSql(b.rule, b.moreThanVersions !== undefined), applyParams(b, urns[0]!, last));
      return { versionsDeleted: deleted.rowCount ?? 0, lastUrn: last };
    });
  }
}
