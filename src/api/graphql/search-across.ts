import { badRequest } from '../../catalog/errors.ts';
import type { GraphQLResolveInfo } from 'graphql';
import type { EntitySearchRequest, SearchPage } from '../../catalog/search/entity-search.ts';
import { facetDisplayName, SEARCH_FACETS, sortedFacetValues } from '../../catalog/search/search-facets.ts';
import { fullTextQuery, type SearchFilter, type SortCriterion } from '../../catalog/search/search-filter.ts';
import { entityRef, hitRefs } from './entity-refs.ts';
import { DEFAULT_SEARCH_TYPES, entityOfType, typeOfEntity, typenameOfEntity } from './entity-types.ts';
import { inputFilter, type AndFilter, type FacetFilter, type SortInput } from './filters.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';
import { selectedFields } from './selected-fields.ts';
import type { FacetCounts } from '../../storage/store.ts';

export const MAX_SEARCH_ACROSS_COUNT = 10_000;

const typeDefs = /* GraphQL */ `
  "DataHub's search options. Almanac honours includeSoftDeleted and skipAggregates; the others only tune an index it does not have."
  input SearchFlags {
    skipCache: Boolean
    maxAggValues: Int
    fulltext: Boolean
    skipHighlighting: Boolean
    skipAggregates: Boolean
    getSuggestions: Boolean
    includeSoftDeleted: Boolean
    includeRestricted: Boolean
    customHighlightingFields: [String!]
    includeStructuredPropertyFacets: Boolean
    filterNonLatestVersions: Boolean
    "searchAcrossLineage reports schema fields as their datasets unless this names no SCHEMA_FIELD to DATASET criterion; other searches ignore it."
    groupingSpec: GroupingSpec
  }

  input GroupingCriterion {
    baseEntityType: EntityType
    groupingEntityType: EntityType!
  }

  input GroupingSpec {
    groupingCriteria: [GroupingCriterion!]
  }

  """
  types: the types searched (DataHub's default list when none); query: * or empty for all, else a
  case-insensitive substring of the urn or any searchable value (no tokens, ranking or query syntax);
  orFilters: DataHub's searchable field names (platform, origin, removed, created, customProperties, ...).
  """
  input SearchAcrossEntitiesInput {
    types: [EntityType!]
    query: String!
    start: Int
    count: Int
    filters: [FacetFilterInput!] @deprecated(reason: "Use orFilters: they are more expressive")
    orFilters: [AndFilterInput!]
    "Views are not supported: a viewUrn is refused."
    viewUrn: String
    searchFlags: SearchFlags
    sortInput: SearchSortInput
  }

  input ScrollAcrossEntitiesInput {
    types: [EntityType!]
    query: String!
    "A nextScrollId from the previous page; none for the first."
    scrollId: String
    "Accepted and ignored: Almanac's scroll ids do not expire."
    keepAlive: String
    count: Int
    orFilters: [AndFilterInput!]
    viewUrn: String
    searchFlags: SearchFlags
    sortInput: SearchSortInput
  }

  type ExtraProperty {
    name: String!
    value: String!
  }

  extend type AggregationMetadata {
    "The entity the value names (a tag, owner, platform, ...), or null when the value is no urn Almanac has a type for."
    entity: Entity
  }

  extend type SearchResult {
    "Always empty in Almanac."
    extraProperties: [ExtraProperty!]
  }

  type ScrollResults {
    "Null when there is nothing more."
    nextScrollId: String
    count: Int!
    "Counted only when selected: a pass over every entity of the types searched."
    total: Int!
    searchResults: [SearchResult!]!
    "Counts per value of the filters DataHub's UI shows, over every match (empty with skipAggregates)."
    facets: [FacetMetadata!]
  }

  extend type Query {
    "DataHub's search across entity types, a page by start and count."
    searchAcrossEntities(input: SearchAcrossEntitiesInput!): SearchResults
    "DataHub's scroll across entity types, a page at a time by scroll id."
    scrollAcrossEntities(input: ScrollAcrossEntitiesInput!): ScrollResults
  }
`;

export interface CommonInput {
  types?: readonly string[] | null;
  query: string;
  count?: number | null;
  filters?: readonly FacetFilter[] | null;
  orFilters?: readonly AndFilter[] | null;
  viewUrn?: string | null;
  searchFlags?: { includeSoftDeleted?: boolean | null; skipAggregates?: boolean | null } | null;
  sortInput?: SortInput | null;
}

/** DataHub's rules: orFilters when given, else the deprecated filters as one conjunction; the default types when none. */
export function searchRequest(input: CommonInput): EntitySearchRequest {
  if (input.viewUrn) throw badRequest('viewUrn: views are not supported by Almanac');
  const types = input.types && input.types.length > 0 ? input.types : DEFAULT_SEARCH_TYPES;
  const entityTypes = types.map((t) => {
    const entity = entityOfType(t);
    if (!entity || !typenameOfEntity(entity)) throw badRequest(`types: Almanac does not search entities of type ${t}`);
    return entity;
  });
  const filter: SearchFilter = inputFilter(input.orFilters, input.filters);
  const sortInput = input.sortInput;
  const sort: SortCriterion[] = (sortInput?.sortCriteria ?? (sortInput?.sortCriterion ? [sortInput.sortCriterion] : [])).map((c) => ({
    field: c.field,
    order: c.sortOrder,
  }));
  return {
    entityTypes: [...new Set(entityTypes)],
    query: fullTextQuery(input.query),
    filter,
    includeSoftDeleted: input.searchFlags?.includeSoftDeleted === true,
    sort,
  };
}

function pageCount(count: number | null | undefined): number {
  const n = count ?? 10;
  if (n < 0 || n > MAX_SEARCH_ACROSS_COUNT) throw badRequest(`count must be from 0 to ${MAX_SEARCH_ACROSS_COUNT}, got ${n}`);
  return n;
}

/** Facet counts as GraphQL answers them, most frequent value first: the default facets, or those named. */
export function facetsOf(counts: FacetCounts | undefined, fields?: readonly string[]) {
  const shown = fields === undefined ? SEARCH_FACETS : fields.map((f) => [f, facetDisplayName(f)] as const);
  return shown.map(([field, displayName]) => ({
    field,
    displayName,
    aggregations: sortedFacetValues(counts?.get(field))
      // Entity types as GraphQL names them (DATASET), as DataHub's `_entityType` aggregation does.
      .map(([value, count]) => ({ value: field === '_entityType' ? typeOfEntity(value) : value, count })),
  }));
}

/** Facet counts over every match, most frequent value first. */
export async function facets(ctx: GraphqlContext, req: EntitySearchRequest, fields?: readonly string[]) {
  return facetsOf(await ctx.app.search.aggregate(req, fields ?? SEARCH_FACETS.map(([field]) => field)), fields);
}

/**
 * One offset page of `search` or `searchAcrossEntities`: its total and facets, when selected, are read with the page,
 * in one pass over the matches (and not read at all when not selected).
 */
export async function searchResults(
  ctx: GraphqlContext,
  info: GraphQLResolveInfo,
  req: EntitySearchRequest,
  start: number,
  count: number,
  skipAggregates: boolean,
) {
  const selected = selectedFields(info);
  const withFacets = !skipAggregates && selected.has('facets');
  const page = await ctx.app.search.page(req, start, count, {
    total: selected.has('total'),
    ...(withFacets ? { facets: SEARCH_FACETS.map(([field]) => field) } : {}),
  });
  return { start, ...(await results(ctx, page, info)), facets: withFacets ? facetsOf(page.facets) : [] };
}

/** A page's hits as SearchResults; with `info`, each entity reads only what the fields selected on it need (hitRefs). */
export async function results(ctx: GraphqlContext, page: SearchPage, info?: GraphQLResolveInfo) {
  const entities = info
    ? await hitRefs(
        ctx,
        page.hits.map((h) => h.urn),
        selectedFields(info, ['searchResults', 'entity']),
      )
    : (await Promise.all(page.hits.map((h) => entityRef(ctx, h.urn)))).filter((e) => e !== null);
  return {
    count: page.hits.length,
    // Resolved only when selected.
    total: () => page.total(),
    searchResults: entities.map((entity) => ({ entity, matchedFields: [], extraProperties: [] })),
    facets: [],
  };
}

export const searchAcrossModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      searchAcrossEntities: async (_s, { input }: { input: CommonInput & { start?: number | null } }, ctx, info) => {
        const start = input.start ?? 0;
        if (start < 0) throw badRequest('start must not be negative');
        return searchResults(ctx, info, searchRequest(input), start, pageCount(input.count), input.searchFlags?.skipAggregates === true);
      },
      scrollAcrossEntities: async (_s, { input }: { input: CommonInput & { scrollId?: string | null } }, ctx, info) => {
        const page = await ctx.app.search.scroll(searchRequest(input), input.scrollId ?? undefined, pageCount(input.count));
        return { nextScrollId: page.nextScrollId ?? null, ...(await results(ctx, page, info)) };
      },
    },
    ScrollResults: { total: (r: { total: () => Promise<number> }) => r.total() },
    SearchResults: {
      total: (r: { total: number | (() => Promise<number>) }) => (typeof r.total === 'function' ? r.total() : r.total),
    },
    AggregationMetadata: { entity: (a: { value: string }, _args, ctx) => (a.value.startsWith('urn:li:') ? entityRef(ctx, a.value) : null) },
  },
};
