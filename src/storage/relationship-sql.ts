import type { RelationshipEdge, RelationshipField, RelationshipScanQuery, StoredRelationship } from './store.ts';

// SQL shared by both adapters' relationship tables: the same columns, and the
// same predicates, written with each engine's way of passing a list.

/** A relationship row as both engines return it. */
export interface RelationshipRow {
  source_urn: string;
  source_type: string;
  relationship_type: string;
  destination_urn: string;
  destination_type: string;
  via_urn: string | null;
  owner_urn: string;
  aspect: string;
}

export const RELATIONSHIP_COLUMNS =
  'r.source_urn, r.source_type, r.relationship_type, r.destination_urn, r.destination_type, r.via_urn, r.owner_urn, r.aspect';

/** What a walk reads of an edge: less to copy out of the engine, thousands of edges at a time. */
export const EDGE_COLUMNS = 'r.source_urn, r.source_type, r.relationship_type, r.destination_urn, r.destination_type, r.via_urn';

export const toEdge = (r: Omit<RelationshipRow, 'owner_urn' | 'aspect'>): RelationshipEdge => ({
  source: r.source_urn,
  sourceType: r.source_type,
  relationshipType: r.relationship_type,
  destination: r.destination_urn,
  destinationType: r.destination_type,
  via: r.via_urn,
});

export const toRelationship = (r: RelationshipRow): StoredRelationship => ({ ...toEdge(r), owner: r.owner_urn, aspect: r.aspect });

/** A relationship is hidden while any entity it names is soft-deleted (DataHub's source, destination, via and lifecycle owner statuses). */
export const NOT_SOFT_DELETED =
  'NOT EXISTS (SELECT 1 FROM soft_deletions d WHERE d.urn IN (r.source_urn, r.destination_urn, r.owner_urn, r.via_urn))';

/** The scan order; the primary key's column order, so a scan reads the key index in order. */
export const KEY_ORDER = 'r.source_urn, r.destination_urn, r.relationship_type, r.owner_urn, r.aspect';

const FIELD_COLUMNS: Readonly<Record<RelationshipField, string>> = {
  source: 'r.source_urn',
  sourceType: 'r.source_type',
  destination: 'r.destination_urn',
  destinationType: 'r.destination_type',
  relationshipType: 'r.relationship_type',
  via: 'r.via_urn',
  owner: 'r.owner_urn',
};

/**
 * The WHERE clause of a scan. `inList(column, values)` writes the engine's
 * membership test and keeps the list as a parameter; `param(value)` keeps one value.
 */
export function scanWhere(
  q: RelationshipScanQuery,
  inList: (column: string, values: readonly string[]) => string,
  param: (value: string) => string,
): string {
  const clauses = q.where.map((alternatives) => {
    if (alternatives.length === 0) return 'FALSE';
    const parts = alternatives.map((match) => {
      const tests = Object.entries(match).map(([field, values]) => inList(FIELD_COLUMNS[field as RelationshipField], values as readonly string[]));
      return tests.length === 0 ? 'TRUE' : `(${tests.join(' AND ')})`;
    });
    return `(${parts.join(' OR ')})`;
  });
  if (!q.includeSoftDeleted) clauses.push(NOT_SOFT_DELETED);
  if (q.after) clauses.push(`(${KEY_ORDER}) > (${q.after.map(param).join(', ')})`);
  return clauses.length === 0 ? 'TRUE' : clauses.join(' AND ');
}
