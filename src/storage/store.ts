import type { UserAccessStore } from './ports/user-access.ts';

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

/**
 * One relationship an aspect declares: DataHub's graph edge from `source` to
 * `destination`, named by the `@Relationship` annotation of the aspect's field.
 */
export interface RelationshipEdge {
  readonly source: string;
  readonly sourceType: string;
  readonly relationshipType: string;
  readonly destination: string;
  readonly destinationType: string;
  /** The entity the relationship holds through (DataHub's `via`), e.g. the query behind a lineage edge. */
  readonly via: string | null;
}

/** What the store keeps beside one aspect value, written in the same transaction as the value. */
export interface AspectIndexEntries {
  readonly relationships: readonly RelationshipEdge[];
  /** The value soft-deletes its entity (DataHub's status.removed): reads hide the relationships that touch it. */
  readonly softDeleted: boolean;
}

/**
 * Derives index entries from aspect values. The store is opened with the
 * catalog's, and applies it to the value it actually writes (after a PATCH's
 * `update`), so no writer can leave the index behind the aspects.
 */
export interface AspectIndexer {
  /** Aspects whose values index anything; the store writes every other aspect without calling `index`. */
  readonly aspects: ReadonlySet<string>;
  index(entityType: string, urn: string, aspect: string, value: Json): AspectIndexEntries;
}

/** A relationship as stored: the edge, and which aspect of which entity declares it (DataHub's lifecycle owner). */
export interface StoredRelationship extends RelationshipEdge {
  readonly owner: string;
  readonly aspect: string;
}

/** OUTGOING follows edges from an entity to their destinations; INCOMING follows edges into it back to their sources. */
export type RelationshipDirection = 'OUTGOING' | 'INCOMING';

/** One hop from one entity, a page at a time (DataHub's findRelatedEntities). Soft-deleted entities are hidden. */
export interface RelatedEntitiesQuery {
  readonly urn: string;
  readonly direction: RelationshipDirection;
  /** Relationship types to follow; empty follows every type. */
  readonly types: readonly string[];
  readonly start: number;
  readonly count: number;
}

export interface RelatedEntitiesPage {
  readonly total: number;
  /** Ordered by the related entity's urn, then relationship type. */
  readonly relationships: readonly StoredRelationship[];
}

/** One hop of a graph walk from several entities at once, both ways, read in one statement. Soft-deleted entities are hidden. */
export interface RelationshipHopQuery {
  readonly urns: readonly string[];
  /** Types of the edges to follow out of `urns`, and into them; an empty list follows none. */
  readonly outgoing: readonly string[];
  readonly incoming: readonly string[];
}

/** The fields a relationship scan filters on. */
export type RelationshipField = 'source' | 'sourceType' | 'destination' | 'destinationType' | 'relationshipType' | 'via' | 'owner';

/** One alternative of a clause: each named field must hold one of its values. */
export type RelationshipMatch = Readonly<Partial<Record<RelationshipField, readonly string[]>>>;

/** The scan order, and the key a page ends on: source, destination, type, owner, aspect. */
export type RelationshipKey = readonly [source: string, destination: string, relationshipType: string, owner: string, aspect: string];

/**
 * Every relationship that satisfies all clauses (a clause holds when any of its
 * alternatives does), in key order, after `after`: DataHub's relationship scroll.
 */
export interface RelationshipScanQuery {
  readonly where: ReadonlyArray<ReadonlyArray<RelationshipMatch>>;
  readonly includeSoftDeleted: boolean;
  readonly after?: RelationshipKey;
  readonly limit: number;
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
      /**
       * Computes the value from the current one (undefined when there is none)
       * inside the write transaction, with the row locked: a read-modify-write
       * (PATCH) that loses no concurrent update. `value` is ignored when given.
       * It must be synchronous and may throw to abort the whole batch.
       */
      readonly update?: (current: Json | undefined) => Json;
    }
  | ({ readonly kind: 'timeseries' } & TimeseriesIndexRef & TimeseriesEvent);

/** What one aspect write did: created the aspect, wrote a new version of it, or found the same value (a sighting). */
export type AspectWriteOutcome =
  | { readonly urn: string; readonly aspect: string; readonly outcome: 'created' | 'unchanged'; readonly value: Json }
  | {
      readonly urn: string;
      readonly aspect: string;
      readonly outcome: 'updated';
      readonly value: Json;
      /** The value replaced, now kept as `previousVersion`. */
      readonly previous: Json;
      readonly previousVersion: number;
    };

/** A set of writes applied in one transaction: all or nothing. */
export interface WriteBatch {
  readonly ops: readonly WriteOp[];
  readonly actor: string;
  readonly now: number;
}

/** Which timeseries rows of one urn a delete removes: those of every index, or of one, inside an inclusive time window. */
export interface TimeseriesRowScope {
  readonly index?: TimeseriesIndexRef;
  /** Inclusive bounds on timestampMillis (DataHub's gte / lte); either may be omitted. */
  readonly startMillis?: number;
  readonly endMillis?: number;
}

export interface TimeseriesQuery extends TimeseriesIndexRef {
  readonly urn: string;
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  readonly limit: number;
  /** Only events it accepts count toward the limit (criteria on the event's fields). */
  readonly match?: (event: TimeseriesEvent) => boolean;
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

/** Which tokens a listing returns; every field given must hold. A token without expiry matches no expiresAt bound. */
export interface AccessTokenFilter {
  readonly ownerUrn?: string;
  readonly actorUrn?: string;
  /** expiresAt >= this */
  readonly expiresAtFrom?: number;
  /** expiresAt < this */
  readonly expiresAtBefore?: number;
}

export interface AccessTokenPage {
  readonly total: number;
  readonly tokens: readonly AccessTokenRecord[];
}

export interface LoginFailures {
  readonly failures: number;
  readonly lastFailureAt: number;
}

/**
 * What one truncation step changed. Row counts are exact; bytes are the engine's
 * own accounting of the pages or files the index stopped using. Retired
 * partitions free their bytes only when reclaim drops them, and a boundary day
 * rewritten into a new table counts that table's bytes against the step.
 */
export interface TruncationStep {
  readonly rows: number;
  readonly partitionsDropped: number;
  readonly freedBytes: number;
}

/** What one reclaim call gave back: bytes of retired partitions dropped, and bytes handed to the file system. */
export interface ReclaimStep {
  readonly freedBytes: number;
  readonly reclaimedBytes: number;
  /** Nothing is left to drop or give back. */
  readonly done: boolean;
}

export type TaskState = 'running' | 'completed' | 'failed' | 'timed_out' | 'cancelled';

/** `rebuild` retires whole partitions and trims or rewrites the boundary one; `delete_by_query` deletes rows in batches. */
export type TruncationStrategy = 'rebuild' | 'delete_by_query';

/** A task is addressed as `<nodeId>:<number>`; the number is unique across nodes. */
export interface TaskRef {
  readonly nodeId: string;
  readonly number: number;
}

/** The parts of a task record that change while it runs. */
export interface TaskProgress {
  readonly rowsDeleted: number;
  readonly batches: number;
  readonly partitionsDropped: number;
  readonly throttledMillis: number;
  /** Bytes the index stopped using (engine accounting): trims count at once, retired partitions once reclaim drops them. */
  readonly freedBytes: number;
  /** Index size before and after, and bytes handed back to the file system; null until measured. */
  readonly sizeBytesBefore: number | null;
  readonly sizeBytesAfter: number | null;
  readonly reclaimedBytes: number | null;
}

export interface NewTruncationTask extends TimeseriesIndexRef {
  /** The process that runs it; the task number is assigned by the database. */
  readonly nodeId: string;
  readonly createdBy: string;
  readonly ownerPid: number;
  readonly ownerHost: string;
  readonly cutoffMillis: number;
  readonly strategy: TruncationStrategy;
  readonly batchSize: number;
  readonly timeoutSeconds: number | null;
  readonly requestsPerSecond: number | null;
  readonly totalRows: number;
  readonly rowsToDelete: number;
  readonly startedAt: number;
}

/** A truncation task as recorded durably: who, what, how far, and how it ended. */
export interface TaskRecord extends NewTruncationTask, TaskRef, TaskProgress {
  readonly kind: 'truncateTimeseriesAspect';
  readonly state: TaskState;
  readonly endedAt: number | null;
  readonly heartbeatAt: number;
  readonly error: string | null;
  readonly cancelRequested: boolean;
}

/** Fields a task update may set; the rest stay as they are. */
export type TaskPatch = Partial<TaskProgress> & {
  readonly state?: TaskState;
  readonly endedAt?: number | null;
  readonly heartbeatAt?: number;
  readonly error?: string | null;
};

/** A page of datasets matching a name search and facet filters, with facet counts. */
export interface DatasetSearchQuery {
  /** Case-insensitive substring of the urn (platform and name); undefined matches all. */
  readonly text?: string;
  readonly platform?: string;
  readonly deprecated?: boolean;
  readonly start: number;
  readonly count: number;
}

export interface DatasetSearchPage {
  readonly total: number;
  readonly urns: readonly string[];
  /** Counts over the text match alone, so a filter's other choices stay visible. */
  readonly platformCounts: ReadonlyArray<{ readonly value: string; readonly count: number }>;
  readonly deprecatedCounts: ReadonlyArray<{ readonly value: 'true' | 'false'; readonly count: number }>;
}

/** One page of one entity type's urns, in urn order after `afterUrn` (keyset paging). */
export interface EntityUrnQuery {
  /** The registry name, as stored (dataset, corpuser, dataProcessInstance, ...). */
  readonly entityType: string;
  readonly afterUrn?: string;
  readonly limit: number;
  /**
   * true: only entities whose latest status aspect says removed (soft-deleted); false: all others (no status
   * aspect, or removed false); undefined: every entity.
   */
  readonly removed?: boolean;
}

/** Latest aspect values whose stored JSON contains a text, a page at a time in (urn, aspect) order. */
export interface AspectMentionQuery {
  /** Aspect names to look in. */
  readonly aspects: readonly string[];
  /** Matched against the stored JSON text: pass a string as it appears inside a JSON string (escaped). */
  readonly text: string;
  readonly after?: { readonly urn: string; readonly aspect: string };
  readonly limit: number;
}

/**
 * Ingestion runs. Every aspect version records the run that wrote its value (the `runId` of the proposal's
 * systemMetadata); re-sending an unchanged value updates the latest version's systemMetadata but not that run.
 * A run's aspects are the latest versions whose value it wrote.
 */
export interface RunSummary {
  readonly runId: string;
  /** Latest aspect versions whose value the run wrote. */
  readonly rows: number;
  /** When the newest of them was stored. */
  readonly lastWrittenOn: number;
}

export interface RunListQuery {
  readonly offset: number;
  readonly limit: number;
  /** With false, runs whose every aspect belongs to a soft-deleted entity are left out. */
  readonly includeSoftDeleted: boolean;
}

/** One latest aspect version a run wrote. */
export interface RunAspect {
  readonly urn: string;
  readonly entityType: string;
  readonly aspect: string;
  readonly createdOn: number;
}

export interface RunAspectQuery {
  readonly runId: string;
  /**
   * With false, aspects of soft-deleted entities (whose latest `status` says removed, as DataHub marks them) are
   * left out.
   */
  readonly includeSoftDeleted: boolean;
  /** Rows are ordered by urn, then aspect; either skip `offset` of them or start after a (urn, aspect). */
  readonly offset?: number;
  readonly after?: { readonly urn: string; readonly aspect: string };
  readonly limit: number;
}

/** The run that wrote the latest version of each aspect of some entities. */
export interface AspectRun {
  readonly urn: string;
  readonly aspect: string;
  readonly runId: string | null;
}

/** Rolls back what one run wrote to one entity, in one transaction. */
export interface EntityRollbackRequest {
  readonly urn: string;
  readonly runId: string;
  /** The entity's key aspect: when its latest version is the run's, the run created the entity. */
  readonly keyAspect: string;
  /**
   * What happens to an entity the run created: deleted whole (every version of every aspect, whoever wrote it, its
   * timeseries rows and, for a user or group, its identity), or kept with `write` applied (a soft delete; nothing
   * when undefined). The run's other aspects are rolled back either way.
   */
  readonly created: { readonly kind: 'delete'; readonly revokeIdentity: boolean } | { readonly kind: 'keep'; readonly write?: Extract<WriteOp, { kind: 'aspect' }> };
  readonly actor: string;
  readonly now: number;
}

export interface EntityRollbackResult {
  /**
   * The run's latest versions found at the time of the transaction: each `restored` to the newest earlier version
   * another run (or no run) wrote, which becomes version 0 again, or `removed` when there was none (the run's
   * versions in between are deleted). The key aspect of a kept entity is `kept`.
   */
  readonly aspects: ReadonlyArray<{ readonly aspect: string; readonly outcome: 'restored' | 'removed' | 'kept' }>;
  /** Set when the entity was deleted: the rows that went with it. */
  readonly entityDeleted?: { readonly aspectRows: number; readonly timeseriesRows: number };
}

export interface Store extends UserAccessStore {
  readonly backend: 'sqlite' | 'postgres';

  /** Applies pending migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;

  /** Returns the stored value, storing `init()` first if there is none (first writer wins). */
  getOrInitSetting(key: string, init: () => string): Promise<string>;

  /** Applies the batch in one transaction; one outcome per aspect op, in order (timeseries ops report none). */
  write(batch: WriteBatch): Promise<AspectWriteOutcome[]>;
  getAspect(urn: string, aspect: string, version?: number): Promise<StoredAspect | undefined>;
  /** Latest versions of the entity's aspects, all of them when `aspects` is omitted. */
  getLatestAspects(urn: string, aspects?: readonly string[]): Promise<StoredAspect[]>;
  /** Every version of one aspect, newest first (version 0, then n, n-1, ...). */
  getAspectHistory(urn: string, aspect: string, limit: number): Promise<StoredAspect[]>;
  /** Which of these urns have their key aspect stored. */
  existing(urns: readonly string[]): Promise<Set<string>>;
  /**
   * Latest versions of the named aspects of many entities in one round trip.
   * Every urn that exists has an entry (possibly empty); urns that do not exist have none.
   */
  getEntities(urns: readonly string[], aspects: readonly string[]): Promise<Map<string, StoredAspect[]>>;
  searchDatasets(query: DatasetSearchQuery): Promise<DatasetSearchPage>;
  /**
   * Urns of one entity type, in urn order, from an index: the type's range of the entities index, or for
   * soft-deleted ones a partial index over removed status aspects, so finding them never reads the others.
   */
  listEntityUrns(query: EntityUrnQuery): Promise<string[]>;
  /**
   * The latest versions of the named aspects whose JSON contains the text: the candidates for references to an
   * entity (deleteReferences). No index serves it: the pages together read the aspects table once.
   */
  findAspectsMentioning(query: AspectMentionQuery): Promise<StoredAspect[]>;

  // Relationships: written and removed with the aspects that declare them (see AspectIndexer). A relationship is
  // hidden while its source, destination, via entity or owner is soft-deleted, unless a scan asks for them.
  relatedEntities(query: RelatedEntitiesQuery): Promise<RelatedEntitiesPage>;
  relationshipHop(query: RelationshipHopQuery): Promise<RelationshipEdge[]>;
  scanRelationships(query: RelationshipScanQuery): Promise<StoredRelationship[]>;
  /**
   * Deletes the entity, all versions of all its aspects, its timeseries rows and every relationship that touches
   * it; with `revokeIdentity` (a user or group), in the same transaction its access tokens, role and password too.
   */
  deleteEntity(urn: string, options?: { readonly revokeIdentity?: boolean }): Promise<{ aspectRows: number; timeseriesRows: number }>;
  /** Deletes every version of one aspect of the entity (never its key aspect) and what it indexed; returns the rows removed. */
  deleteAspect(urn: string, aspect: string): Promise<number>;
  /** Deletes the urn's timeseries rows in the scope, in one transaction; returns the rows removed. */
  deleteTimeseriesRows(urn: string, scope: TimeseriesRowScope): Promise<number>;

  /** Runs by the time they last wrote, newest first. */
  listRuns(query: RunListQuery): Promise<RunSummary[]>;
  findRunAspects(query: RunAspectQuery): Promise<RunAspect[]>;
  /** Who wrote the latest version of every aspect of these entities. */
  aspectRuns(urns: readonly string[]): Promise<AspectRun[]>;
  /** Rolls back the run's latest versions of one entity's aspects, re-read and locked inside the transaction. */
  rollbackEntity(request: EntityRollbackRequest): Promise<EntityRollbackResult>;
  /**
   * Deletes every timeseries row whose systemMetadata carries the run id, one day partition per transaction;
   * returns the rows removed. It reads every partition: timeseries rows have no run index.
   */
  deleteRunTimeseriesRows(runId: string): Promise<number>;

  queryTimeseries(query: TimeseriesQuery): Promise<TimeseriesEvent[]>;
  timeseriesIndexStats(): Promise<TimeseriesIndexStats[]>;
  /** Rows strictly older than `before`, and all rows, without scanning the index row by row. */
  countTimeseriesBefore(index: TimeseriesIndexRef, before: number): Promise<{ matching: number; total: number }>;
  listTimeseriesPartitions(index: TimeseriesIndexRef): Promise<TimeseriesPartition[]>;

  // Truncation primitives. Each call is one short transaction that keeps the
  // partition row counts exact, so a task can stop between any two calls. Given
  // a task, the same transaction adds the step to the task's counters (rows
  // deleted, batches, partitions dropped, bytes freed): a crash can never leave
  // the counters behind the data.
  /**
   * Retires whole partitions that end at or before `before`, oldest first, up to
   * `maxPartitions`: they leave the index at once (no read sees them again) and
   * their tables are dropped later by reclaimTimeseriesSpace. 0 partitions means none are left.
   */
  retireTimeseriesPartitionsBefore(index: TimeseriesIndexRef, before: number, budget: { readonly maxPartitions: number }, task?: TaskRef): Promise<TruncationStep>;
  /** Removes the rows older than `before` from the one partition that straddles it, rewriting it when most of it goes. */
  trimTimeseriesBoundary(index: TimeseriesIndexRef, before: number, task?: TaskRef): Promise<TruncationStep>;
  /** Deletes up to `limit` of the oldest rows older than `before` (delete by query). */
  deleteTimeseriesRowsBefore(index: TimeseriesIndexRef, before: number, limit: number, task?: TaskRef): Promise<TruncationStep>;
  /**
   * For about `maxMillis`: drops the partitions `task` retired (their bytes are
   * `freedBytes`), then those abandoned by tasks that stopped early, then hands
   * space freed by deletions back to the file system; `done` once nothing is left to do.
   */
  reclaimTimeseriesSpace(index: TimeseriesIndexRef, before: number, maxMillis: number, task?: TaskRef): Promise<ReclaimStep>;
  /** Bytes the index occupies, as the engine counts them. */
  timeseriesIndexSizeBytes(index: TimeseriesIndexRef): Promise<number>;

  // Background task records, shared by every process using the database.
  /** Records a running truncation, unless one already runs on the index: then that one is returned instead. */
  createTruncationTask(task: NewTruncationTask): Promise<{ created: TaskRecord } | { running: TaskRecord }>;
  /** Applies the patch; with `whileRunning`, only if the task is still running. Returns the record, or undefined when nothing matched. */
  updateTask(ref: TaskRef, patch: TaskPatch, options?: { readonly whileRunning?: boolean }): Promise<TaskRecord | undefined>;
  getTask(ref: TaskRef): Promise<TaskRecord | undefined>;
  /** Newest first. */
  listTasks(filter: { readonly state?: TaskState; readonly limit: number }): Promise<TaskRecord[]>;
  /** Flags a running task for cancellation; its owner stops it at the next step. */
  requestTaskCancel(ref: TaskRef): Promise<TaskRecord | undefined>;
  /** Refreshes the heartbeat of every running task of the node. */
  heartbeatTasks(nodeId: string, now: number): Promise<void>;
  /** Makes this process's liveness visible to other processes until close(), where the backend can. */
  registerTaskNode(nodeId: string): Promise<void>;
  /** Whether the process that registered `nodeId` is alive; undefined when the backend cannot tell. */
  isTaskNodeAlive(nodeId: string): Promise<boolean | undefined>;

  insertAccessToken(token: AccessTokenRecord): Promise<void>;
  getAccessToken(id: string): Promise<AccessTokenRecord | undefined>;
  /** The per-request token check in one read: the stored token, whether its actor exists and is suspended (corpUserStatus). */
  findTokenWithActor(id: string): Promise<{ readonly token: AccessTokenRecord; readonly actorExists: boolean; readonly actorSuspended: boolean } | undefined>;
  deleteAccessToken(id: string): Promise<boolean>;
  /** Tokens newest expiry first (no expiry first of all) that match the filter. */
  listAccessTokens(filter: AccessTokenFilter, start: number, count: number): Promise<AccessTokenPage>;
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
