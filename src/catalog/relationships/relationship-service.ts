import { badRequest } from '../errors.ts';
import { parseUrn } from '../urn.ts';
import type {
  RelationshipDirection,
  RelationshipEdge,
  RelationshipField,
  RelationshipKey,
  RelationshipMatch,
  StoredRelationship,
  ReadParts,
} from '../../storage/store.ts';
import { graphFilterClause } from './graph-filter.ts';
import { destinationIsUpstream, lineageEdges, lineageTriplets, type LineageDirection, type LineageEdgeInfo } from './lineage-registry.ts';

/** DataHub's graph result limits (graphService.limit.results): a count above the maximum gets the default instead. */
const MAX_RESULTS = 10_000;
const DEFAULT_RESULTS = 5_000;

/** DataHub's ConfigUtils.applyLimit for graph reads. */
export const applyGraphLimit = (count: number | undefined): number =>
  count === undefined || count < 0 || count > MAX_RESULTS ? DEFAULT_RESULTS : count;

/** A related entity as DataHub's RelatedEntitiesResult lists it; `via` only when the edge has one. */
export interface RelatedEntity {
  readonly relationshipType: string;
  readonly urn: string;
  readonly via?: string;
}

export interface RelatedEntitiesResult {
  readonly start: number;
  readonly count: number;
  readonly total: number;
  readonly entities: readonly RelatedEntity[];
}

/** An entity found by a lineage walk, as DataHub's LineageRelationship. */
export interface LineageRelationship {
  readonly type: string;
  readonly entity: string;
  readonly degree: number;
  /** From the start entity to this one, through each neighbour it was reached from (and the edge's via entity, if any). */
  readonly paths: readonly (readonly string[])[];
}

export interface EntityLineageResult {
  readonly start: number;
  readonly count: number;
  readonly total: number;
  readonly relationships: readonly LineageRelationship[];
}

export interface GenericNode {
  readonly entityType: string;
  readonly urn: string;
}

/** One edge of a relationship scroll (DataHub's GenericRelationship); a lineage scroll adds its upstream and downstream. */
export interface GenericRelationship {
  readonly relationshipType: string;
  readonly source: GenericNode;
  readonly destination: GenericNode;
  readonly upstream?: string;
  readonly downstream?: string;
}

export interface ScrollResult {
  readonly scrollId?: string;
  readonly results: readonly GenericRelationship[];
}

/** DataHub's relationship scroll (`/openapi/v3/relationship/scroll`): query parameters and body. */
export interface RelationshipScroll {
  readonly relationshipTypes?: readonly string[];
  readonly sourceTypes?: readonly string[];
  readonly destinationTypes?: readonly string[];
  /** Which end of the edge the source filters name: OUTGOING the edge's source, INCOMING or UNDIRECTED its destination. */
  readonly direction: RelationshipDirection | 'UNDIRECTED';
  readonly count?: number;
  readonly scrollId?: string;
  readonly includeSoftDelete: boolean;
  readonly sourceFilter?: unknown;
  readonly destinationFilter?: unknown;
  readonly edgeFilter?: unknown;
}

/** DataHub's lineage scroll (`/openapi/v3/lineage/scroll`). */
export interface LineageScroll {
  readonly urns?: readonly string[];
  readonly relationshipTypes?: readonly string[];
  readonly direction?: LineageDirection;
  readonly count?: number;
  readonly scrollId?: string;
  readonly includeSoftDelete: boolean;
}

const EDGE_FIELDS = {
  relationshipType: 'relationshipType',
  'source.urn': 'source',
  'source.entityType': 'sourceType',
  'destination.urn': 'destination',
  'destination.entityType': 'destinationType',
  via: 'via',
  lifecycleOwner: 'owner',
} as const;

function encodeScrollId(r: StoredRelationship): string {
  const key: RelationshipKey = [r.source, r.destination, r.relationshipType, r.owner, r.aspect];
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

function decodeScrollId(scrollId: string | undefined): RelationshipKey | undefined {
  if (scrollId === undefined || scrollId === '') return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length === 5 && key.every((k) => typeof k === 'string')) return key as unknown as RelationshipKey;
  } catch {
    // answered below
  }
  throw badRequest(`Parameter 'scrollId' is not a scroll id this server returned: ${scrollId}`);
}

/** An entity a walk reached: how, at which hop, and from which neighbours (and through which via entity). */
interface Reached {
  readonly type: string;
  readonly degree: number;
  readonly entityType: string;
  readonly parents: Array<{ readonly urn: string; readonly via: string | null }>;
  /** Reported only as an edge's via entity (reportVia): an edge reaching it at the same hop makes it a node walked from. */
  readonly viaOnly?: boolean;
}

const node = (urn: string, entityType: string): GenericNode => ({ entityType, urn });
const generic = (r: StoredRelationship): GenericRelationship => ({
  relationshipType: r.relationshipType,
  source: node(r.source, r.sourceType),
  destination: node(r.destination, r.destinationType),
});

/**
 * Reads of the relationship index, in DataHub's shapes: one hop from an entity
 * (findRelatedEntities), a lineage walk over several hops (getLineage), and the
 * v3 relationship and lineage scrolls.
 */
export class RelationshipService {
  constructor(private readonly ports: Pick<ReadParts, 'relationships'>) {}

  /** One hop from `urn` along edges of `types` (every type when empty), a page at a time. */
  async relatedEntities(q: {
    urn: string;
    types: readonly string[];
    direction: RelationshipDirection;
    start: number;
    count: number;
  }): Promise<RelatedEntitiesResult> {
    parseUrn(q.urn);
    const page = await this.ports.relationships.relatedEntities({
      urn: q.urn,
      direction: q.direction,
      types: q.types,
      start: q.start,
      count: applyGraphLimit(q.count),
    });
    const entities = page.relationships.map((r) => ({
      relationshipType: r.relationshipType,
      urn: q.direction === 'OUTGOING' ? r.destination : r.source,
      ...(r.via !== null ? { via: r.via } : {}),
    }));
    return { start: q.start, count: entities.length, total: page.total, entities };
  }

  /**
   * Walks lineage from `urn` up to `maxHops` hops, breadth first, with one read of the index per hop. Each entity
   * is reported once, at the hop that first reached it, with a path through each neighbour that reached it there;
   * an entity already reached is never walked again, so cycles end.
   */
  async lineage(q: {
    urn: string;
    direction: LineageDirection;
    start: number;
    count?: number;
    maxHops: number;
    /**
     * Report each edge's via entity (a job or query) as reached too, at the edge's hop, with a path ending at it, as
     * DataHub's graph service does for its lineage search; it is not walked from.
     */
    reportVia?: boolean;
  }): Promise<EntityLineageResult> {
    const found = new Map<string, Reached>([[q.urn, { type: '', degree: 0, entityType: parseUrn(q.urn).entityType, parents: [] }]]);
    let frontier = [q.urn];
    for (let hop = 1; hop <= q.maxHops && frontier.length > 0; hop++) {
      const edgesOf = new Map<string, readonly LineageEdgeInfo[]>();
      const outgoing = new Set<string>();
      const incoming = new Set<string>();
      for (const urn of frontier) {
        const edges = lineageEdges(found.get(urn)!.entityType, q.direction);
        edgesOf.set(urn, edges);
        for (const e of edges) (e.direction === 'OUTGOING' ? outgoing : incoming).add(e.type);
      }
      const next: string[] = [];
      const reach = (from: string, to: string, toType: string, direction: RelationshipDirection, r: RelationshipEdge) => {
        const allowed = edgesOf.get(from)?.some((e) => e.type === r.relationshipType && e.direction === direction && e.opposingType === toType);
        if (!allowed || from === to) return;
        const earlier = found.get(to);
        const parent = { urn: from, via: r.via !== null && r.via !== to ? r.via : null };
        if (!earlier || (earlier.viaOnly && earlier.degree === hop)) {
          found.set(to, { type: r.relationshipType, degree: hop, entityType: toType, parents: [parent] });
          next.push(to);
        } else if (earlier.degree === hop) {
          earlier.parents.push(parent);
        }
        if (q.reportVia && parent.via !== null && !found.has(parent.via)) {
          const viaType = parseUrn(parent.via).entityType;
          found.set(parent.via, { type: r.relationshipType, degree: hop, entityType: viaType, parents: [{ urn: from, via: null }], viaOnly: true });
        }
      };
      for (const r of await this.ports.relationships.relationshipHop({ urns: frontier, outgoing: [...outgoing], incoming: [...incoming] })) {
        reach(r.source, r.destination, r.destinationType, 'OUTGOING', r);
        reach(r.destination, r.source, r.sourceType, 'INCOMING', r);
      }
      frontier = next;
    }
    found.delete(q.urn);
    const all = [...found.entries()].sort(([a, x], [b, y]) => x.degree - y.degree || (a < b ? -1 : a > b ? 1 : 0));
    const count = applyGraphLimit(q.count);
    // Paths are built for the page only: a wide walk reaches thousands of entities through many parents each.
    const firstPath = (urn: string): string[] => {
      const r = found.get(urn);
      if (!r) return [urn];
      const p = r.parents[0]!;
      return [...firstPath(p.urn), ...(p.via ? [p.via] : []), urn];
    };
    const relationships = all.slice(q.start, q.start + count).map(([entity, r]) => ({
      type: r.type,
      entity,
      degree: r.degree,
      paths: r.parents.map((p) => [...firstPath(p.urn), ...(p.via ? [p.via] : []), entity]),
    }));
    return { start: q.start, count, total: all.length, relationships };
  }

  /** DataHub's relationship scroll: edges in key order, filtered by types, either end and edge fields. */
  async scrollRelationships(q: RelationshipScroll): Promise<ScrollResult> {
    // The "source" of the request is the edge's source only for OUTGOING (DataHub's GraphQueryUtils.buildQuery).
    const outgoing = q.direction === 'OUTGOING';
    const side = (end: 'source' | 'destination') => ((end === 'source') === outgoing ? 'source' : 'destination');
    // A node filter names the node's own fields: `urn` and `entityType`.
    const nodeFields = (end: 'source' | 'destination'): Record<string, RelationshipField> =>
      side(end) === 'source' ? { urn: 'source', entityType: 'sourceType' } : { urn: 'destination', entityType: 'destinationType' };
    const where: RelationshipMatch[][] = [];
    if (q.sourceTypes && q.sourceTypes.length > 0) where.push([{ [`${side('source')}Type`]: q.sourceTypes }]);
    if (q.destinationTypes && q.destinationTypes.length > 0) where.push([{ [`${side('destination')}Type`]: q.destinationTypes }]);
    if (q.relationshipTypes && q.relationshipTypes.length > 0) where.push([{ relationshipType: q.relationshipTypes }]);
    for (const clause of [
      graphFilterClause(q.sourceFilter, 'sourceFilter', nodeFields('source')),
      graphFilterClause(q.destinationFilter, 'destinationFilter', nodeFields('destination')),
      graphFilterClause(q.edgeFilter, 'edgeFilter', EDGE_FIELDS),
    ]) {
      if (clause && clause.length > 0) where.push(clause);
    }
    return this.scroll(where, q, generic);
  }

  /**
   * DataHub's lineage scroll: lineage edges (the registry's lineage triplets) touching any of `urns`, each with its
   * upstream and downstream end; `direction` then keeps only the edges that run that way from `urns`, so a page
   * may hold fewer than `count` edges.
   */
  async scrollLineage(q: LineageScroll): Promise<ScrollResult> {
    const where: RelationshipMatch[][] = [
      lineageTriplets().map((t) => ({ sourceType: [t.sourceType], destinationType: [t.destinationType], relationshipType: [t.type] })),
    ];
    if (q.relationshipTypes && q.relationshipTypes.length > 0) where.push([{ relationshipType: q.relationshipTypes }]);
    const anchors = q.urns ?? [];
    if (anchors.length > 0) where.push([{ source: anchors }, { destination: anchors }]);
    const page = await this.scroll(where, q, (r) => {
      const upstreamIsDestination = destinationIsUpstream(r.sourceType, r.relationshipType);
      return {
        ...generic(r),
        upstream: upstreamIsDestination ? r.destination : r.source,
        downstream: upstreamIsDestination ? r.source : r.destination,
      };
    });
    if (!q.direction || anchors.length === 0) return page;
    const anchorSet = new Set(anchors);
    const keep = (e: GenericRelationship) => anchorSet.has((q.direction === 'UPSTREAM' ? e.downstream : e.upstream)!);
    return { ...page, results: page.results.filter(keep) };
  }

  private async scroll(
    where: RelationshipMatch[][],
    q: { count?: number; scrollId?: string; includeSoftDelete: boolean },
    view: (r: StoredRelationship) => GenericRelationship,
  ): Promise<ScrollResult> {
    const limit = applyGraphLimit(q.count ?? 10);
    const rows = await this.ports.relationships.scanRelationships({
      where,
      includeSoftDeleted: q.includeSoftDelete,
      after: decodeScrollId(q.scrollId),
      limit,
    });
    // DataHub hands out a scroll id whenever a page is full, even when nothing follows it.
    const scrollId = rows.length === limit && limit > 0 ? encodeScrollId(rows.at(-1)!) : undefined;
    return { ...(scrollId ? { scrollId } : {}), results: rows.map(view) };
  }
}
