import { DATAHUB_REGISTRY } from '../registry/datahub-registry.ts';
import type { RelationshipDirection } from '../../storage/store.ts';

export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM';

/** One way an entity type reaches its upstreams or downstreams: along `type` edges, OUTGOING or INCOMING, to `opposingType` entities. */
export interface LineageEdgeInfo {
  readonly type: string;
  readonly direction: RelationshipDirection;
  readonly opposingType: string;
}

interface LineageSpec {
  readonly UPSTREAM: LineageEdgeInfo[];
  readonly DOWNSTREAM: LineageEdgeInfo[];
}

const SCHEMA_FIELD = 'schemaField';

/**
 * DataHub's LineageRegistry, from the registry's lineage annotations (`isLineage`):
 * an entity `A DownstreamOf B` (isUpstream, the default) has B upstream along
 * (DownstreamOf, OUTGOING), and B has A downstream along (DownstreamOf, INCOMING);
 * `A Produces B` (isUpstream false) is the other way round.
 */
function build(): Map<string, LineageSpec> {
  const specs = new Map<string, LineageSpec>();
  const spec = (entity: string) => {
    let s = specs.get(entity);
    if (!s) specs.set(entity, (s = { UPSTREAM: [], DOWNSTREAM: [] }));
    return s;
  };
  const seen = new Set<string>();
  for (const [entity, e] of Object.entries(DATAHUB_REGISTRY.entities)) {
    for (const aspect of [e.keyAspect, ...e.aspects]) {
      for (const rel of DATAHUB_REGISTRY.aspects[aspect]?.relationships ?? []) {
        if (!rel.isLineage) continue;
        for (const dest of rel.entityTypes) {
          const key = `${entity}\u0000${dest}\u0000${rel.name}`;
          if (seen.has(key)) continue; // DataHub keeps one edge per (source, destination, type)
          seen.add(key);
          const upstream = rel.isUpstream ?? true;
          spec(entity)[upstream ? 'UPSTREAM' : 'DOWNSTREAM'].push({ type: rel.name, direction: 'OUTGOING', opposingType: dest });
          spec(dest)[upstream ? 'DOWNSTREAM' : 'UPSTREAM'].push({ type: rel.name, direction: 'INCOMING', opposingType: entity });
        }
      }
    }
  }
  return specs;
}

const SPECS = build();

/** Column-level lineage is DownstreamOf between schema fields, whatever the annotations say. */
const SCHEMA_FIELD_EDGES: LineageSpec = {
  UPSTREAM: [{ type: 'DownstreamOf', direction: 'OUTGOING', opposingType: SCHEMA_FIELD }],
  DOWNSTREAM: [{ type: 'DownstreamOf', direction: 'INCOMING', opposingType: SCHEMA_FIELD }],
};

const lower = new Map([...SPECS.keys()].map((k) => [k.toLowerCase(), k]));

/** The edges that lead from an entity of this type to its upstreams or downstreams (DataHub's getLineageRelationships). */
export function lineageEdges(entityType: string, direction: LineageDirection): readonly LineageEdgeInfo[] {
  if (entityType === SCHEMA_FIELD) return SCHEMA_FIELD_EDGES[direction];
  const name = lower.get(entityType.toLowerCase());
  return name ? SPECS.get(name)![direction] : [];
}

/** Whether an edge `source --type--> destination` points from the downstream to the upstream (DownstreamOf, Consumes) rather than the other way (Produces). */
export function destinationIsUpstream(sourceType: string, type: string): boolean {
  return lineageEdges(sourceType, 'UPSTREAM').some((e) => e.type === type && e.direction === 'OUTGOING');
}

/** Every (source type, destination type, relationship type) that is lineage somewhere in the registry. */
export function lineageTriplets(): ReadonlyArray<{ readonly sourceType: string; readonly destinationType: string; readonly type: string }> {
  const out = new Map<string, { sourceType: string; destinationType: string; type: string }>();
  for (const [entity, spec] of SPECS) {
    for (const e of [...spec.UPSTREAM, ...spec.DOWNSTREAM]) {
      const t =
        e.direction === 'OUTGOING'
          ? { sourceType: entity, destinationType: e.opposingType, type: e.type }
          : { sourceType: e.opposingType, destinationType: entity, type: e.type };
      out.set(`${t.sourceType}\u0000${t.destinationType}\u0000${t.type}`, t);
    }
  }
  return [...out.values()];
}
