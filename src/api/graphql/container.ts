import { customPropertiesEntries } from './associations.ts';
import { COMMON, existsField, fromAspect, named, str } from './entity-fields.ts';
import type { EntitySource } from './entity-refs.ts';
import { scopedSearch, type ScopedSearchInput } from './entity-search-fields.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's Container and the entities in it; its common fields (platform, parents, tags, ...) come from entity-aspect-fields.ts. */
const typeDefs = /* GraphQL */ `
  type Container implements Entity {
    urn: String!
    type: EntityType!
    "Almanac does not track ingestion times per entity: always null."
    lastIngested: Long
    properties: ContainerProperties
    "Entities whose container is this one (the searchable types), 20 a page by default."
    entities(input: ContainerEntitiesInput): SearchResults
    exists: Boolean
  }

  type ContainerProperties {
    name: String!
    description: String
    customProperties: [CustomPropertiesEntry!]
    externalUrl: String
    qualifiedName: String
  }

  input ContainerEntitiesInput {
    query: String
    start: Int
    count: Int
    filters: [FacetFilterInput!]
  }
`;

export const containerModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Container: {
      ...COMMON,
      lastIngested: () => null,
      properties: fromAspect('containerProperties', (v, e) => ({
        ...named(v.name, null, v),
        qualifiedName: str(v.qualifiedName),
        customProperties: customPropertiesEntries(v.customProperties, e.urn),
      })),
      entities: (e: EntitySource, { input }: { input?: ScopedSearchInput | null }, ctx) =>
        scopedSearch(ctx, input, [{ field: 'container', values: [e.urn] }]),
      exists: existsField,
    },
  },
};
