import type { FacetCounts, ReadParts, SearchHit, SearchQuery, SearchResult } from '../../storage/store.ts';
import { checkFilter } from './search-filter.ts';
import { parseSearchQuery } from './search-query.ts';

export type { SearchHit } from '../../storage/store.ts';

/** What searchAcrossEntities and scrollAcrossEntities ask, in registry terms (the search port's query). */
export type EntitySearchRequest = SearchQuery;

export interface SearchPage {
  readonly hits: readonly SearchHit[];
  /** Present when more may follow. */
  readonly nextScrollId?: string;
  /** Every match, counted on demand when the engine did not count them with the page. */
  total(): Promise<number>;
}

/** The request as the port takes it: the filter checked and the query parsed, so a bad one is a 400 before any read. */
function checked(req: EntitySearchRequest): SearchQuery {
  checkFilter(req.filter);
  return { ...req, parsed: parseSearchQuery(req.query) };
}

/**
 * Search and scroll over entities (DataHub's searchAcrossEntities, scrollAcrossEntities, filtered listings) and the
 * console's dataset listing, through the search port: the filter is checked here, once for every engine, and a
 * total is counted only when asked for.
 */
export class EntitySearch {
  constructor(private readonly ports: Pick<ReadParts, 'search'>) {}

  /** One scroll page: `count` hits after the scroll id's position. */
  async scroll(request: EntitySearchRequest, scrollId: string | undefined, count: number): Promise<SearchPage> {
    const req = checked(request);
    return this.pageOf(req, await this.ports.search.search({ ...req, paging: { scrollId, count } }));
  }

  /** One offset page (searchAcrossEntities' start and count). */
  async page(request: EntitySearchRequest, start: number, count: number): Promise<SearchPage> {
    const req = checked(request);
    return this.pageOf(req, await this.ports.search.search({ ...req, paging: { start, count } }));
  }

  /** Per facet field, how many matches hold each value (each counted once per entity). */
  async aggregate(request: EntitySearchRequest, facets: readonly string[]): Promise<FacetCounts> {
    return this.ports.search.facets(checked(request), facets);
  }

  private pageOf(req: EntitySearchRequest, result: SearchResult): SearchPage {
    const { total } = result;
    return {
      hits: result.hits,
      ...(result.nextScrollId !== undefined ? { nextScrollId: result.nextScrollId } : {}),
      total: () => (total !== undefined ? Promise.resolve(total) : this.ports.search.count(req)),
    };
  }
}
