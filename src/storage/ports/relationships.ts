import type { Json } from './aspects.ts';
import type { SearchEntry } from './search-index.ts';

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
  /** What the value contributes to its entity's search document (none when absent). */
  readonly search?: readonly SearchEntry[];
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

/** What RelationshipPort only reads: a composition root may answer these from another handle (a read replica). */
export interface RelationshipReads {
  relatedEntities(query: RelatedEntitiesQuery): Promise<RelatedEntitiesPage>;
  relationshipHop(query: RelationshipHopQuery): Promise<RelationshipEdge[]>;
  scanRelationships(query: RelationshipScanQuery): Promise<StoredRelationship[]>;
}

/** Nothing: the relationship index changes only inside aspect writes and deletes (the aspects port). */
export type RelationshipWrites = Record<never, never>;

/**
 * Relationships: written and removed with the aspects that declare them (see AspectIndexer). A relationship is
 * hidden while its source, destination, via entity or owner is soft-deleted, unless a scan asks for them.
 */
export type RelationshipPort = RelationshipReads & RelationshipWrites;
