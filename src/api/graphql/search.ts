import { badRequest } from '../../catalog/errors.ts';
import { parseDatasetUrn } from '../../catalog/urn.ts';
import type { FacetFilter } from './filters.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

export const MAX_SEARCH_COUNT = 1000;
/** The aspects a search result's Dataset may show. */
const RESULT_ASPECTS = ['datasetProperties', 'deprecation', 'schemaMetadata', 'status'];

const typeDefs = /* GraphQL */ `
  input SearchInput {
    "Only DATASET is searchable in Almanac."
    type: EntityType!
    "A case-insensitive substring of the dataset's platform and name; * or empty matches all."
    query: String!
    start: Int
    count: Int
    "platform (e.g. hive) and deprecated (true or false)."
    filters: [FacetFilterInput!]
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
    "Datasets whose urn contains the query, filtered by platform and deprecation, with facet counts."
    search(input: SearchInput!): SearchResults
  }
`;

interface SearchInput {
  type: string;
  query: string;
  start?: number | null;
  count?: number | null;
  filters?: FacetFilter[] | null;
}

/** The one value of a supported filter; several values or negation are refused clearly rather than ignored. */
function filterValue(f: FacetFilter, i: number): string {
  const values = f.values ?? [];
  if (f.negated || values.length !== 1 || (f.condition ?? 'EQUAL') !== 'EQUAL')
    throw badRequest(`filters[${i}] (${f.field}): give exactly one value, EQUAL, not negated`);
  return values[0]!;
}

async function search(ctx: GraphqlContext, input: SearchInput) {
  if (input.type !== 'DATASET') throw badRequest(`search supports type DATASET only, got ${input.type}`);
  const start = input.start ?? 0;
  const count = input.count ?? 10;
  if (start < 0) throw badRequest('start must not be negative');
  if (count < 0 || count > MAX_SEARCH_COUNT) throw badRequest(`count must be from 0 to ${MAX_SEARCH_COUNT}`);
  let platform: string | undefined;
  let deprecated: boolean | undefined;
  for (const [i, f] of (input.filters ?? []).entries()) {
    const v = filterValue(f, i);
    if (f.field === 'platform') platform = v.startsWith('urn:li:dataPlatform:') ? v.slice('urn:li:dataPlatform:'.length) : v;
    else if (f.field === 'deprecated') {
      if (v !== 'true' && v !== 'false') throw badRequest(`filters[${i}] (deprecated): value must be true or false, got ${v}`);
      deprecated = v === 'true';
    } else throw badRequest(`filters[${i}]: unknown filter field ${f.field}; use platform or deprecated`);
  }
  const text = input.query.trim() === '' || input.query.trim() === '*' ? undefined : input.query.trim();
  const page = await ctx.app.search.datasets({ text, platform, deprecated, start, count });
  const results = await Promise.all(
    // __typename tells graphql-js which Entity implementation this is.
    page.urns.map(async (urn) => ({
      __typename: 'Dataset',
      urn,
      key: parseDatasetUrn(urn),
      aspects: (await ctx.entities.load(urn, RESULT_ASPECTS)) ?? new Map(),
    })),
  );
  return {
    start,
    count: results.length,
    total: page.total,
    searchResults: results.map((entity) => ({ entity, matchedFields: text ? [{ name: 'urn', value: entity.urn }] : [] })),
    facets: [
      { field: 'platform', displayName: 'Platform', aggregations: page.platformCounts },
      { field: 'deprecated', displayName: 'Deprecated', aggregations: page.deprecatedCounts },
    ],
  };
}

export const searchModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: { search: (_s, { input }: { input: SearchInput }, ctx) => search(ctx, input) },
  },
};
