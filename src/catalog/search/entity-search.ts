import type { FacetCounts, ReadParts, SearchHit, SearchIndexBuild, SearchQuery, SearchResult } from '../../storage/store.ts';
import { badRequest } from '../errors.ts';
import { BOOLEAN_SEARCH_FIELDS } from './search-entries.ts';
import { checkFilter } from './search-filter.ts';
import { refuseFiltersOnDeletedProperties } from '../structured-property-assignments.ts';
import { autocompleteQuery } from './search-facets.ts';
import { parseSearchQuery } from './search-query.ts';

export type { SearchHit } from '../../storage/store.ts';

/** The most urns one raw document read takes. */
export const MAX_RAW_DOCUMENTS = 1000;

/** What searchAcrossEntities and scrollAcrossEntities ask, in registry terms (the search port's query). */
export type EntitySearchRequest = SearchQuery;

export interface SearchPage {
  readonly hits: readonly SearchHit[];
  /** Present when more may follow. */
  readonly nextScrollId?: string;
  /** Every match, counted on demand when the engine did not count them with the page. */
  total(): Promise<number>;
  /** The facets asked for with the page. */
  readonly facets?: FacetCounts;
}

/** What to read with an offset page, in the same pass over the matches. */
export interface PageExtras {
  /** Count every match with the page (else `total()` counts on demand). */
  readonly total?: boolean;
  /** Facet fields to count over every match. */
  readonly facets?: readonly string[];
}

/** The extras as the port asks them. */
const wanted = (extras: PageExtras) => ({
  withTotal: extras.total === true,
  ...(extras.facets !== undefined && extras.facets.length > 0 ? { facets: extras.facets } : {}),
});

/**
 * Search and scroll over entities (DataHub's searchAcrossEntities, scrollAcrossEntities, filtered listings) and the
 * console's dataset listing, through the search port: the filter is checked here, once for every engine, and a
 * total is counted only when asked for.
 */
export class EntitySearch {
  private indexComplete = false;

  /** `onIncompleteIndex`: told of each search answered while the index is still being built over older aspects. */
  constructor(
    private readonly ports: Pick<ReadParts, 'search' | 'aspects'>,
    private readonly onIncompleteIndex?: (build: SearchIndexBuild) => void,
  ) {}

  /** One scroll page: `count` hits after the scroll id's position (with its total and facets when asked, as `page`). */
  async scroll(request: EntitySearchRequest, scrollId: string | undefined, count: number, extras: PageExtras = {}): Promise<SearchPage> {
    const req = await this.checked(request);
    await this.noteBuild();
    return this.pageOf(req, await this.ports.search.search({ ...req, paging: { scrollId, count }, ...wanted(extras) }));
  }

  /** One offset page (searchAcrossEntities' start and count), with its total and facets when asked: the matches found once for all three. */
  async page(request: EntitySearchRequest, start: number, count: number, extras: PageExtras = {}): Promise<SearchPage> {
    const req = await this.checked(request);
    await this.noteBuild();
    return this.pageOf(req, await this.ports.search.search({ ...req, paging: { start, count }, ...wanted(extras) }));
  }

  /**
   * Autocomplete (DataHub's autoComplete and Rest.li's autocomplete action): `limit` entities for what a user has
   * typed so far. Names that start with the text come first, in name order (an exact name first), read from the
   * index of names in that order, so a catalog of any size answers in about `limit` reads; when fewer names start so,
   * the rest are the best matches of a search for words starting with the text, as search ranks them. A `field`
   * completes within that field only: a search of it.
   */
  async autocomplete(request: Omit<EntitySearchRequest, 'query'>, text: string, field: string | undefined, limit: number): Promise<SearchHit[]> {
    const req = await this.checked({ ...request, query: autocompleteQuery(text, field) });
    await this.noteBuild();
    const prefix = text.trim();
    const named = field || prefix === '' || prefix === '*' ? [] : await this.ports.search.namesStartingWith(req, prefix, limit);
    if (named.length >= limit) return named;
    const found = new Set(named.map((h) => h.urn));
    const page = await this.ports.search.search({ ...req, paging: { start: 0, count: limit + named.length } });
    return [...named, ...page.hits.filter((h) => !found.has(h.urn))].slice(0, limit);
  }

  /** Per facet field, how many matches hold each value (each counted once per entity). */
  async aggregate(request: EntitySearchRequest, facets: readonly string[]): Promise<FacetCounts> {
    const req = await this.checked(request);
    await this.noteBuild();
    return this.ports.search.facets(req, facets);
  }

  /**
   * Each urn's search document as the index holds it (DataHub's raw Elasticsearch document): every field with its
   * value, a list when it has several; flags as booleans, counts and times as numbers. An urn not indexed is absent.
   */
  async rawDocuments(urns: readonly string[]): Promise<Record<string, Record<string, unknown>>> {
    if (urns.length > MAX_RAW_DOCUMENTS) throw badRequest(`Ask for at most ${MAX_RAW_DOCUMENTS} urns at once, got ${urns.length}`);
    const out: Record<string, Record<string, unknown>> = {};
    for (const [urn, values] of await this.ports.search.indexedValues(urns)) {
      const fields = new Map<string, unknown[]>();
      for (const v of values) {
        const typed = BOOLEAN_SEARCH_FIELDS.has(v.field) ? v.value === 'true' : (v.number ?? v.value);
        const list = fields.get(v.field) ?? [];
        // Two aspects may index one value under one field (a has-values flag and a derived one): listed once.
        if (!list.includes(typed)) fields.set(v.field, [...list, typed]);
      }
      out[urn] = { urn, ...Object.fromEntries([...fields].map(([field, list]) => [field, list.length === 1 ? list[0] : list])) };
    }
    return out;
  }

  /**
   * The request as the port takes it: the filter checked and the query parsed, so a bad one is a 400 before the
   * search (a filter on a soft-deleted structured property too, as DataHub refuses it).
   */
  private async checked(req: EntitySearchRequest): Promise<SearchQuery> {
    checkFilter(req.filter);
    await refuseFiltersOnDeletedProperties(
      this.ports.aspects,
      req.filter.flatMap((group) => group.map((c) => c.field)),
    );
    return { ...req, parsed: parseSearchQuery(req.query) };
  }

  /** Until the index is seen complete (then never again: a build starts only with the migration), each search says when it is not. */
  private async noteBuild(): Promise<void> {
    if (this.indexComplete || this.onIncompleteIndex === undefined) return;
    const build = await this.ports.search.searchIndexBuild();
    if (build.complete) this.indexComplete = true;
    else this.onIncompleteIndex(build);
  }

  private pageOf(req: EntitySearchRequest, result: SearchResult): SearchPage {
    const { total } = result;
    return {
      hits: result.hits,
      ...(result.nextScrollId !== undefined ? { nextScrollId: result.nextScrollId } : {}),
      total: () => (total !== undefined ? Promise.resolve(total) : this.ports.search.count(req)),
      ...(result.facets !== undefined ? { facets: result.facets } : {}),
    };
  }
}
