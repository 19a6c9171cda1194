import type { PortImpl } from './compose-store.ts';
import type { AspectReads, Json } from './ports/aspects.ts';
import type {
  FacetCounts,
  SearchCriterion,
  SearchDocument,
  SearchDocuments,
  SearchHit,
  SearchQuery,
  SearchRequest,
  SearchResult,
} from './ports/search.ts';

/** Entities read per round trip while scanning. */
const BATCH = 500;

interface Cursor {
  /** Unsorted: the type being scanned and the last urn returned. */
  readonly t?: number;
  readonly u?: string;
  /** Sorted: how many matches were returned already. */
  readonly o?: number;
}

const encode = (c: Cursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

/**
 * Search without a search index, the same on both engines: each entity type is read in urn order from the aspects
 * part's indexes (soft-deleted ones from their own partial index), and filters, the full-text query and sorts are
 * applied to documents built from the aspects they name. An unsorted scroll reads the types' entities once overall; a
 * sorted one, a count or the facets read all of them per call.
 */
export class SearchScan {
  constructor(
    private readonly aspects: Pick<PortImpl<AspectReads>, 'listEntityUrns' | 'getEntities'>,
    private readonly documents: SearchDocuments,
  ) {}

  async search(req: SearchRequest): Promise<SearchResult> {
    const { paging } = req;
    if ('start' in paging) return this.page(req, paging.start, paging.count);
    return this.scroll(req, paging.scrollId, paging.count);
  }

  async count(req: SearchQuery): Promise<number> {
    let n = 0;
    for await (const _ of this.matches(req, 0, undefined)) n++;
    return n;
  }

  async facets(req: SearchQuery, facets: readonly string[]): Promise<FacetCounts> {
    const counts: FacetCounts = new Map(facets.map((f) => [this.documents.baseField(f), new Map<string, number>()]));
    for await (const { doc } of this.matches(req, 0, undefined, [...counts.keys()])) {
      for (const [field, values] of counts) {
        for (const v of new Set((doc?.get(field) ?? []).map(String))) values.set(v, (values.get(v) ?? 0) + 1);
      }
    }
    return counts;
  }

  private async scroll(req: SearchQuery, scrollId: string | undefined, count: number): Promise<SearchResult> {
    const cursor = scrollId ? this.decode(scrollId) : {};
    if (count === 0) return { hits: [], ...(scrollId ? { nextScrollId: scrollId } : {}) };
    if (req.sort.length > 0) {
      const all = await this.sorted(req);
      const from = cursor.o ?? 0;
      const hits = all.slice(from, from + count);
      const next = from + count < all.length ? encode({ o: from + count }) : undefined;
      return { hits, ...(next ? { nextScrollId: next } : {}), total: all.length };
    }
    const hits: SearchHit[] = [];
    let last: { t: number; u: string } | undefined;
    for await (const { urn, entityType } of this.matches(req, cursor.t ?? 0, cursor.u)) {
      if (hits.length === count) {
        const lastHit = hits.at(-1)!;
        last = { t: req.entityTypes.findIndex((e) => this.documents.entityType(e) === lastHit.entityType), u: lastHit.urn };
        break;
      }
      hits.push({ urn, entityType });
    }
    return { hits, ...(last ? { nextScrollId: encode(last) } : {}) };
  }

  private async page(req: SearchQuery, start: number, count: number): Promise<SearchResult> {
    if (req.sort.length > 0) {
      const all = await this.sorted(req);
      return { hits: all.slice(start, start + count), total: all.length };
    }
    const hits: SearchHit[] = [];
    let seen = 0;
    for await (const { urn, entityType } of this.matches(req, 0, undefined)) {
      if (seen++ < start) continue;
      if (hits.length === count) break;
      hits.push({ urn, entityType });
    }
    return { hits };
  }

  private decode(scrollId: string): Cursor {
    try {
      const c = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as Cursor;
      if (typeof c === 'object' && c !== null && (Number.isInteger(c.o) || (Number.isInteger(c.t) && typeof c.u === 'string'))) return c;
    } catch {
      // reported below
    }
    throw this.documents.invalidScrollId(scrollId);
  }

  /** Every match, in the request's sort order. */
  private async sorted(req: SearchQuery): Promise<SearchHit[]> {
    const found: Array<SearchHit & { readonly doc?: SearchDocument }> = [];
    for await (const hit of this.matches(req, 0, undefined)) found.push(hit);
    return found.sort((a, b) => this.documents.compare(a.doc!, b.doc!, req.sort)).map(({ urn, entityType }) => ({ urn, entityType }));
  }

  /**
   * Matches in order: types as listed, urns ascending, from type `t` after urn `after`; with the document when one
   * was built (always when `extraFields` are asked for, holding them too).
   */
  private async *matches(
    req: SearchQuery,
    t: number,
    after: string | undefined,
    extraFields: readonly string[] = [],
  ): AsyncGenerator<SearchHit & { readonly doc?: SearchDocument }> {
    const removed = this.removedMode(req);
    const fields = req.query === undefined ? [...this.documents.fieldsOf(req.filter, req.sort), ...extraFields] : undefined;
    const needsDocument = req.query !== undefined || req.filter.length > 0 || req.sort.length > 0 || extraFields.length > 0;
    for (let i = t; i < req.entityTypes.length; i++) {
      const entityType = this.documents.entityType(req.entityTypes[i]!);
      const aspects = needsDocument ? this.documents.aspectsFor(entityType, fields) : [];
      let afterUrn = i === t ? after : undefined;
      for (;;) {
        const urns = await this.aspects.listEntityUrns({ entityType, afterUrn, limit: BATCH, ...(removed === undefined ? {} : { removed }) });
        const stored = needsDocument ? await this.aspects.getEntities(urns, aspects) : undefined;
        for (const urn of urns) {
          if (!stored) {
            yield { urn, entityType };
            continue;
          }
          const values = new Map<string, Json>((stored.get(urn) ?? []).map((a) => [a.aspect, a.value]));
          const doc = this.documents.document(entityType, urn, values, fields);
          if (this.documents.matches(doc, req.filter, req.query)) yield { urn, entityType, doc };
        }
        if (urns.length < BATCH) break;
        afterUrn = urns.at(-1);
      }
    }
  }

  /** What the aspects part can narrow by itself: only soft-deleted entities, only the others, or all. */
  private removedMode(req: SearchQuery): boolean | undefined {
    const isRemoved = (c: SearchCriterion) => this.documents.baseField(c.field) === 'removed';
    const removedTrue = (negated: boolean) => (c: SearchCriterion) =>
      isRemoved(c) && (c.negated === true) === negated && (c.condition ?? 'EQUAL') === 'EQUAL' && c.values.length === 1 && c.values[0] === 'true';
    if (req.filter.some((group) => group.some(isRemoved))) {
      // Every group asks for soft-deleted ones (ONLY_SOFT_DELETED), or every group excludes them (NOT_SOFT_DELETED).
      if (req.filter.every((group) => group.some(removedTrue(false)))) return true;
      if (req.filter.every((group) => group.some(removedTrue(true)))) return false;
      return undefined;
    }
    return req.includeSoftDeleted ? undefined : false;
  }
}
