/**
 * The storage port: types only. The catalog, auth and task code see nothing else of the database. Each capability
 * has a port of its own in ports/ (aspects, relationships, timeseries, truncation, tasks, identity, runs, retention, change events); `Store`
 * holds one part per port, and each adapter (sqlite/, postgres/) builds them and passes the one conformance suite in
 * test/conformance.
 */
import type { ReadRouter } from './read-routing.ts';
import type { AspectPort, AspectReads, AspectWrites } from './ports/aspects.ts';
import type { AuditPort, AuditReads, AuditWrites } from './ports/audit.ts';
import type { ChangeEventPort, ChangeEventRules, ChangeEventReads, ChangeEventWrites } from './ports/change-events.ts';
import type { DatabasePort, DatabaseReads, DatabaseWrites } from './ports/database.ts';
import type { IdentityPort, IdentityReads, IdentityWrites } from './ports/identity.ts';
import type { RelationshipPort, RelationshipReads, RelationshipWrites } from './ports/relationships.ts';
import type { RetentionPort, RetentionReads, RetentionWrites, VersionRetention } from './ports/retention.ts';
import type { AspectIndexer } from './ports/relationships.ts';
import type { RunPort, RunReads, RunWrites } from './ports/runs.ts';
import type { SchedulePort, ScheduleReads, ScheduleWrites } from './ports/schedules.ts';
import type { TaskPort, TaskReads, TaskWrites } from './ports/tasks.ts';
import type { TimeseriesPort, TimeseriesReads, TimeseriesWrites } from './ports/timeseries.ts';
import type { TruncationPort, TruncationReads, TruncationWrites } from './ports/truncation.ts';
import type { SearchDocuments, SearchPort, SearchReads, SearchWrites } from './ports/search.ts';
import type { UserAccessStore, UserAccessReads, UserAccessWrites } from './ports/user-access.ts';

export type * from './ports/aspects.ts';
export type * from './ports/audit.ts';
export type * from './ports/change-events.ts';
export type * from './ports/database.ts';
export type * from './ports/identity.ts';
export type * from './ports/relationships.ts';
export type * from './ports/retention.ts';
export type * from './ports/runs.ts';
export type * from './ports/schedules.ts';
export type * from './ports/search.ts';
export type * from './ports/tasks.ts';
export type * from './ports/timeseries.ts';
export type * from './ports/truncation.ts';
export type * from './ports/user-access.ts';
/** The write refused for missing required entities: the one error of the port the domain acts on. */
export { MissingEntities } from './store-error.ts';
export { WEBHOOK_TOPIC } from './ports/change-events.ts';

/**
 * The ports, one part per capability. A service names the ports it uses in its constructor; only the composition root
 * (src/app.ts), the storage code and the conformance suite hold all of them.
 */
export interface Parts {
  readonly database: DatabasePort;
  readonly aspects: AspectPort;
  readonly relationships: RelationshipPort;
  readonly timeseries: TimeseriesPort;
  readonly truncation: TruncationPort;
  readonly tasks: TaskPort;
  readonly identity: IdentityPort;
  readonly runs: RunPort;
  readonly retention: RetentionPort;
  readonly schedules: SchedulePort;
  readonly userAccess: UserAccessStore;
  readonly changeEvents: ChangeEventPort;
  readonly search: SearchPort;
  readonly audit: AuditPort;
}

/**
 * What each part only reads (each port's `XReads`): a service that only reads names these, as
 * `Pick<ReadParts, 'aspects'>`, and may be answered from a read replica (see `routeReads` in compose-store.ts).
 */
export interface ReadParts {
  readonly database: DatabaseReads;
  readonly aspects: AspectReads;
  readonly relationships: RelationshipReads;
  readonly timeseries: TimeseriesReads;
  readonly truncation: TruncationReads;
  readonly tasks: TaskReads;
  readonly identity: IdentityReads;
  readonly runs: RunReads;
  readonly retention: RetentionReads;
  readonly schedules: ScheduleReads;
  readonly userAccess: UserAccessReads;
  readonly changeEvents: ChangeEventReads;
  readonly search: SearchReads;
  readonly audit: AuditReads;
}

/** What each part changes (each port's `XWrites`): always the primary database. */
export interface WriteParts {
  readonly database: DatabaseWrites;
  readonly aspects: AspectWrites;
  readonly relationships: RelationshipWrites;
  readonly timeseries: TimeseriesWrites;
  readonly truncation: TruncationWrites;
  readonly tasks: TaskWrites;
  readonly identity: IdentityWrites;
  readonly runs: RunWrites;
  readonly retention: RetentionWrites;
  readonly schedules: ScheduleWrites;
  readonly userAccess: UserAccessWrites;
  readonly changeEvents: ChangeEventWrites;
  readonly search: SearchWrites;
  readonly audit: AuditWrites;
}

/** An opened database: its parts, and which engine answers them. */
export interface Store extends Parts {
  readonly backend: 'sqlite' | 'postgres';
  /** With read replicas (PostgreSQL): who answers each read (storage/read-routing.ts). */
  readonly readRouter?: ReadRouter;
}

/** What an adapter is given when it opens, from the layers above: what it indexes beside values, and retention on write. */
export interface StoreHooks {
  readonly indexer: AspectIndexer;
  readonly retention: VersionRetention;
  /** Which changes become events (a deprecation changed, a task ended), recorded in the change's transaction. */
  readonly events: ChangeEventRules;
  /** How an entity becomes a search document, for the search part. */
  readonly documents: SearchDocuments;
}

/** No versioned retention: every version is kept. */
export const KEEP_ALL_VERSIONS: VersionRetention = { ruleFor: () => undefined };
