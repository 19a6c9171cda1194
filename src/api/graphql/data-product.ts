import { badRequest } from '../../catalog/errors.ts';
import { parseUrn } from '../../catalog/urn.ts';
import { customPropertiesEntries, objects } from './associations.ts';
import { COMMON, existsField, fromAspect, named, str } from './entity-fields.ts';
import { aspectOf, keyPart, type EntitySource } from './entity-refs.ts';
import { scopedSearch } from './entity-search-fields.ts';
import type { CommonInput } from './search-across.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** DataHub's DataProduct and its assets (dataProductProperties.assets), searched as DataHub's ListDataProductAssetsResolver does. */
const typeDefs = /* GraphQL */ `
  type DataProduct implements Entity {
    urn: String!
    type: EntityType!
    properties: DataProductProperties
    "The data product's assets matching the search (query, filters, types), 10 a page by default."
    entities(input: SearchAcrossEntitiesInput): SearchResults
    exists: Boolean
  }

  type DataProductProperties {
    name: String!
    description: String
    externalUrl: String
    "How many assets the data product holds."
    numAssets: Int
    customProperties: [CustomPropertiesEntry!]
  }

  extend type Query {
    "The assets of a data product matching the search."
    listDataProductAssets(urn: String!, input: SearchAcrossEntitiesInput!): SearchResults
  }
`;

/** The most assets one search narrows to (DataHub reads them all from the aspect, then searches among them). */
const MAX_ASSETS = 10_000;

async function assets(ctx: GraphqlContext, urn: string, input: (CommonInput & { start?: number | null }) | null | undefined) {
  const value = await aspectOf(ctx, urn, 'dataProductProperties');
  const urns = objects(value?.assets)
    .map((a) => str(a.destinationUrn))
    .filter((u): u is string => u !== null)
    .slice(0, MAX_ASSETS);
  const count = input?.count ?? 10;
  if (urns.length === 0) return { start: input?.start ?? 0, count: 0, total: 0, searchResults: [], facets: [] };
  return scopedSearch(ctx, { query: input?.query, start: input?.start, count, filters: input?.filters, orFilters: input?.orFilters }, [
    { field: 'urn', values: urns },
  ]);
}

export const dataProductModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      listDataProductAssets: (_s, args: { urn: string; input: CommonInput & { start?: number | null } }, ctx) => {
        let entityType;
        try {
          entityType = parseUrn(args.urn).entityType;
        } catch (e) {
          throw badRequest(`urn: ${(e as Error).message}`);
        }
        if (entityType !== 'dataProduct') throw badRequest(`urn: ${args.urn} is not a dataProduct urn`);
        return assets(ctx, args.urn, args.input);
      },
    },
    DataProduct: {
      ...COMMON,
      properties: fromAspect('dataProductProperties', (v, e) => ({
        ...named(v.name, keyPart(e, 'id'), v),
        numAssets: objects(v.assets).length,
        customProperties: customPropertiesEntries(v.customProperties, e.urn),
      })),
      entities: (e: EntitySource, { input }: { input?: (CommonInput & { start?: number | null }) | null }, ctx) => assets(ctx, e.urn, input),
      exists: existsField,
    },
  },
};
