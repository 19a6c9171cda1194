import { badRequest } from '../../catalog/errors.ts';
import type { SearchFilter, SortCriterion } from '../../catalog/search/search-filter.ts';
import type { SearchCriterion } from '../../catalog/search/search-filter.ts';
import { fullTextQuery } from '../../catalog/search/search-filter.ts';
import { entityRef } from './entity-refs.ts';
import { DEFAULT_SEARCH_TYPES, entityOfType, typenameOfEntity } from './entity-types.ts';
import { inputFilter, type AndFilter, type FacetFilter } from './filters.ts';
import { results } from './search-across.ts';
import type { GraphqlContext } from './schema.ts';

/** The most one listing (listDomains, a domain's entities, ...) answers at once. */
export const MAX_LIST_PAGE = 1000;

/** start and count of a listing, defaulted and checked; `field` names the input object in the error. */
export function listPaging(
  input: { start?: number | null; count?: number | null } | null | undefined,
  defaultCount: number,
  field = 'input.',
): { start: number; count: number } {
  const start = input?.start ?? 0;
  const count = input?.count ?? defaultCount;
  if (start < 0) throw badRequest(`${field}start must not be negative`);
  if (count < 0 || count > MAX_LIST_PAGE) throw badRequest(`${field}count must be from 0 to ${MAX_LIST_PAGE}, got ${count}`);
  return { start, count };
}

/** One page of the entities of one type matching a filter, as DataHub's list resolvers search them. */
export async function listEntities(
  ctx: GraphqlContext,
  q: { entity: string; query?: string | null; filter: SearchFilter; sort?: readonly SortCriterion[] },
  paging: { start: number; count: number },
) {
  const page = await ctx.app.search.page(
    { entityTypes: [q.entity], query: fullTextQuery(q.query), filter: q.filter, includeSoftDeleted: false, sort: q.sort ?? [] },
    paging.start,
    paging.count,
  );
  const entities = (await Promise.all(page.hits.map((h) => entityRef(ctx, h.urn)))).filter((e) => e !== null);
  return { start: paging.start, count: entities.length, total: await page.total(), entities };
}

export interface ScopedSearchInput {
  query?: string | null;
  start?: number | null;
  count?: number | null;
  filters?: readonly FacetFilter[] | null;
  orFilters?: readonly AndFilter[] | null;
}

const searchableEntities = (): string[] =>
  DEFAULT_SEARCH_TYPES.map((t) => entityOfType(t)).filter((e): e is string => e !== undefined && typenameOfEntity(e) !== undefined);

/**
 * DataHub's entities-of-an-entity fields (Domain.entities, Container.entities,
 * DataProduct.entities): a search across the searchable types with the
 * criteria naming the owner added to the caller's filters; 20 a page by default.
 */
export async function scopedSearch(ctx: GraphqlContext, input: ScopedSearchInput | null | undefined, scope: readonly SearchCriterion[]) {
  const { start, count } = listPaging(input, 20);
  const given = inputFilter(input?.orFilters, input?.filters);
  const own = given.length > 0 ? given : [[]];
  const req = {
    entityTypes: searchableEntities(),
    query: fullTextQuery(input?.query),
    filter: own.map((g) => [...g, ...scope]),
    includeSoftDeleted: false,
    sort: [],
  };
  const page = await ctx.app.search.page(req, start, count);
  return { start, ...(await results(ctx, page)) };
}
