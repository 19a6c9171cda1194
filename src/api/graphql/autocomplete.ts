import { badRequest } from '../../catalog/errors.ts';
import type { SearchHit } from '../../catalog/search/entity-search.ts';
import { entityRef } from './entity-refs.ts';
import { DEFAULT_SEARCH_TYPES } from './entity-types.ts';
import type { AndFilter, FacetFilter } from './filters.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';
import { facets, searchRequest } from './search-across.ts';

/** DataHub's default number of suggestions, and Almanac's bound on one request's. */
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

const typeDefs = /* GraphQL */ `
  input AutoCompleteInput {
    type: EntityType
    query: String!
    field: String
    limit: Int
    filters: [FacetFilterInput!]
    orFilters: [AndFilterInput!]
  }

  input AutoCompleteMultipleInput {
    types: [EntityType!]
    query: String!
    field: String
    limit: Int
    filters: [FacetFilterInput!]
    orFilters: [AndFilterInput!]
    viewUrn: String
  }

  type AutoCompleteResults {
    query: String!
    suggestions: [String!]!
    entities: [Entity!]!
  }

  type AutoCompleteResultForEntity {
    type: EntityType!
    suggestions: [String!]!
    entities: [Entity!]!
  }

  type AutoCompleteMultipleResults {
    query: String!
    suggestions: [AutoCompleteResultForEntity!]!
  }

  input AggregateAcrossEntitiesInput {
    types: [EntityType!]
    query: String!
    facets: [String]
    orFilters: [AndFilterInput!]
    viewUrn: String
    searchFlags: SearchFlags
  }

  type AggregateResults {
    facets: [FacetMetadata!]
  }

  extend type Query {
    "Entities whose name (or the given field) starts with the query's words, ranked, with their names as suggestions."
    autoComplete(input: AutoCompleteInput!): AutoCompleteResults
    "autoComplete per entity type."
    autoCompleteForMultiple(input: AutoCompleteMultipleInput!): AutoCompleteMultipleResults
    "Facet counts over every match, without the matches."
    aggregateAcrossEntities(input: AggregateAcrossEntitiesInput!): AggregateResults
  }
`;

interface AutoCompleteInput {
  query: string;
  field?: string | null;
  limit?: number | null;
  filters?: readonly FacetFilter[] | null;
  orFilters?: readonly AndFilter[] | null;
  viewUrn?: string | null;
}

function limitOf(limit: number | null | undefined): number {
  const n = limit ?? DEFAULT_LIMIT;
  if (n < 1 || n > MAX_LIMIT) throw badRequest(`limit must be from 1 to ${MAX_LIMIT}, got ${n}`);
  return n;
}

async function complete(ctx: GraphqlContext, input: AutoCompleteInput, types: readonly string[]) {
  const { query: _query, ...req } = searchRequest({ ...input, query: '*', types });
  const hits = await ctx.app.search.autocomplete(req, input.query, input.field ?? undefined, limitOf(input.limit));
  // Read only when the operation selects `entities` (the types' resolvers below): suggestions alone are names.
  const entities = async () => (await Promise.all(hits.map((h: SearchHit) => entityRef(ctx, h.urn)))).filter((e) => e !== null);
  const suggestions = [...new Set(hits.map((h) => h.name ?? h.urn))];
  return { hits, suggestions, entities };
}

export const autocompleteModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    AutoCompleteResults: { entities: (r: { entities: () => Promise<unknown[]> }) => r.entities() },
    AutoCompleteResultForEntity: { entities: (r: { entities: () => Promise<unknown[]> }) => r.entities() },
    Query: {
      autoComplete: async (_s, { input }: { input: AutoCompleteInput & { type?: string | null } }, ctx) => {
        const { suggestions, entities } = await complete(ctx, input, input.type ? [input.type] : DEFAULT_SEARCH_TYPES);
        return { query: input.query, suggestions, entities };
      },
      autoCompleteForMultiple: async (_s, { input }: { input: AutoCompleteInput & { types?: readonly string[] | null } }, ctx) => {
        const types = input.types && input.types.length > 0 ? input.types : DEFAULT_SEARCH_TYPES;
        const perType = await Promise.all(
          types.map(async (type) => {
            const { hits, suggestions, entities } = await complete(ctx, input, [type]);
            return { type, suggestions, entities, found: hits.length > 0 };
          }),
        );
        return { query: input.query, suggestions: perType.filter((r) => r.found) };
      },
      aggregateAcrossEntities: async (
        _s,
        {
          input,
        }: {
          input: {
            types?: readonly string[] | null;
            query: string;
            facets?: readonly (string | null)[] | null;
            orFilters?: readonly AndFilter[] | null;
            viewUrn?: string | null;
            searchFlags?: { includeSoftDeleted?: boolean | null } | null;
          };
        },
        ctx,
      ) => {
        const req = searchRequest(input);
        const wanted = (input.facets ?? []).filter((f): f is string => typeof f === 'string');
        return { facets: await facets(ctx, req, wanted.length > 0 ? wanted : undefined) };
      },
    },
  },
};
