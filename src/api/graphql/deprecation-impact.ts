import type { DeprecatedUpstream, ImpactedEntity } from '../../catalog/deprecation-impact.ts';
import { entityRef } from './entity-refs.ts';
import type { GraphqlModule } from './schema.ts';

const typeDefs = /* GraphQL */ `
  "An entity downstream of another through lineage (Almanac addition)."
  type ImpactedEntity {
    urn: String!
    "The registry's entity type name: dataset, dataJob, chart, dashboard, ..."
    entityType: String!
    "Hops from the entity asked about: 1 for a direct dependant."
    degree: Int!
    "Owners (users and groups) of the impacted entity."
    owners: [String!]!
    entity: Entity
  }

  "Who is affected by deprecating an entity: what depends on it through lineage, to the depth asked (Almanac addition)."
  type DeprecationImpact {
    urn: String!
    depth: Int!
    "Every entity reached; at most 1,000 are listed."
    total: Int!
    "Nearest first."
    downstream: [ImpactedEntity!]!
  }

  "An upstream entity that is deprecated or overdue (Almanac addition)."
  type DeprecatedUpstream {
    urn: String!
    degree: Int!
    state: DeprecationState!
    note: String
    decommissionTime: Long
    replacement: String
    entity: Entity
  }

  extend type Query {
    "The entities downstream of an entity, to depth 1 to 5 (Almanac addition)."
    deprecationImpact(urn: String!, depth: Int = 3): DeprecationImpact!
  }

  extend type Dataset {
    "Upstream entities within depth hops that are deprecated or overdue, nearest first (Almanac addition)."
    deprecatedUpstreams(depth: Int = 3): [DeprecatedUpstream!]!
  }
`;

/** The impact of a deprecation through lineage, and the deprecated upstreams of a dataset. */
export const deprecationImpactModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      deprecationImpact: (_s, { urn, depth }: { urn: string; depth: number }, ctx) => ctx.app.impact.downstream(urn, depth),
    },
    Dataset: {
      deprecatedUpstreams: (d: { urn: string }, { depth }: { depth: number }, ctx) => ctx.app.impact.deprecatedUpstreams(d.urn, depth),
    },
    ImpactedEntity: { entity: (e: ImpactedEntity, _a, ctx) => entityRef(ctx, e.urn) },
    DeprecatedUpstream: { entity: (e: DeprecatedUpstream, _a, ctx) => entityRef(ctx, e.urn) },
  },
};
