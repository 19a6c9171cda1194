import type { RetentionPolicyRecord, VersionRetentionBatch, VersionRule } from './store.ts';

/** The retention_policies row as both adapters read it. */
export interface RetentionPolicyRow {
  entity_type: string;
  aspect: string;
  max_versions: number | null;
  max_age_seconds: number | null;
  source: string;
  updated_by: string;
  updated_at: number;
}

export const toRetentionPolicy = (r: RetentionPolicyRow): RetentionPolicyRecord => ({
  entityType: r.entity_type,
  aspect: r.aspect,
  maxVersions: r.max_versions,
  maxAgeSeconds: r.max_age_seconds,
  source: r.source === 'file' ? 'file' : 'api',
  updatedBy: r.updated_by,
  updatedAt: r.updated_at,
});

export const policyParams = (p: RetentionPolicyRecord) => ({
  entity: p.entityType,
  aspect: p.aspect,
  maxv: p.maxVersions,
  maxage: p.maxAgeSeconds,
  source: p.source,
  by: p.updatedBy,
  at: p.updatedAt,
});

/** Statements both engines run as written; parameters by name (`:name`). */
export const LIST_POLICIES_SQL = `
  SELECT entity_type, aspect, max_versions, max_age_seconds, source, updated_by, updated_at
    FROM retention_policies ORDER BY entity_type, aspect`;

export const PUT_POLICY_SQL = `
  INSERT INTO retention_policies (entity_type, aspect, max_versions, max_age_seconds, source, updated_by, updated_at)
  VALUES (:entity, :aspect, :maxv, :maxage, :source, :by, :at)
  ON CONFLICT (entity_type, aspect) DO UPDATE SET max_versions = excluded.max_versions, max_age_seconds = excluded.max_age_seconds,
    source = excluded.source, updated_by = excluded.updated_by, updated_at = excluded.updated_at`;

export const DELETE_POLICY_SQL = `DELETE FROM retention_policies WHERE entity_type = :entity AND aspect = :aspect`;

/** Read from the index of earlier versions alone (aspects_history). */
export const HISTORY_PAIRS_SQL = `
  SELECT entity_type, aspect, count(*) AS versions FROM aspects WHERE version > 0
   GROUP BY entity_type, aspect ORDER BY entity_type, aspect`;

/** The next urns of a pair that have earlier versions, in urn order (`:after`, or only `:only`), skipping `:skip`. */
export const historyUrnsSql = (only: boolean) => `
  SELECT DISTINCT urn FROM aspects
   WHERE entity_type = :entity AND aspect = :aspect AND version > 0 AND ${only ? 'urn = :only' : 'urn > :after'}
   ORDER BY urn LIMIT :n OFFSET :skip`;

/**
 * Which earlier versions (`a`, a row of aspects) the rule deletes: beyond the newest `maxVersions - 1` earlier ones
 * (version 0 being the one more it keeps), or written before the cutoff. Parameters :keep and :cutoff.
 */
export function versionRulePredicate(rule: VersionRule, moreThanVersions = false): string {
  const goes: string[] = [];
  if (rule.maxVersions !== null) goes.push('a.version <= (SELECT max(m.version) FROM aspects m WHERE m.urn = a.urn AND m.aspect = a.aspect) - :keep');
  if (rule.maxAgeMillis !== null) goes.push('a.created_on < :cutoff');
  const many = moreThanVersions ? ' AND (SELECT count(*) FROM aspects c WHERE c.urn = a.urn AND c.aspect = a.aspect) > :more' : '';
  return `a.version > 0 AND (${goes.join(' OR ') || 'false'})${many}`;
}

export const ruleParams = (rule: VersionRule, now: number) => ({
  ...(rule.maxVersions !== null ? { keep: rule.maxVersions - 1 } : {}),
  ...(rule.maxAgeMillis !== null ? { cutoff: now - rule.maxAgeMillis } : {}),
});

/** What the rule would delete from one pair: versions and their bytes (`bytes` is the engine's size of a metadata value). */
export const previewGoingSql = (rule: VersionRule, bytes: string) => `
  SELECT count(*) AS versions, coalesce(sum(${bytes}), 0) AS bytes FROM aspects a
   WHERE a.entity_type = :entity AND a.aspect = :aspect AND ${versionRulePredicate(rule)}`;

/** The oldest and newest earlier versions the rule keeps. */
export const previewKeptSql = (rule: VersionRule) => `
  SELECT min(a.created_on) AS oldest, max(a.created_on) AS newest FROM aspects a
   WHERE a.entity_type = :entity AND a.aspect = :aspect AND a.version > 0 AND NOT (${versionRulePredicate(rule)})`;

/** Applies the rule to the pair's urns from :first to :last (with `moreThanVersions`, only where more than :more versions are stored). */
export const applyRuleSql = (rule: VersionRule, moreThanVersions: boolean) => `
  DELETE FROM aspects AS a
   WHERE a.entity_type = :entity AND a.aspect = :aspect AND a.urn >= :first AND a.urn <= :last AND ${versionRulePredicate(rule, moreThanVersions)}`;

/** The parameters of one batch of the versioned pass. */
export const batchParams = (b: VersionRetentionBatch) => ({
  entity: b.entityType,
  aspect: b.aspect,
  after: b.afterUrn ?? '',
  only: b.urn ?? null,
  n: b.urns,
  skip: b.skip ?? 0,
});

export const applyParams = (b: VersionRetentionBatch, first: string, last: string) => ({
  entity: b.entityType,
  aspect: b.aspect,
  first,
  last,
  ...ruleParams(b.rule, b.now),
  ...(b.moreThanVersions !== undefined ? { more: b.moreThanVersions } : {}),
});

/**
 * Applied on write, right after a new earlier version `:newest` was made: the versions up to `:upTo` go, and those
 * written before `:cutoff` (either bound is out of reach when the rule has no such part).
 */
export const ON_WRITE_SQL = `
  DELETE FROM aspects WHERE urn = :urn AND aspect = :aspect AND version > 0 AND (version <= :upTo OR created_on < :cutoff)`;

export function onWriteParams(urn: string, aspect: string, newest: number, rule: VersionRule, now: number) {
  return {
    urn,
    aspect,
    upTo: rule.maxVersions === null ? 0 : newest - rule.maxVersions + 1,
    cutoff: rule.maxAgeMillis === null ? -1 : now - rule.maxAgeMillis,
  };
}
