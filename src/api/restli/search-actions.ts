import { badRequest } from '../../catalog/errors.ts';
import { allEntitySpecs, entitySpec } from '../../catalog/registry/index.ts';
import type { EntitySearchRequest, SearchPage } from '../../catalog/search/entity-search.ts';
import type { FacetCounts } from '../../storage/store.ts';
import { facetDisplayName, SEARCH_FACETS, sortedFacetValues } from '../../catalog/search/search-facets.ts';
import { fullTextQuery, type SearchCriterion, type SearchFilter, type SortCriterion } from '../../catalog/search/search-filter.ts';
import type { AppContext } from '../context.ts';
import { acceptOnly, boolParam, intParam, MAX_INT, requireParam, stringParam, type ActionBody } from './params.ts';

/** DataHub's ELASTIC_MAX_PAGE_SIZE: the most one page may hold. */
const MAX_PAGE_SIZE = 10_000;
/** Almanac's bound on one autocomplete's suggestions. */
const MAX_AUTOCOMPLETE_LIMIT = 100;

type Query = Readonly<Record<string, unknown>>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringArray(v: unknown, path: string): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw badRequest(`Parameter '${path}' must be a list of strings`);
  return v as string[];
}

/** One Criterion: `values`, or the older single `value` when values is empty (DataHub's CriterionUtils.validateAndConvert). */
function criterionOf(c: unknown, path: string): SearchCriterion {
  if (!isObject(c) || typeof c.field !== 'string') throw badRequest(`Parameter '${path}.field' is required and must be a string`);
  const values = c.values === undefined || c.values === null ? [] : stringArray(c.values, `${path}.values`);
  if (c.value !== undefined && c.value !== null && typeof c.value !== 'string') throw badRequest(`Parameter '${path}.value' must be a string`);
  if (c.condition !== undefined && c.condition !== null && typeof c.condition !== 'string')
    throw badRequest(`Parameter '${path}.condition' must be a string`);
  if (c.negated !== undefined && c.negated !== null && typeof c.negated !== 'boolean')
    throw badRequest(`Parameter '${path}.negated' must be true or false`);
  const extra = Object.keys(c).find((k) => !['field', 'value', 'values', 'condition', 'negated'].includes(k));
  if (extra !== undefined)
    throw badRequest(`Parameter '${path}' has an unknown field '${extra}'; a criterion takes field, value, values, condition, negated`);
  return {
    field: c.field,
    values: values.length === 0 && typeof c.value === 'string' && c.value !== '' ? [c.value] : values,
    ...(c.condition ? { condition: c.condition } : {}),
    ...(c.negated ? { negated: true } : {}),
  };
}

/** DataHub's Filter: `{or: [{and: [Criterion]}]}`, or the older `{criteria: [Criterion]}` (one conjunction); or wins. */
export function restliFilter(v: unknown): SearchFilter {
  if (v === undefined || v === null) return [];
  if (!isObject(v)) throw badRequest(`Parameter 'filter' must be {"or": [{"and": [...]}]}`);
  const extra = Object.keys(v).find((k) => k !== 'or' && k !== 'criteria');
  if (extra !== undefined) throw badRequest(`Parameter 'filter' has an unknown field '${extra}'; a filter takes or, criteria`);
  if (v.or !== undefined && v.or !== null) {
    if (!Array.isArray(v.or)) throw badRequest(`Parameter 'filter.or' must be a list of {"and": [...]}`);
    return v.or.map((group: unknown, g: number) => {
      if (!isObject(group) || !Array.isArray(group.and)) throw badRequest(`Parameter 'filter.or[${g}].and' must be a list of criteria`);
      return group.and.map((c: unknown, i: number) => criterionOf(c, `filter.or[${g}].and[${i}]`));
    });
  }
  if (v.criteria === undefined || v.criteria === null) return [];
  if (!Array.isArray(v.criteria)) throw badRequest(`Parameter 'filter.criteria' must be a list of criteria`);
  const criteria = v.criteria.map((c: unknown, i: number) => criterionOf(c, `filter.criteria[${i}]`));
  return criteria.length === 0 ? [] : [criteria];
}

function sortCriterionOf(c: unknown, path: string): SortCriterion {
  if (!isObject(c) || typeof c.field !== 'string') throw badRequest(`Parameter '${path}.field' is required and must be a string`);
  const order = c.order ?? 'ASCENDING';
  if (order !== 'ASCENDING' && order !== 'DESCENDING') throw badRequest(`Parameter '${path}.order' must be ASCENDING or DESCENDING`);
  return { field: c.field, order };
}

/** sortCriteria when given, else the single sort (EntityResource.getSortCriteria). */
function sortOf(body: ActionBody): SortCriterion[] {
  if (body.sortCriteria !== undefined && body.sortCriteria !== null) {
    if (!Array.isArray(body.sortCriteria)) throw badRequest(`Parameter 'sortCriteria' must be a list of {"field", "order"}`);
    return body.sortCriteria.map((c: unknown, i: number) => sortCriterionOf(c, `sortCriteria[${i}]`));
  }
  return body.sort === undefined || body.sort === null ? [] : [sortCriterionOf(body.sort, 'sort')];
}

/** DataHub's SearchFlags: Almanac honours includeSoftDeleted and skipAggregates; the others tune an index it does not have. */
function flagsOf(body: ActionBody): { includeSoftDeleted: boolean; skipAggregates: boolean } {
  const f = body.searchFlags;
  if (f === undefined || f === null) return { includeSoftDeleted: false, skipAggregates: false };
  if (!isObject(f)) throw badRequest(`Parameter 'searchFlags' must be an object`);
  return { includeSoftDeleted: f.includeSoftDeleted === true, skipAggregates: f.skipAggregates === true };
}

/** The registry's name of one entity type; DataHub's message for an unknown one. */
const entityName = (name: string): string => entitySpec(name).name;

function requestOf(body: ActionBody, entityTypes: readonly string[], query: string | undefined): EntitySearchRequest {
  return {
    entityTypes: [...new Set(entityTypes)],
    query: fullTextQuery(query),
    filter: restliFilter(body.filter),
    includeSoftDeleted: flagsOf(body).includeSoftDeleted,
    sort: sortOf(body),
  };
}

const startOf = (body: ActionBody) => intParam(body, 'start', { required: true, min: 0, max: MAX_INT })!;
const countOf = (body: ActionBody) => intParam(body, 'count', { required: true, min: 0, max: MAX_PAGE_SIZE })!;

/** SearchResultMetadata: counts per value of the default facets over every match. */
function metadataOf(counts: FacetCounts | undefined) {
  if (counts === undefined) return { aggregations: [] };
  return {
    aggregations: SEARCH_FACETS.map(([field]) => {
      const values = sortedFacetValues(counts.get(field));
      return {
        name: field,
        displayName: facetDisplayName(field),
        aggregations: Object.fromEntries(values),
        filterValues: values.map(([value, facetCount]) => ({ value, facetCount })),
      };
    }),
  };
}

/** The default facets over every match, unless the request skips them (then an empty metadata). */
const facetsOf = (body: ActionBody) => (flagsOf(body).skipAggregates ? [] : SEARCH_FACETS.map(([field]) => field));

const searchEntities = (page: SearchPage) => page.hits.map((h) => ({ entity: h.urn, matchedFields: [] }));

/** DataHub's SearchResult: one page by start and count, the total and the facets. */
async function searchResult(ctx: AppContext, body: ActionBody, req: EntitySearchRequest) {
  const from = startOf(body);
  const pageSize = countOf(body);
  // The page, its total and its facets in one pass over the matches.
  const page = await ctx.search.page(req, from, pageSize, { total: true, facets: facetsOf(body) });
  return { entities: searchEntities(page), metadata: metadataOf(page.facets), from, pageSize, numEntities: await page.total() };
}

const SEARCH = ['entity', 'input', 'filter', 'sort', 'sortCriteria', 'start', 'count', 'fulltext', 'searchFlags'];
const SEARCH_ACROSS = ['entities', 'input', 'filter', 'sort', 'sortCriteria', 'start', 'count', 'searchFlags'];
const SCROLL_ACROSS = ['entities', 'input', 'filter', 'sort', 'sortCriteria', 'scrollId', 'keepAlive', 'count', 'searchFlags'];
const FILTER = ['entity', 'filter', 'sort', 'sortCriteria', 'start', 'count'];
const AUTOCOMPLETE = ['entity', 'query', 'field', 'filter', 'limit', 'searchFlags'];

/** The types searchAcrossEntities and scrollAcrossEntities read: those named, else every entity type. */
function entitiesOf(body: ActionBody): string[] {
  const named = body.entities === undefined || body.entities === null ? [] : stringArray(body.entities, 'entities');
  return named.length > 0 ? named.map(entityName) : allEntitySpecs().map((s) => s.name);
}

/**
 * DataHub's search actions on the Rest.li `entities` resource (EntityResource: search, searchAcrossEntities,
 * scrollAcrossEntities, autocomplete, filter, list, getTotalEntityCount, batchGetTotalEntityCount), answered by the
 * catalog's EntitySearch; undefined for any other action.
 */
export async function searchAction(ctx: AppContext, action: string | undefined, body: ActionBody, query: Query): Promise<unknown> {
  switch (action) {
    case 'search': {
      acceptOnly(body, query, 'search', SEARCH);
      // Deprecated in DataHub and without effect on the index: checked, then ignored.
      boolParam(body, 'fulltext');
      const req = requestOf(body, [entityName(stringParam(body, 'entity', true))], stringParam(body, 'input', true));
      return { value: await searchResult(ctx, body, req) };
    }
    case 'searchAcrossEntities': {
      acceptOnly(body, query, 'searchAcrossEntities', SEARCH_ACROSS);
      const req = requestOf(body, entitiesOf(body), stringParam(body, 'input', true));
      return { value: await searchResult(ctx, body, req) };
    }
    case 'scrollAcrossEntities': {
      acceptOnly(body, query, 'scrollAcrossEntities', SCROLL_ACROSS);
      stringParam(body, 'keepAlive');
      const req = requestOf(body, entitiesOf(body), stringParam(body, 'input', true));
      const pageSize = countOf(body);
      const page = await ctx.search.scroll(req, stringParam(body, 'scrollId'), pageSize, { total: true, facets: facetsOf(body) });
      const numEntities = await page.total();
      return {
        value: {
          entities: searchEntities(page),
          metadata: metadataOf(page.facets),
          ...(page.nextScrollId !== undefined ? { scrollId: page.nextScrollId } : {}),
          pageSize,
          numEntities,
        },
      };
    }
    case 'filter': {
      acceptOnly(body, query, 'filter', FILTER);
      requireParam(body, 'filter');
      const req = requestOf(body, [entityName(stringParam(body, 'entity', true))], undefined);
      return { value: await searchResult(ctx, body, req) };
    }
    case 'list': {
      acceptOnly(body, query, 'list', FILTER);
      const req = requestOf(body, [entityName(stringParam(body, 'entity', true))], undefined);
      const start = startOf(body);
      const count = countOf(body);
      const page = await ctx.search.page(req, start, count, { total: true });
      return { value: { entities: page.hits.map((h) => h.urn), start, count, total: await page.total() } };
    }
    case 'autocomplete': {
      acceptOnly(body, query, 'autocomplete', AUTOCOMPLETE);
      const text = stringParam(body, 'query', true);
      const limit = intParam(body, 'limit', { required: true, min: 1, max: MAX_AUTOCOMPLETE_LIMIT })!;
      const { query: _query, ...req } = requestOf(body, [entityName(stringParam(body, 'entity', true))], '*');
      const hits = await ctx.search.autocomplete(req, text, stringParam(body, 'field') ?? undefined, limit);
      return {
        value: {
          query: text,
          suggestions: [...new Set(hits.map((h) => h.name ?? h.urn))],
          entities: hits.map((h) => ({ urn: h.urn })),
        },
      };
    }
    case 'getTotalEntityCount': {
      acceptOnly(body, query, 'getTotalEntityCount', ['entity']);
      return { value: await totalCount(ctx, entityName(stringParam(body, 'entity', true))) };
    }
    case 'batchGetTotalEntityCount': {
      acceptOnly(body, query, 'batchGetTotalEntityCount', ['entities']);
      const names = stringArray(requireParam(body, 'entities'), 'entities');
      const counts = await Promise.all(names.map(async (n) => [n, await totalCount(ctx, entityName(n))] as const));
      return { value: Object.fromEntries(counts) };
    }
    default:
      return undefined;
  }
}

/** How many entities of a type are live (soft-deleted ones left out, as DataHub's docCount does): one count, no page. */
const totalCount = async (ctx: AppContext, entityType: string): Promise<number> =>
  (await ctx.search.page({ entityTypes: [entityType], filter: [], includeSoftDeleted: false, sort: [] }, 0, 0)).total();
