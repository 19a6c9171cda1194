import { COMMON, existsField } from './entity-fields.ts';
import type { GraphqlModule } from './schema.ts';

/**
 * DataHub's object types of the entity kinds Almanac serves no fields of their own for yet: each with its urn, type
 * and existence, and (from entity-aspect-fields.ts) the common aspect fields its registry entity can hold, so
 * entity(urn), search and their root queries answer them typed. Names are DataHub's.
 */
export const MINIMAL_TYPENAMES = [
  'ERModelRelationship',
  'DataContract',
  'Form',
  'VersionSet',
  'Post',
  'Test',
  'DataTypeEntity',
  'EntityTypeEntity',
  'Metric',
  'SemanticModel',
  'DataHubRole',
] as const;

const typeDefs = MINIMAL_TYPENAMES.map(
  (t) => `  type ${t} implements Entity {\n    urn: String!\n    type: EntityType!\n    "Whether it is stored."\n    exists: Boolean\n  }`,
).join('\n\n');

export const minimalEntitiesModule: GraphqlModule = {
  typeDefs,
  resolvers: Object.fromEntries(MINIMAL_TYPENAMES.map((t) => [t, { ...COMMON, exists: existsField }])),
};
