/**
 * How an adapter becomes a `Store`: it builds one part per capability, each implementing its port with the port's
 * own method names, and `composeStore` wraps each part once, passing each call's failure through the adapter's
 * driver-error table. No adapter writes a forwarding method.
 */
import type { Parts, ReadParts as Reads, Store, WriteParts as Writes } from './store.ts';
import type { AspectPort } from './ports/aspects.ts';
import type { AuditPort } from './ports/audit.ts';
import type { ChangeEventPort } from './ports/change-events.ts';
import type { DatabasePort } from './ports/database.ts';
import type { IdentityPort } from './ports/identity.ts';
import type { RelationshipPort } from './ports/relationships.ts';
import type { RetentionPort } from './ports/retention.ts';
import type { RunPort } from './ports/runs.ts';
import type { SchedulePort } from './ports/schedules.ts';
import type { SearchPort } from './ports/search.ts';
import type { TaskPort } from './ports/tasks.ts';
import type { TimeseriesPort } from './ports/timeseries.ts';
import type { TruncationPort } from './ports/truncation.ts';
import type { UserAccessStore } from './ports/user-access.ts';

/**
 * A port as an adapter's part implements it: a method may answer at once (better-sqlite3 is synchronous) or with a
 * promise; the composed store always answers with a promise.
 */
export type PortImpl<P> = {
  [K in keyof P]: P[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R | Promise<R> : P[K];
};

/** One part per capability. */
export interface PartImpls {
  readonly database: PortImpl<DatabasePort>;
  readonly aspects: PortImpl<AspectPort>;
  readonly relationships: PortImpl<RelationshipPort>;
  readonly timeseries: PortImpl<TimeseriesPort>;
  readonly truncation: PortImpl<TruncationPort>;
  readonly tasks: PortImpl<TaskPort>;
  readonly identity: PortImpl<IdentityPort>;
  readonly runs: PortImpl<RunPort>;
  readonly retention: PortImpl<RetentionPort>;
  readonly schedules: PortImpl<SchedulePort>;
  readonly userAccess: PortImpl<UserAccessStore>;
  readonly changeEvents: PortImpl<ChangeEventPort>;
  readonly search: PortImpl<SearchPort>;
  readonly audit: PortImpl<AuditPort>;
}

/** Each method of a port and whether it only reads. */
type MethodTable<R, W> = Readonly<Record<keyof R, 'read'> & Record<keyof W, 'write'>>;

/**
 * Every method of every port, by part, marked as its port marks it. The compiler keeps each table exact: a method
 * missing, extra or marked against its port's Reads/Writes split is an error.
 */
const METHODS: { readonly [K in keyof PartImpls]: MethodTable<Reads[K], Writes[K]> } = {
  database: { databaseStats: 'read', migrate: 'write', close: 'write', getOrInitSetting: 'write', checkListener: 'write' },
  aspects: {
    getAspect: 'read',
    getLatestAspects: 'read',
    getAspectHistory: 'read',
    existing: 'read',
    getEntities: 'read',
    listEntityUrns: 'read',
    findAspectsMentioning: 'read',
    write: 'write',
    deleteEntity: 'write',
    deleteAspect: 'write',
  },
  relationships: { relatedEntities: 'read', relationshipHop: 'read', scanRelationships: 'read' },
  timeseries: {
    queryTimeseries: 'read',
    timeseriesIndexStats: 'read',
    listTimeseriesPartitions: 'read',
    oldestTimestampFrom: 'read',
    deleteTimeseriesRows: 'write',
    countTimeseriesBefore: 'write',
  },
  truncation: {
    timeseriesIndexSizeBytes: 'read',
    retireTimeseriesPartitionsBefore: 'write',
    trimTimeseriesBoundary: 'write',
    deleteTimeseriesRowsBefore: 'write',
    reclaimTimeseriesSpace: 'write',
  },
  tasks: {
    getTask: 'read',
    listTasks: 'read',
    isTaskNodeAlive: 'read',
    createTask: 'write',
    updateTask: 'write',
    pruneTasks: 'write',
    requestTaskCancel: 'write',
    heartbeatTasks: 'write',
    registerTaskNode: 'write',
  },
  identity: {
    getAccessToken: 'read',
    findTokenWithActor: 'read',
    listAccessTokens: 'read',
    getRole: 'read',
    grantBasis: 'read',
    authChangeMark: 'read',
    getPasswordHash: 'read',
    anyPasswordSet: 'read',
    insertAccessToken: 'write',
    deleteAccessToken: 'write',
    deleteExpiredAccessTokens: 'write',
    setRole: 'write',
    setPasswordHash: 'write',
  },
  changeEvents: {
    listWebhookSubscriptions: 'read',
    listWebhookDeliveries: 'read',
    readEventLog: 'read',
    eventLogBounds: 'read',
    eventLogOffsetSince: 'read',
    eventLogGeneration: 'read',
    waitForEventLog: 'read',
    createWebhookSubscription: 'write',
    deleteWebhookSubscription: 'write',
    claimWebhookDeliveries: 'write',
    finishWebhookDelivery: 'write',
    pruneEventLog: 'write',
  },
  retention: {
    listRetentionPolicies: 'read',
    versionHistoryPairs: 'read',
    previewVersionRetention: 'read',
    putRetentionPolicy: 'write',
    deleteRetentionPolicy: 'write',
    applyVersionRetention: 'write',
  },
  runs: { listRuns: 'read', findRunAspects: 'read', aspectRuns: 'read', rollbackEntity: 'write', deleteRunTimeseriesRows: 'write' },
  schedules: { listScheduledRuns: 'read', claimScheduledRun: 'write', finishScheduledRun: 'write', pruneScheduledRuns: 'write' },
  userAccess: {
    getSessionState: 'read',
    userUrnsIgnoringCase: 'read',
    getInvite: 'read',
    getSignInFailures: 'read',
    endSessions: 'write',
    resetPassword: 'write',
    putInvite: 'write',
    recordSignInFailure: 'write',
    clearSignInFailures: 'write',
    pruneSignInFailures: 'write',
  },
  search: {
    search: 'read',
    namesStartingWith: 'read',
    count: 'read',
    facets: 'read',
    searchIndexBuild: 'read',
    indexedValues: 'read',
    continueSearchIndexBuild: 'write',
    restartSearchIndexBuild: 'write',
  },
  audit: { searchAuditEvents: 'read', recordAuditEvent: 'write', pruneAuditEvents: 'write' },
};

/**
 * The store: each part of the adapter wrapped once; each port method calls the part's method of the same name, and a
 * failure leaves it through `translate` (the adapter's driver-error table: conflicts and lost connections become
 * StoreErrors). Calls between parts inside an adapter go straight to each other, so nothing is translated twice.
 */
export function composeStore(backend: Store['backend'], parts: PartImpls, translate: (e: unknown) => unknown): Store {
  const store: Record<string, unknown> = { backend };
  for (const [capability, table] of Object.entries(METHODS) as Array<[keyof PartImpls, Record<string, 'read' | 'write'>]>) {
    const part = parts[capability] as unknown as Record<string, (...args: unknown[]) => unknown>;
    const wrapped: Record<string, unknown> = {};
    for (const name of Object.keys(table)) {
      const method = part[name];
      if (typeof method !== 'function') throw new Error(`${backend} adapter: ${capability}.${name} is not implemented`);
      wrapped[name] = async (...args: unknown[]) => {
        try {
          return await method.apply(part, args);
        } catch (e) {
          throw translate(e);
        }
      };
    }
    store[capability] = wrapped;
  }
  return store as unknown as Store;
}

/** For each part, the store whose handle answers its reads. */
export type ReadSources = { readonly [K in keyof Parts]: Parts };

/**
 * The parts a composition root hands to services: each part's writes go to `primary`, its reads to the store
 * `readsFrom` names for that part. A part read from the primary itself is the primary's part, unchanged.
 */
export function routeReads(primary: Parts, readsFrom: ReadSources): Parts {
  const routed: Record<string, unknown> = {};
  for (const [capability, table] of Object.entries(METHODS) as Array<[keyof Parts, Record<string, 'read' | 'write'>]>) {
    const source = readsFrom[capability];
    if (source === primary) {
      routed[capability] = primary[capability];
      continue;
    }
    const part: Record<string, unknown> = {};
    for (const [name, kind] of Object.entries(table)) {
      part[name] = ((kind === 'read' ? source : primary)[capability] as unknown as Record<string, unknown>)[name];
    }
    routed[capability] = part;
  }
  return routed as unknown as Parts;
}

/** Each part's methods, each marked `read` or `write` as its port marks it. */
export function methodKinds(): Array<[keyof Parts, Readonly<Record<string, 'read' | 'write'>>]> {
  return Object.entries(METHODS) as Array<[keyof Parts, Record<string, 'read' | 'write'>]>;
}

/** Every part's reads from the one store: the start of a `ReadSources` that moves a few parts elsewhere. */
export function readsFrom(store: Parts): ReadSources {
  return Object.fromEntries(Object.keys(METHODS).map((capability) => [capability, store])) as unknown as ReadSources;
}
