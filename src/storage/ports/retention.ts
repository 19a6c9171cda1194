/**
 * Retention policies and the versioned-aspect side of retention. A policy names an entity type and an aspect (either
 * may be `*`); for a versioned aspect it keeps at most `maxVersions` versions (the latest, version 0, always among
 * them) and/or the versions younger than `maxAgeSeconds`; for a timeseries aspect it keeps the rows younger than
 * `maxAgeSeconds` (the timeseries side runs as truncation tasks, ports/truncation.ts).
 */
export interface RetentionPolicyRecord {
  readonly entityType: string;
  readonly aspect: string;
  readonly maxVersions: number | null;
  readonly maxAgeSeconds: number | null;
  /** `file` when ALMANAC_RETENTION_FILE set it last; `api` otherwise. */
  readonly source: 'api' | 'file';
  readonly updatedBy: string;
  readonly updatedAt: number;
}

/** What a versioned aspect keeps: at most maxVersions versions (version 0 included), and/or those younger than maxAgeMillis. */
export interface VersionRule {
  readonly maxVersions: number | null;
  readonly maxAgeMillis: number | null;
}

/**
 * Given to the adapter when it opens: the rule for a new version of (entityType, aspect), asked on every write that
 * makes one, so retention applies in the write's own transaction (as DataHub applies it on write).
 */
export interface VersionRetention {
  ruleFor(entityType: string, aspect: string): VersionRule | undefined;
}

/** One (entity type, aspect) pair whose aspects have earlier versions. */
export interface VersionHistoryPair {
  readonly entityType: string;
  readonly aspect: string;
  /** Earlier versions (version > 0) stored. */
  readonly versions: number;
}

/** What a rule would delete now from one pair, and what it keeps. */
export interface VersionRetentionPreview {
  readonly versions: number;
  readonly bytes: number;
  /** Over the earlier versions kept (version 0, always kept, is left out): the oldest and newest write times; null when none. */
  readonly oldestKeptMillis: number | null;
  readonly newestKeptMillis: number | null;
}

export interface VersionRetentionBatch {
  readonly entityType: string;
  readonly aspect: string;
  readonly rule: VersionRule;
  readonly now: number;
  /** Urns after this one, in urn order. */
  readonly afterUrn?: string;
  /** Only this urn. */
  readonly urn?: string;
  /** Urns to pass over first (DataHub's applyRetention `start`). */
  readonly skip?: number;
  /** Urns one call looks at, at most (one transaction). */
  readonly urns: number;
  /** Only (urn, aspect) pairs storing more than this many versions (DataHub's `attemptWithVersion`). */
  readonly moreThanVersions?: number;
}

/** What RetentionPort only reads: a composition root may answer these from another handle (a read replica). */
export interface RetentionReads {
  listRetentionPolicies(): Promise<RetentionPolicyRecord[]>;
  /** Every pair with earlier versions, from an index of earlier versions only (version 0 rows are not read). */
  versionHistoryPairs(): Promise<VersionHistoryPair[]>;
  previewVersionRetention(entityType: string, aspect: string, rule: VersionRule, now: number): Promise<VersionRetentionPreview>;
}

/** What RetentionPort changes: always the primary database. */
export interface RetentionWrites {
  /** Creates or replaces the policy of (entityType, aspect). */
  putRetentionPolicy(policy: RetentionPolicyRecord): Promise<void>;
  /** false when there was none. */
  deleteRetentionPolicy(entityType: string, aspect: string): Promise<boolean>;
  /** Applies the rule to the next `urns` urns of the pair that have earlier versions, in one transaction; `lastUrn` null when none were left. */
  applyVersionRetention(batch: VersionRetentionBatch): Promise<{ readonly versionsDeleted: number; readonly lastUrn: string | null }>;
}

export interface RetentionPort extends RetentionReads, RetentionWrites {}
