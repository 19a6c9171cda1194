import { badRequest } from '../../catalog/errors.ts';
import { entityRef, type EntitySource } from './entity-refs.ts';
import { entityPaths } from './lineage-search.ts';
import type { GraphqlModule, Resolver } from './schema.ts';

/** The entity types DataHub gives a `lineage` field that Almanac answers. */
const LINEAGE_TYPES = [
  'Dataset',
  'SchemaFieldEntity',
  'Chart',
  'Dashboard',
  'DataJob',
  'DataFlow',
  'DataProcessInstance',
  'Assertion',
  'MLModel',
  'MLModelGroup',
  'MLFeature',
  'MLPrimaryKey',
  'MLFeatureTable',
];

const typeDefs = /* GraphQL */ `
  "separateSiblings, the time bounds and includeGhostEntities are accepted for DataHub's clients and not applied."
  input LineageInput {
    direction: LineageDirection!
    start: Int
    count: Int
    separateSiblings: Boolean
    startTimeMillis: Long
    endTimeMillis: Long
    includeGhostEntities: Boolean = false
  }

  type LineageRelationship {
    type: String!
    entity: Entity
    degree: Int!
    paths: [EntityPath]
  }

  type EntityLineageResult {
    start: Int
    count: Int
    total: Int
    filtered: Int
    relationships: [LineageRelationship!]!
  }

  ${LINEAGE_TYPES.map((t) => `extend type ${t} {\n    "One hop of lineage, as DataHub's entity lineage field."\n    lineage(input: LineageInput!): EntityLineageResult\n  }`).join('\n  ')}
`;

interface LineageInput {
  direction: 'UPSTREAM' | 'DOWNSTREAM';
  start?: number | null;
  count?: number | null;
}

/** One hop (DataHub's entity lineage resolver walks one), from the relationship index. */
const lineageField: Resolver = async (e: EntitySource, { input }: { input: LineageInput }, ctx) => {
  const start = input.start ?? 0;
  if (start < 0) throw badRequest('start must not be negative');
  const result = await ctx.app.relationships.lineage({ urn: e.urn, direction: input.direction, start, count: input.count ?? undefined, maxHops: 1 });
  const relationships = await Promise.all(
    result.relationships.map(async (r) => ({
      type: r.type,
      entity: await entityRef(ctx, r.entity),
      degree: r.degree,
      paths: await entityPaths(ctx, r.paths),
    })),
  );
  return { start, count: relationships.length, total: result.total, filtered: 0, relationships };
};

export const entityLineageModule: GraphqlModule = {
  typeDefs,
  resolvers: Object.fromEntries(LINEAGE_TYPES.map((t) => [t, { lineage: lineageField }])),
};
