import type { TimeseriesEvent, TimeseriesIndexRef } from './timeseries.ts';

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

/** The stored latest version of an aspect as a conditional write checks it: how many versions it has had, and when it was written. */
export interface AspectLatest {
  readonly versions: number;
  readonly modifiedAt: number;
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
       * It must be synchronous and may throw to abort the whole batch. `latest` describes the current value (a
       * conditional write checks it).
       */
      readonly update?: (current: Json | undefined, latest: AspectLatest | undefined) => Json;
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
  /**
   * Entities that must exist for the batch to commit, checked inside its transaction and kept from being deleted
   * until it ends: if any is missing, nothing is written and the write throws MissingEntities (store-error.ts).
   */
  readonly requireEntities?: readonly string[];
}

/** A page of datasets matching a name search and facet filters, with facet counts. */
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

/** What AspectPort only reads: a composition root may answer these from another handle (a read replica). */
export interface AspectReads {
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
}

/** What AspectPort changes: always the primary database. */
export interface AspectWrites {
  /** Applies the batch in one transaction; one outcome per aspect op, in order (timeseries ops report none). */
  write(batch: WriteBatch): Promise<AspectWriteOutcome[]>;
  /**
   * Deletes the entity, all versions of all its aspects, its timeseries rows and every relationship that touches
   * it; with `revokeIdentity` (a user or group), in the same transaction its access tokens, role and password too.
   */
  deleteEntity(urn: string, options?: { readonly revokeIdentity?: boolean }): Promise<{ aspectRows: number; timeseriesRows: number }>;
  /** Deletes every version of one aspect of the entity (never its key aspect) and what it indexed; returns the rows removed. */
  deleteAspect(urn: string, aspect: string): Promise<number>;
}

/** Versioned aspects: one transaction per batch of writes, latest-value and history reads, listings and deletes. */
export interface AspectPort extends AspectReads, AspectWrites {}
