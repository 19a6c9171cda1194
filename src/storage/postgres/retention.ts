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
import { positional } from './named-query.ts';
import { inTransaction } from './transaction.ts';

/** Retention policies and versioned retention on PostgreSQL; each batch of urns is one transaction. */
export class PostgresRetention implements PortImpl<RetentionPort> {
  constructor(private readonly pool: pg.Pool) {}

  private query<R extends pg.QueryResultRow>(sql: string, values: Record<string, unknown> = {}, client: pg.Pool | pg.PoolClient = this.pool) {
    const q = positional(sql, values);
    return client.query<R>(q.text, q.values);
  }

  async listRetentionPolicies(): Promise<RetentionPolicyRecord[]> {
    return (await this.query<RetentionPolicyRow>(LIST_POLICIES_SQL)).rows.map(toRetentionPolicy);
  }

  async putRetentionPolicy(policy: RetentionPolicyRecord): Promise<void> {
    await this.query(PUT_POLICY_SQL, policyParams(policy));
  }

  async deleteRetentionPolicy(entityType: string, aspect: string): Promise<boolean> {
    return ((await this.query(DELETE_POLICY_SQL, { entity: entityType, aspect })).rowCount ?? 0) > 0;
  }

  async versionHistoryPairs(): Promise<VersionHistoryPair[]> {
    const r = await this.query<{ entity_type: string; aspect: string; versions: number }>(HISTORY_PAIRS_SQL);
    return r.rows.map((row) => ({ entityType: row.entity_type, aspect: row.aspect, versions: row.versions }));
  }

  async previewVersionRetention(entityType: string, aspect: string, rule: VersionRule, now: number): Promise<VersionRetentionPreview> {
    const params = { entity: entityType, aspect, ...ruleParams(rule, now) };
    const going = await this.query<{ versions: number; bytes: string }>(previewGoingSql(rule, 'octet_length(a.metadata::text)'), params);
    const kept = await this.query<{ oldest: number | null; newest: number | null }>(previewKeptSql(rule), params);
    return {
      versions: going.rows[0]!.versions,
      bytes: Number(going.rows[0]!.bytes),
      oldestKeptMillis: kept.rows[0]!.oldest,
      newestKeptMillis: kept.rows[0]!.newest,
    };
  }

  applyVersionRetention(b: VersionRetentionBatch): Promise<{ versionsDeleted: number; lastUrn: string | null }> {
    return inTransaction(this.pool, async (c) => {
      const found = await this.query<{ urn: string }>(historyUrnsSql(b.urn !== undefined), batchParams(b), c);
      const urns = found.rows.map((r) => r.urn);
      if (urns.length === 0) return { versionsDeleted: 0, lastUrn: null };
      const last = urns[urns.length - 1]!;
      const deleted = await this.query(applyRuleSql(b.rule, b.moreThanVersions !== undefined), applyParams(b, urns[0]!, last), c);
      return { versionsDeleted: deleted.rowCount ?? 0, lastUrn: last };
    });
  }
}
