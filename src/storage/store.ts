/**
 * The storage port: types only. The catalog, auth and task code see nothing else of the database. Each capability
 * has a port of its own in ports/ (aspects, relationships, timeseries, truncation, tasks, identity, runs, retention, change events); `Store`
 * holds one part per port, and each adapter (sqlite/, postgres/) builds them and passes the one conformance suite in
 * test/conformance.
 */
import type { AspectPort } from './ports/aspects.ts';
import type { ChangeEventPort } from './ports/change-events.ts';
import type { DatabasePort } from './ports/database.ts';
import type { IdentityPort } from './ports/identity.ts';
import type { RelationshipPort } from './ports/relationships.ts';
import type { RetentionPort, VersionRetention } from './ports/retention.ts';
import type { AspectIndexer } from './ports/relationships.ts';
import type { RunPort } from './ports/runs.ts';
import type { SchedulePort } from './ports/schedules.ts';
import type { TaskPort } from './ports/tasks.ts';
import type { TimeseriesPort } from './ports/timeseries.ts';
import type { TruncationPort } from './ports/truncation.ts';
import type { UserAccessStore } from './ports/user-access.ts';

export type * from './ports/aspects.ts';
export type * from './ports/change-events.ts';
export type * from './ports/database.ts';
export type * from './ports/identity.ts';
export type * from './ports/relationships.ts';
export type * from './ports/retention.ts';
export type * from './ports/runs.ts';
export type * from './ports/schedules.ts';
export type * from './ports/tasks.ts';
export type * from './ports/timeseries.ts';
export type * from './ports/truncation.ts';
export type * from './ports/user-access.ts';
/** The write refused for missing required entities: the one error of the port the domain acts on. */
export { MissingEntities } from './store-error.ts';

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
}

/** An opened database: its parts, and which engine answers them. */
export interface Store extends Parts {
  readonly backend: 'sqlite' | 'postgres';
}

/** What an adapter is given when it opens, from the layers above: what it indexes beside values, and retention on write. */
export interface StoreHooks {
  readonly indexer: AspectIndexer;
  readonly retention: VersionRetention;
}

/** No versioned retention: every version is kept. */
export const KEEP_ALL_VERSIONS: VersionRetention = { ruleFor: () => undefined };
