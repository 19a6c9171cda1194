import { badRequest } from '../../catalog/errors.ts';
import type { LineageRelationship } from '../../catalog/relationships/relationship-service.ts';
import { fullTextQuery, type SearchFilter } from '../../catalog/search/search-filter.ts';
import { parseUrn } from '../../catalog/urn.ts';
import { entityRef } from './entity-refs.ts';
import { entityOfType } from './entity-types.ts';
import { searchFilterOf, type AndFilter, type FacetFilter } from './filters.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** DataHub's impact-analysis bound (elasticsearch.search.graph.impact.maxHops) when no degree filter narrows the walk. */
const MAX_HOPS = 1000;
/** Entities one walk reports at most (DataHub's graph result limit). */
const MAX_RESULTS = 10_000;

const typeDefs = /* GraphQL */ `
  enum LineageDirection {
    UPSTREAM
    DOWNSTREAM
  }

  "Accepted for DataHub's clients; Almanac keeps no edge timestamps or hop limits to apply them to."
  input LineageFlags {
    entitiesExploredPerHopLimit: Int
    startTimeMillis: Long
    endTimeMillis: Long
  }

  """
  urn: where the walk starts; direction: UPSTREAM or DOWNSTREAM; filters and orFilters: "degree" (values 1,
  2 and 3+) narrows the walk, as DataHub's does; any other field (removed, platform, _entityType, tags, ...)
  is matched against the reached entities' search documents; types: the entity types reported.
  A query other than * or empty is refused: Almanac does not search within lineage.
  """
  input SearchAcrossLineageInput {
    urn: String
    direction: LineageDirection!
    types: [EntityType!]
    query: String
    start: Int
    count: Int
    filters: [FacetFilterInput!]
    orFilters: [AndFilterInput!]
    startTimeMillis: Long
    endTimeMillis: Long
    searchFlags: SearchFlags
    lineageFlags: LineageFlags
  }

  input ScrollAcrossLineageInput {
    urn: String
    direction: LineageDirection!
    types: [EntityType!]
    query: String
    "A nextScrollId from the previous page; none for the first."
    scrollId: String
    keepAlive: String
    count: Int
    orFilters: [AndFilterInput!]
    startTimeMillis: Long
    endTimeMillis: Long
    searchFlags: SearchFlags
    lineageFlags: LineageFlags
  }

  type EntityPath {
    path: [Entity]!
  }

  type SearchAcrossLineageResult {
    entity: Entity!
    matchedFields: [MatchedField!]!
    "From the start entity to this one, one path per neighbour that reached it at its degree."
    paths: [EntityPath]
    degree: Int!
    degrees: [Int!]
    explored: Boolean!
    truncatedChildren: Boolean!
    ignoredAsHop: Boolean!
  }

  type SearchAcrossLineageResults {
    start: Int!
    count: Int!
    total: Int!
    searchResults: [SearchAcrossLineageResult!]!
    facets: [FacetMetadata!]
  }

  type ScrollAcrossLineageResults {
    nextScrollId: String
    count: Int!
    total: Int!
    searchResults: [SearchAcrossLineageResult!]!
    facets: [FacetMetadata!]
  }

  extend type Query {
    "DataHub's lineage search: the entities up or downstream of urn, nearest first, a page by start and count."
    searchAcrossLineage(input: SearchAcrossLineageInput!): SearchAcrossLineageResults
    "The same walk, a page at a time by scroll id."
    scrollAcrossLineage(input: ScrollAcrossLineageInput!): ScrollAcrossLineageResults
  }
`;

interface LineageInput {
  urn?: string | null;
  direction: 'UPSTREAM' | 'DOWNSTREAM';
  types?: readonly string[] | null;
  query?: string | null;
  count?: number | null;
  filters?: readonly FacetFilter[] | null;
  orFilters?: readonly AndFilter[] | null;
  searchFlags?: { groupingSpec?: { groupingCriteria?: readonly GroupingCriterion[] | null } | null } | null;
}

interface GroupingCriterion {
  readonly baseEntityType?: string | null;
  readonly groupingEntityType: string;
}

/** The dataset a schemaField urn names. */
function datasetOfField(urn: string): string {
  const parsed = parseUrn(urn);
  return parsed.entityType === 'schemaField' && parsed.parts[0] ? parsed.parts[0] : urn;
}

/**
 * DataHub's schema field grouping (LineageSearchService): each schema field reached is reported as its dataset, once,
 * at the nearest degree, with the paths through each of its fields reached there. A scroll always groups; a search groups unless
 * its groupingSpec names no SCHEMA_FIELD to DATASET criterion (none given means DataHub's default, which does).
 */
function grouped(input: LineageInput, reached: readonly LineageRelationship[], always: boolean): LineageRelationship[] {
  const criteria = input.searchFlags?.groupingSpec?.groupingCriteria;
  const toDataset =
    always || !criteria || criteria.some((c) => (c.baseEntityType ?? 'SCHEMA_FIELD') === 'SCHEMA_FIELD' && c.groupingEntityType === 'DATASET');
  if (!toDataset) return [...reached];
  const start = input.urn ? datasetOfField(input.urn) : '';
  const byEntity = new Map<string, { relationship: LineageRelationship; paths: (readonly string[])[] }>();
  for (const r of reached) {
    const entity = datasetOfField(r.entity);
    if (entity === start) continue;
    const first = byEntity.get(entity);
    // Reached through several of its fields at its nearest degree: one result with each field's paths.
    if (first) {
      if (first.relationship.degree === r.degree) first.paths.push(...r.paths);
    } else byEntity.set(entity, { relationship: { ...r, entity }, paths: [...r.paths] });
  }
  return [...byEntity.values()].map(({ relationship, paths }) => ({ ...relationship, paths }));
}

/** DataHub's degree values and what each admits. */
const DEGREES: Readonly<Record<string, (d: number) => boolean>> = { '1': (d) => d === 1, '2': (d) => d === 2, '3+': (d) => d > 2 };

/** The degree filter's values, read from every criterion named degree (as DataHub does); a bad value is refused. */
function degreeValues(criteria: readonly FacetFilter[]): string[] {
  const values: string[] = [];
  for (const c of criteria) {
    if (c.field !== 'degree') continue;
    for (const v of c.values ?? []) {
      if (!DEGREES[v]) throw badRequest(`filters: ${v} is not a valid filter value for degree filters (1, 2 or 3+)`);
      values.push(v);
    }
  }
  return values;
}

/** As DataHub's getMaxHops: 3+ (or no degree filter) walks to the bound, else as far as the largest degree asked. */
const maxHopsFor = (degrees: readonly string[]): number =>
  degrees.length === 0 || degrees.includes('3+') ? MAX_HOPS : degrees.includes('2') ? 2 : 1;

/** Urns one filtering search names at once. */
const FILTER_CHUNK = 1000;

/**
 * The criteria other than degree (removed, platform, tags, entity type, ...), applied as DataHub applies them: to
 * the search documents of the entities the walk reached. An entity without one (a reference never ingested) is left
 * out then, as DataHub's search leaves it out.
 */
async function matchingUrns(ctx: GraphqlContext, urns: readonly string[], groups: SearchFilter): Promise<Set<string>> {
  const entityTypes = [...new Set(urns.map((u) => parseUrn(u).entityType))];
  const matched = new Set<string>();
  for (let i = 0; i < urns.length; i += FILTER_CHUNK) {
    const chunk = urns.slice(i, i + FILTER_CHUNK);
    const filter = groups.map((g) => [...g, { field: 'urn', values: chunk }]);
    const page = await ctx.app.search.page({ entityTypes, query: undefined, filter, includeSoftDeleted: false, sort: [] }, 0, chunk.length);
    for (const h of page.hits) matched.add(h.urn);
  }
  return matched;
}

/** Every entity the walk reports, nearest first, after the degree, type and field filters. */
async function walk(ctx: GraphqlContext, input: LineageInput, scroll: boolean): Promise<LineageRelationship[]> {
  if (!input.urn) throw badRequest('urn: the entity to start the lineage search from is required');
  parseUrn(input.urn);
  if (fullTextQuery(input.query) !== undefined) throw badRequest('query: Almanac does not search within lineage; pass * or leave it empty');
  const groups: (readonly FacetFilter[])[] =
    input.orFilters && input.orFilters.length > 0
      ? input.orFilters.map((g) => g.and ?? [])
      : input.filters && input.filters.length > 0
        ? [input.filters]
        : [];
  const degrees = degreeValues(groups.flat());
  const others: SearchFilter = searchFilterOf(groups.map((g) => ({ and: g.filter((c) => c.field !== 'degree') }))).filter((g) => g.length > 0);
  const types = (input.types ?? []).map((t) => {
    const entity = entityOfType(t);
    if (!entity) throw badRequest(`types: Almanac has no entities of type ${t}`);
    return entity.toLowerCase();
  });
  const result = await ctx.app.relationships.lineage({
    urn: input.urn,
    direction: input.direction,
    start: 0,
    count: MAX_RESULTS,
    maxHops: maxHopsFor(degrees),
    reportVia: true,
  });
  const reached = grouped(input, result.relationships, scroll).filter(
    (r) =>
      (degrees.length === 0 || degrees.some((v) => DEGREES[v]!(r.degree))) &&
      // With no types asked, DataHub's searchable types: a query is only ever a via entity, and not one of them.
      (types.length === 0 ? parseUrn(r.entity).entityType !== 'query' : types.includes(parseUrn(r.entity).entityType.toLowerCase())),
  );
  if (others.length === 0) return reached;
  const matched = await matchingUrns(
    ctx,
    reached.map((r) => r.entity),
    others,
  );
  return reached.filter((r) => matched.has(r.entity));
}

function pageCount(count: number | null | undefined): number {
  const n = count ?? 10;
  if (n < 0 || n > MAX_RESULTS) throw badRequest(`count must be from 0 to ${MAX_RESULTS}, got ${n}`);
  return n;
}

/** DataHub's EntityPath list: each path's urns as entities. */
export const entityPaths = (ctx: GraphqlContext, paths: readonly (readonly string[])[]) =>
  Promise.all(paths.map(async (p) => ({ path: await Promise.all(p.map((u) => entityRef(ctx, u))) })));

async function results(ctx: GraphqlContext, page: readonly LineageRelationship[]) {
  const rows = await Promise.all(
    page.map(async (r) => ({
      entity: await entityRef(ctx, r.entity),
      matchedFields: [],
      paths: await entityPaths(ctx, r.paths),
      degree: r.degree,
      degrees: [r.degree],
      explored: true,
      truncatedChildren: false,
      ignoredAsHop: false,
    })),
  );
  return rows.filter((r) => r.entity !== null);
}

const encodeOffset = (n: number): string => Buffer.from(JSON.stringify({ lineageOffset: n })).toString('base64url');
function decodeOffset(scrollId: string): number {
  try {
    const n: unknown = (JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as { lineageOffset?: unknown }).lineageOffset;
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0) return n;
  } catch {
    // answered below
  }
  throw badRequest(`scrollId: ${scrollId} is not a scroll id this server returned`);
}

/** GraphQL searchAcrossLineage and scrollAcrossLineage, answered by a walk of the relationship index (one read per hop). */
export const lineageSearchModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: {
      searchAcrossLineage: async (_s, { input }: { input: LineageInput & { start?: number | null } }, ctx) => {
        const start = input.start ?? 0;
        if (start < 0) throw badRequest('start must not be negative');
        const all = await walk(ctx, input, false);
        const searchResults = await results(ctx, all.slice(start, start + pageCount(input.count)));
        return { start, count: searchResults.length, total: all.length, searchResults, facets: [] };
      },
      scrollAcrossLineage: async (_s, { input }: { input: LineageInput & { scrollId?: string | null } }, ctx) => {
        const from = input.scrollId ? decodeOffset(input.scrollId) : 0;
        const count = pageCount(input.count);
        const all = await walk(ctx, input, true);
        const searchResults = await results(ctx, all.slice(from, from + count));
        return {
          nextScrollId: from + count < all.length ? encodeOffset(from + count) : null,
          count: searchResults.length,
          total: all.length,
          searchResults,
          facets: [],
        };
      },
    },
  },
};
