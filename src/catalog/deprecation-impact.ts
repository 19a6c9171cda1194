import { deprecationView } from './deprecation.ts';
import { deprecationState, type DeprecationState } from './deprecation-lifecycle.ts';
import { badRequest } from './errors.ts';
import { parseUrn } from './urn.ts';
import type { RelationshipService } from './relationships/relationship-service.ts';
import type { ReadParts } from '../storage/store.ts';

/** How far an impact walk may go: each hop is one indexed read of the whole frontier. */
export const MAX_IMPACT_DEPTH = 5;
/** At most this many entities are listed (the walk still counts them all). */
export const MAX_IMPACT_ENTITIES = 1000;

export interface ImpactedEntity {
  readonly urn: string;
  readonly entityType: string;
  /** Hops from the entity asked about: 1 for a direct dependant. */
  readonly degree: number;
  /** Owners (users and groups) from the entity's ownership aspect. */
  readonly owners: readonly string[];
}

export interface DeprecationImpactView {
  readonly urn: string;
  readonly depth: number;
  /** Every entity reached, though at most MAX_IMPACT_ENTITIES are listed. */
  readonly total: number;
  readonly downstream: readonly ImpactedEntity[];
}

export interface DeprecatedUpstream {
  readonly urn: string;
  readonly degree: number;
  readonly state: Exclude<DeprecationState, 'ACTIVE'>;
  readonly note: string | null;
  readonly decommissionTime: number | null;
  readonly replacement: string | null;
}

const ownersOf = (value: Record<string, unknown> | undefined): string[] =>
  (Array.isArray(value?.owners) ? (value.owners as Array<{ owner?: unknown }>) : []).flatMap((o) => (typeof o.owner === 'string' ? [o.owner] : []));

function checkDepth(depth: number): void {
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_IMPACT_DEPTH)
    throw badRequest(`depth: an integer from 1 to ${MAX_IMPACT_DEPTH}, got ${depth}`);
}

/**
 * Who is affected by a deprecation, through stored lineage: the entities downstream of one (datasets, jobs, charts,
 * dashboards: the registry's lineage edges, as getLineage walks them) with their owners, and for one entity the
 * upstream ones that are deprecated or overdue. A walk reads one hop at a time, one indexed read of the frontier
 * per hop, and visits each entity once, so cycles end.
 */
export class DeprecationImpact {
  constructor(
    private readonly ports: Pick<ReadParts, 'aspects'>,
    private readonly relationships: RelationshipService,
    private readonly clock: () => number = Date.now,
  ) {}

  async downstream(urn: string, depth: number): Promise<DeprecationImpactView> {
    parseUrn(urn);
    checkDepth(depth);
    if (!(await this.ports.aspects.existing([urn])).has(urn)) throw badRequest(`Entity ${urn} does not exist.`);
    const walk = await this.relationships.lineage({ urn, direction: 'DOWNSTREAM', start: 0, count: MAX_IMPACT_ENTITIES, maxHops: depth });
    const listed = walk.relationships;
    const stored = await this.ports.aspects.getEntities(
      listed.map((r) => r.entity),
      ['ownership'],
    );
    return {
      urn,
      depth,
      total: walk.total,
      downstream: listed.map((r) => ({
        urn: r.entity,
        entityType: parseUrn(r.entity).entityType,
        degree: r.degree,
        owners: ownersOf(stored.get(r.entity)?.find((a) => a.aspect === 'ownership')?.value),
      })),
    };
  }

  /** The entities upstream of `urn` (within `depth` hops) that are deprecated or overdue, nearest first. */
  async deprecatedUpstreams(urn: string, depth: number): Promise<DeprecatedUpstream[]> {
    checkDepth(depth);
    const walk = await this.relationships.lineage({ urn, direction: 'UPSTREAM', start: 0, count: MAX_IMPACT_ENTITIES, maxHops: depth });
    if (walk.relationships.length === 0) return [];
    const stored = await this.ports.aspects.getEntities(
      walk.relationships.map((r) => r.entity),
      ['deprecation'],
    );
    const now = this.clock();
    return walk.relationships.flatMap((r) => {
      const view = deprecationView(stored.get(r.entity)?.find((a) => a.aspect === 'deprecation')?.value);
      const state = deprecationState(view, now);
      if (state === 'ACTIVE') return [];
      return [{ urn: r.entity, degree: r.degree, state, note: view.note, decommissionTime: view.decommissionTime, replacement: view.replacement }];
    });
  }
}
