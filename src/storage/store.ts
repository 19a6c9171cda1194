/**
 * The storage port: types only. The catalog, auth and task code see nothing else
 * of the database; each adapter (sqlite/, postgres/) implements this interface and
 * passes the one conformance suite in test/conformance.
 */

export type Json = Record<string, unknown>;

/** One version of a versioned aspect, as DataHub's aspect table keeps it. */
export interface StoredAspect {
  readonly urn: string;
  readonly entityType: string;
  readonly aspect: string;
  /** 0 is the latest value; 1..n are earlier values, 1 the oldest. */
  readonly version: number;
  readonly value: Json;
  readonly systemMetadata: Json | null;
  readonly createdOn: number;
  readonly createdBy: string;
}

/** Identifies a timeseries index: one per (entityType, aspect). */
export interface TimeseriesIndexRef {
  readonly entityType: string;
  readonly aspect: string;
}

export interface TimeseriesEvent {
  readonly urn: string;
  readonly timestampMillis: number;
  /** Stable id of the event: re-ingesting the same event overwrites it. */
  readonly docId: string;
  readonly event: Json;
  readonly systemMetadata: Json | null;
}

export type WriteOp =
  | {
      readonly kind: 'aspect';
      readonly entityType: string;
      readonly urn: string;
      readonly aspect: string;
      readonly value: Json;
      readonly systemMetadata: Json | null;
      /** Key aspects are written once and never versioned. */
      readonly onlyIfAbsent?: boolean;
    }
  | ({ readonly kind: 'timeseries' } & TimeseriesIndexRef & TimeseriesEvent);

/** A set of writes applied in one transaction: all or nothing. */
export interface WriteBatch {
  readonly ops: readonly WriteOp[];
  readonly actor: string;
  readonly now: number;
}

export interface TimeseriesQuery extends TimeseriesIndexRef {
  readonly urn: string;
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  readonly limit: number;
}

/** One time partition of a timeseries index. */
export interface TimeseriesPartition {
  /** Inclusive start and exclusive end of the partition's time range. */
  readonly startMillis: number;
  readonly endMillis: number;
  readonly rowCount: number;
}

export interface TimeseriesIndexStats extends TimeseriesIndexRef {
  readonly rowCount: number;
  readonly sizeBytes: number;
  readonly oldestTimestampMillis: number | null;
  readonly newestTimestampMillis: number | null;
}

export interface AccessTokenRecord {
  /** Base64(SHA-256(token + salt)): the token itself is never stored. */
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly actorUrn: string;
  readonly ownerUrn: string;
  readonly createdAt: number;
  /** null for NO_EXPIRY. */
  readonly expiresAt: number | null;
}

export interface AccessTokenPage {
  readonly total: number;
  readonly tokens: readonly AccessTokenRecord[];
}

export interface LoginFailures {
  readonly failures: number;
  readonly lastFailureAt: number;
}

export interface Store {
  readonly backend: 'sqlite' | 'postgres';

  /** Applies pending migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;

  /** Returns the stored value, storing `init()` first if there is none (first writer wins). */
  getOrInitSetting(key: string, init: () => string): Promise<string>;

  write(batch: WriteBatch): Promise<void>;
  getAspect(urn: string, aspect: string, version?: number): Promise<StoredAspect | undefined>;
  /** Latest versions of the entity's aspects, all of them when `aspects` is omitted. */
  getLatestAspects(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]>;
  /** Every version of one aspect, newest first (version 0, then n, n-1, ...). */
  getAspectHistory(urn: string, aspect: string, limit: number): Promise<StoredAspect[]>;
  /** Which of these urns have their key aspect stored. */
  existing(urns: readonly string[]): Promise<Set<string>>;
  /** Deletes the entity, all versions of all its aspects, and its timeseries rows. */
  deleteEntity(urn: string): Promise<{ aspectRows: number; timeseriesRows: number }>;

  queryTimeseries(query: TimeseriesQuery): Promise<TimeseriesEvent[]>;
  timeseriesIndexStats(): Promise<TimeseriesIndexStats[]>;
  /** Rows strictly older than `before`, and all rows, without scanning the index row by row. */
  countTimeseriesBefore(index: TimeseriesIndexRef, before: number): Promise<{ matching: number; total: number }>;
  listTimeseriesPartitions(index: TimeseriesIndexRef): Promise<TimeseriesPartition[]>;

  insertAccessToken(token: AccessTokenRecord): Promise<void>;
  getAccessToken(id: string): Promise<AccessTokenRecord | undefined>;
  deleteAccessToken(id: string): Promise<boolean>;
  /** Tokens newest expiry first (no expiry first of all), optionally only one owner's. */
  listAccessTokens(filter: { readonly ownerUrn?: string }, start: number, count: number): Promise<AccessTokenPage>;
  /** Deletes tokens that expired before `now`; returns how many. */
  deleteExpiredAccessTokens(now: number): Promise<number>;

  /** The role urn assigned to an actor, if any. */
  getRole(actorUrn: string): Promise<string | undefined>;
  /** Assigns one role to every actor, or removes their role when `roleUrn` is null; atomic. */
  setRole(actorUrns: readonly string[], roleUrn: string | null, assignedBy: string, now: number): Promise<void>;
  getPasswordHash(userUrn: string): Promise<string | undefined>;
  setPasswordHash(userUrn: string, hash: string, now: number): Promise<void>;
  getLoginFailures(username: string): Promise<LoginFailures | undefined>;
  recordLoginFailure(username: string, now: number): Promise<void>;
  clearLoginFailures(username: string): Promise<void>;
}
