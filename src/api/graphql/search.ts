import type { GraphQLResolveInfo } from 'graphql';
import { badRequest } from '../../catalog/errors.ts';
import type { AndFilter, FacetFilter } from './filters.ts';
import { searchRequest, searchResults } from './search-across.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

export const MAX_SEARCH_COUNT = 1000;

const typeDefs = /* GraphQL */ `
  input SearchInput {
    type: EntityType!
    "DataHub's query language (terms, phrases, -, OR, parentheses, /q field queries); * or empty matches all."
    query: String!
    start: Int
    count: Int
    filters: [FacetFilterInput!]
    orFilters: [AndFilterInput!]
    searchFlags: SearchFlags
  }

  type MatchedField {
    name: String!
    value: String!
  }

  type SearchResult {
    entity: Entity!
    matchedFields: [MatchedField!]!
  }

  type AggregationMetadata {
    value: String!
    count: Long!
    "A name for the value; null, as DataHub leaves it for every facet value."
    displayName: String
  }

  type FacetMetadata {
    field: String!
    displayName: String
    aggregations: [AggregationMetadata!]!
  }

  type SearchResults {
    start: Int!
    count: Int!
    total: Int!
    searchResults: [SearchResult!]!
    facets: [FacetMetadata!]
  }

  extend type Query {
    "Entities of one type matching the query and filters, ranked, with facet counts."
    search(input: SearchInput!): SearchResults
  }
`;

interface SearchInput {
  type: string;
  query: string;
  start?: number | null;
  count?: number | null;
  filters?: readonly FacetFilter[] | null;
  orFilters?: readonly AndFilter[] | null;
  searchFlags?: { includeSoftDeleted?: boolean | null; skipAggregates?: boolean | null } | null;
}

/** DataHub's single-type search: searchAcrossEntities' rules over one type, at most 1,000 a page, with facets. */
async function search(ctx: GraphqlContext, input: SearchInput, info: GraphQLResolveInfo) {
  const start = input.start ?? 0;
  const count = input.count ?? 10;
  if (start < 0) throw badRequest('start must not be negative');
  if (count < 0 || count > MAX_SEARCH_COUNT) throw badRequest(`count must be from 0 to ${MAX_SEARCH_COUNT}`);
  return searchResults(ctx, info, searchRequest({ ...input, types: [input.type] }), start, count, input.searchFlags?.skipAggregates === true);
}

export const searchModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: { search: (_s, { input }: { input: SearchInput }, ctx, info) => search(ctx, input, info) },
  },
};
