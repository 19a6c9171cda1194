import { badRequest } from '../../catalog/errors.ts';
import type { EntitySearchRequest } from '../../catalog/search/entity-search.ts';
import { fullTextQuery, type SearchCriterion, type SearchFilter } from '../../catalog/search/search-filter.ts';
import { parseUrn } from '../../catalog/urn.ts';
import { browsePaths, browsePathV2, type BrowsePathEntry } from './browse-paths.ts';
import { entityRef } from './entity-refs.ts';
import { listPaging } from './entity-search-fields.ts';
import { DEFAULT_SEARCH_TYPES, entityOfType, typenameOfEntity } from './entity-types.ts';
import { inputFilter, type AndFilter, type FacetFilter } from './filters.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/**
 * DataHub's browse (v1, over browsePaths), browseV2 (over browsePathsV2) and
 * browsePaths. v1 reads the search index's browsePaths values; v2 groups the
 * paths of the entities the index narrows to, read with their defaults, at
 * most MAX_BROWSE_SCAN entities a request.
 */
const typeDefs = /* GraphQL */ `
  type BrowsePath {
    path: [String!]!
  }

  type BrowsePathEntry {
    name: String!
    entity: Entity
  }

  type BrowsePathV2 {
    path: [BrowsePathEntry!]!
  }

  input BrowsePathsInput {
    type: EntityType!
    urn: String!
  }

  input BrowseInput {
    type: EntityType!
    path: [String!]
    start: Int
    count: Int
    filters: [FacetFilterInput!] @deprecated(reason: "Use orFilters: they are more expressive")
    orFilters: [AndFilterInput!]
  }

  type BrowseResultGroup {
    name: String!
    count: Long!
  }

  type BrowseResultMetadata {
    path: [String!]!
    totalNumEntities: Long!
  }

  type BrowseResults {
    entities: [Entity!]!
    groups: [BrowseResultGroup!]!
    start: Int!
    count: Int!
    total: Int!
    metadata: BrowseResultMetadata!
  }

  input BrowseV2Input {
    type: EntityType
    types: [EntityType!]
    path: [String!]
    start: Int
    count: Int
    orFilters: [AndFilterInput!]
    "Views are not supported: a viewUrn is refused."
    viewUrn: String
    query: String
    searchFlags: SearchFlags
  }

  type BrowseResultGroupV2 {
    name: String!
    entity: Entity
    count: Long!
    hasSubGroups: Boolean!
  }

  type BrowseResultsV2 {
    groups: [BrowseResultGroupV2!]!
    start: Int!
    count: Int!
    total: Int!
    metadata: BrowseResultMetadata!
  }

  extend type Query {
    "The entity's browse paths (v1): the stored ones, else DataHub's default."
    browsePaths(input: BrowsePathsInput!): [BrowsePath!]
    "The groups under a browse path (v1) and the entities at it; groups first, then entities, a page by start and count."
    browse(input: BrowseInput!): BrowseResults
    "The folders under a browse path (v2) with how many entities each holds."
    browseV2(input: BrowseV2Input!): BrowseResultsV2
  }
`;

const DEFAULT_COUNT = 10;
/** The most entities one browseV2 reads the paths of. */
export const MAX_BROWSE_SCAN = 10_000;
const SCAN_PAGE = 1000;
const V2_DELIMITER = '\u241f';

function browsedEntity(type: string, field: string): string {
  const entity = entityOfType(type);
  if (!entity || !typenameOfEntity(entity)) throw badRequest(`${field}: Almanac does not browse entities of type ${type}`);
  return entity;
}

/** The user's filter AND each alternative of `also` (a disjunction): (a OR b) AND c is (a AND c) OR (b AND c). */
function combine(user: SearchFilter, also: readonly (readonly SearchCriterion[])[]): SearchFilter {
  const groups = user.length > 0 ? user : [[]];
  return groups.flatMap((g) => also.map((a) => [...g, ...a]));
}

interface BrowseInput {
  type: string;
  path?: readonly string[] | null;
  start?: number | null;
  count?: number | null;
  filters?: readonly FacetFilter[] | null;
  orFilters?: readonly AndFilter[] | null;
}

/** v1, as DataHub's ESBrowseDAO: groups (the next folder of every deeper path, with its entities) come before entities at the path. */
async function browse(ctx: GraphqlContext, input: BrowseInput) {
  const entity = browsedEntity(input.type, 'type');
  const { start, count } = listPaging(input, DEFAULT_COUNT, '');
  const segments = input.path ?? [];
  const path = segments.length > 0 ? `/${segments.join('/')}` : '';
  const user = inputFilter(input.orFilters, input.filters);
  const base = { entityTypes: [entity], query: undefined, includeSoftDeleted: false, sort: [] };
  const deeper: EntitySearchRequest = { ...base, filter: combine(user, [[{ field: 'browsePaths', values: [`${path}/`], condition: 'START_WITH' }]]) };
  const facet = (await ctx.app.search.aggregate(deeper, ['browsePaths'])).get('browsePaths') ?? new Map<string, number>();
  const groupCounts = new Map<string, number>();
  for (const [value, n] of facet) {
    if (!value.toLowerCase().startsWith(`${path}/`.toLowerCase())) continue;
    const name = value.slice(path.length + 1).split('/')[0];
    if (name) groupCounts.set(name, (groupCounts.get(name) ?? 0) + n);
  }
  const groups = [...groupCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name, n]) => ({ name, count: n }));
  const entityFrom = Math.max(start - groups.length, 0);
  const entitySize = Math.min(Math.max(start + count - groups.length, 0), count);
  // Entities sit at a path, none at the root (DataHub's depth-0 query matches nothing).
  const here: EntitySearchRequest = { ...base, filter: combine(user, [[{ field: 'browsePaths', values: [path] }]]) };
  const page = path === '' ? undefined : await ctx.app.search.page(here, entityFrom, entitySize);
  const totalHere = page ? await page.total() : 0;
  const entities = (await Promise.all((page?.hits ?? []).map((h) => entityRef(ctx, h.urn)))).filter((e) => e !== null);
  const totalDeeper = groups.length > 0 ? await (await ctx.app.search.page(deeper, 0, 0)).total() : 0;
  // DataHub's BrowseResultMapper: total counts groups and entities; count is the page size.
  return {
    entities,
    groups: groups.slice(start, start + count),
    start,
    count,
    total: groups.length + totalHere,
    metadata: { path: segments, totalNumEntities: totalDeeper },
  };
}

interface BrowseV2Input {
  type?: string | null;
  types?: readonly string[] | null;
  path?: readonly string[] | null;
  start?: number | null;
  count?: number | null;
  orFilters?: readonly AndFilter[] | null;
  viewUrn?: string | null;
  query?: string | null;
  searchFlags?: { includeSoftDeleted?: boolean | null } | null;
}

interface Group {
  name: string;
  urn?: string;
  count: number;
  hasSubGroups: boolean;
}

/** v2, as DataHub's browseV2: the folders one level below the path, each with how many entities lie anywhere beneath it. */
async function browseV2(ctx: GraphqlContext, input: BrowseV2Input) {
  if (input.viewUrn) throw badRequest('viewUrn: views are not supported by Almanac');
  const types = input.types && input.types.length > 0 ? input.types : input.type ? [input.type] : DEFAULT_SEARCH_TYPES;
  const entityTypes = [...new Set(types.map((t) => browsedEntity(t, 'types')))];
  const { start, count } = listPaging(input, DEFAULT_COUNT, '');
  const segments = input.path ?? [];
  // The index holds each stored entry's id: an entity beneath the path holds them all, or stores no path (its default is read).
  const narrowing: SearchCriterion[][] = [
    segments.map((id) => ({ field: 'browsePathV2', values: [id] })),
    [{ field: 'browsePathV2', values: [], condition: 'EXISTS', negated: true }],
  ];
  const req: EntitySearchRequest = {
    entityTypes,
    query: fullTextQuery(input.query),
    filter: combine(inputFilter(input.orFilters), narrowing),
    includeSoftDeleted: input.searchFlags?.includeSoftDeleted === true,
    sort: [],
  };
  const groups = new Map<string, Group>();
  let beneath = 0;
  let scrollId: string | undefined;
  let scanned = 0;
  do {
    const page = await ctx.app.search.scroll(req, scrollId, SCAN_PAGE);
    scrollId = page.nextScrollId;
    scanned += page.hits.length;
    const paths = await Promise.all(page.hits.map((h) => browsePathV2(ctx, h.urn)));
    for (const p of paths) {
      if (p.length <= segments.length || !segments.every((s, i) => p[i]!.id === s)) continue;
      beneath++;
      const entry: BrowsePathEntry = p[segments.length]!;
      const g = groups.get(entry.id) ?? { name: entry.id, ...(entry.urn ? { urn: entry.urn } : {}), count: 0, hasSubGroups: false };
      g.count++;
      g.hasSubGroups ||= p.length > segments.length + 1;
      groups.set(entry.id, g);
    }
  } while (scrollId && scanned < MAX_BROWSE_SCAN);
  const sorted = [...groups.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return {
    groups: await Promise.all(
      sorted.slice(start, start + count).map(async (g) => ({
        name: g.name,
        entity: g.urn ? await entityRef(ctx, g.urn) : null,
        count: g.count,
        hasSubGroups: g.hasSubGroups,
      })),
    ),
    start,
    count,
    total: sorted.length,
    metadata: {
      path: segments
        .join(V2_DELIMITER)
        .split(V2_DELIMITER)
        .filter((s) => s !== ''),
      totalNumEntities: beneath,
    },
  };
}

export const browseModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      browsePaths: async (_s, { input }: { input: { type: string; urn: string } }, ctx) => {
        const entity = browsedEntity(input.type, 'type');
        let parsed;
        try {
          parsed = parseUrn(input.urn);
        } catch (e) {
          throw badRequest(`urn: ${(e as Error).message}`);
        }
        if (parsed.entityType.toLowerCase() !== entity.toLowerCase()) throw badRequest(`urn: ${input.urn} is not an entity of type ${input.type}`);
        return (await browsePaths(ctx, input.urn)).map((p) => ({ path: p.split('/').filter((s) => s !== '') }));
      },
      browse: (_s, { input }: { input: BrowseInput }, ctx) => browse(ctx, input),
      browseV2: (_s, { input }: { input: BrowseV2Input }, ctx) => browseV2(ctx, input),
    },
  },
};
