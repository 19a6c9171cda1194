/**
 * How an adapter becomes a `Store`: it builds one part per capability, each implementing its port with the port's
 * own method names, and `composeStore` wraps each part once, passing each call's failure through the adapter's
 * driver-error table. No adapter writes a forwarding method.
 */
import type { Store } from './store.ts';
import type { AspectPort } from './ports/aspects.ts';
import type { ChangeEventPort } from './ports/change-events.ts';
import type { DatabasePort } from './ports/database.ts';
import type { IdentityPort } from './ports/identity.ts';
import type { RelationshipPort } from './ports/relationships.ts';
import type { RetentionPort } from './ports/retention.ts';
import type { RunPort } from './ports/runs.ts';
import type { SchedulePort } from './ports/schedules.ts';
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
}

type MethodTable<P> = Readonly<Record<keyof P, true>>;

/** Every method of every port, by part. The compiler keeps each table exact: a method missing or extra is an error. */
const METHODS: { readonly [K in keyof PartImpls]: MethodTable<PartImpls[K]> } = {
  database: { migrate: true, close: true, getOrInitSetting: true, databaseStats: true },
  aspects: {
    write: true,
    getAspect: true,
    getLatestAspects: true,
    getAspectHistory: true,
    existing: true,
    getEntities: true,
    searchDatasets: true,
    listEntityUrns: true,
    findAspectsMentioning: true,
    deleteEntity: true,
    deleteAspect: true,
  },
  relationships: { relatedEntities: true, relationshipHop: true, scanRelationships: true },
  timeseries: {
    deleteTimeseriesRows: true,
    queryTimeseries: true,
    timeseriesIndexStats: true,
    countTimeseriesBefore: true,
    listTimeseriesPartitions: true,
    oldestTimestampFrom: true,
  },
  truncation: {
    retireTimeseriesPartitionsBefore: true,
    trimTimeseriesBoundary: true,
    deleteTimeseriesRowsBefore: true,
    reclaimTimeseriesSpace: true,
    timeseriesIndexSizeBytes: true,
  },
  tasks: {
    createTask: true,
    updateTask: true,
    getTask: true,
    listTasks: true,
    pruneTasks: true,
    requestTaskCancel: true,
    heartbeatTasks: true,
    registerTaskNode: true,
    isTaskNodeAlive: true,
  },
  identity: {
    insertAccessToken: true,
    getAccessToken: true,
    findTokenWithActor: true,
    deleteAccessToken: true,
    listAccessTokens: true,
    deleteExpiredAccessTokens: true,
    getRole: true,
    grantBasis: true,
    authChangeMark: true,
    setRole: true,
    getPasswordHash: true,
    anyPasswordSet: true,
    setPasswordHash: true,
  },
  changeEvents: {
    listChangeEvents: true,
    createWebhookSubscription: true,
    listWebhookSubscriptions: true,
    deleteWebhookSubscription: true,
    claimWebhookDeliveries: true,
    finishWebhookDelivery: true,
    listWebhookDeliveries: true,
    pruneChangeEvents: true,
  },
  retention: {
    listRetentionPolicies: true,
    putRetentionPolicy: true,
    deleteRetentionPolicy: true,
    versionHistoryPairs: true,
    previewVersionRetention: true,
    applyVersionRetention: true,
  },
  runs: { listRuns: true, findRunAspects: true, aspectRuns: true, rollbackEntity: true, deleteRunTimeseriesRows: true },
  schedules: { claimScheduledRun: true, finishScheduledRun: true, listScheduledRuns: true, pruneScheduledRuns: true },
  userAccess: {
    getSessionState: true,
    endSessions: true,
    resetPassword: true,
    getInvite: true,
    putInvite: true,
    getSignInFailures: true,
    recordSignInFailure: true,
    clearSignInFailures: true,
    pruneSignInFailures: true,
  },
};

/**
 * The store: each part of the adapter wrapped once; each port method calls the part's method of the same name, and a
 * failure leaves it through `translate` (the adapter's driver-error table: conflicts and lost connections become
 * StoreErrors). Calls between parts inside an adapter go straight to each other, so nothing is translated twice.
 */
export function composeStore(backend: Store['backend'], parts: PartImpls, translate: (e: unknown) => unknown): Store {
  const store: Record<string, unknown> = { backend };
  for (const [capability, table] of Object.entries(METHODS) as Array<[keyof PartImpls, MethodTable<unknown>]>) {
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
    store[capability] = Object.freeze(wrapped);
  }
  return Object.freeze(store) as unknown as Store;
}
