import type { WriteOp } from './aspects.ts';

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
  readonly created:
    { readonly kind: 'delete'; readonly revokeIdentity: boolean } | { readonly kind: 'keep'; readonly write?: Extract<WriteOp, { kind: 'aspect' }> };
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

/** What RunPort only reads: a composition root may answer these from another handle (a read replica). */
export interface RunReads {
  /** Runs by the time they last wrote, newest first. */
  listRuns(query: RunListQuery): Promise<RunSummary[]>;
  findRunAspects(query: RunAspectQuery): Promise<RunAspect[]>;
  /** Who wrote the latest version of every aspect of these entities. */
  aspectRuns(urns: readonly string[]): Promise<AspectRun[]>;
}

/** What RunPort changes: always the primary database. */
export interface RunWrites {
  /** Rolls back the run's latest versions of one entity's aspects, re-read and locked inside the transaction. */
  rollbackEntity(request: EntityRollbackRequest): Promise<EntityRollbackResult>;
  /**
   * Deletes every timeseries row whose systemMetadata carries the run id, one day partition per transaction;
   * returns the rows removed. It reads every partition: timeseries rows have no run index.
   */
  deleteRunTimeseriesRows(runId: string): Promise<number>;
}

/** Ingestion runs: which run wrote each aspect version, and rolling a run back. */
export interface RunPort extends RunReads, RunWrites {}
