import { badRequest } from '../errors.ts';
import { entitySpec } from '../registry/index.ts';
import { parseUrn } from '../urn.ts';
import type { Json, ReadParts } from '../../storage/store.ts';
import { aspectsForFields, baseFieldName, searchDocument, type SearchDocument } from './search-document.ts';
import {
  checkFilter,
  compareDocuments,
  filterFields,
  matchesFilter,
  matchesText,
  type SearchCriterion,
  type SearchFilter,
  type SortCriterion,
} from './search-filter.ts';

/** What searchAcrossEntities and scrollAcrossEntities ask, in registry terms. */
export interface EntitySearchRequest {
  /** Registry entity names, searched in this order. */
  readonly entityTypes: readonly string[];
  /** A full-text query (see matchesText); undefined matches everything. */
  readonly query?: string;
  readonly filter: SearchFilter;
  /** DataHub leaves soft-deleted entities out unless this is set or the filter names `removed`. */
  readonly includeSoftDeleted: boolean;
  readonly sort: readonly SortCriterion[];
}

export interface SearchHit {
  readonly urn: string;
  readonly entityType: string;
}

export interface SearchPage {
  readonly hits: readonly SearchHit[];
  /** Present when more may follow. */
  readonly nextScrollId?: string;
  /** Every match, counted on demand: a whole pass over the types' entities. */
  total(): Promise<number>;
}

/** Entities read from the store per round trip while scanning. */
const BATCH = 500;

interface Cursor {
  /** Unsorted: the type being scanned and the last urn returned. */
  readonly t?: number;
  readonly u?: string;
  /** Sorted: how many matches were returned already. */
  readonly o?: number;
}

const encode = (c: Cursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

function decode(scrollId: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as Cursor;
    if (typeof c === 'object' && c !== null && (Number.isInteger(c.o) || (Number.isInteger(c.t) && typeof c.u === 'string'))) return c;
  } catch {
    // reported below
  }
  throw badRequest(`Invalid scrollId ${scrollId}: pass back a nextScrollId this server returned, unchanged`);
}

/**
 * Search and scroll over the catalog without a search index: each entity type
 * is read in urn order from the store's indexes (soft-deleted ones from their
 * own partial index), and filters, the full-text query and sorts are applied
 * to search documents built from the aspects they name. An unsorted scroll
 * reads the types' entities once overall; a sorted one, or a total, reads all
 * of them per call.
 */
export class EntitySearch {
  constructor(private readonly ports: Pick<ReadParts, 'aspects'>) {}

  /** One scroll page: `count` hits after the scroll id's position. */
  async scroll(req: EntitySearchRequest, scrollId: string | undefined, count: number): Promise<SearchPage> {
    checkFilter(req.filter);
    const cursor = scrollId ? decode(scrollId) : {};
    if (count === 0) return { hits: [], ...(scrollId ? { nextScrollId: scrollId } : {}), total: () => this.count(req) };
    if (req.sort.length > 0) {
      const all = await this.sorted(req);
      const from = cursor.o ?? 0;
      const hits = all.slice(from, from + count);
      const next = from + count < all.length ? encode({ o: from + count }) : undefined;
      return { hits, ...(next ? { nextScrollId: next } : {}), total: async () => all.length };
    }
    const hits: SearchHit[] = [];
    let last: { t: number; u: string } | undefined;
    for await (const { urn, entityType } of this.matches(req, cursor.t ?? 0, cursor.u)) {
      if (hits.length === count) {
        const lastHit = hits.at(-1)!;
        last = { t: req.entityTypes.findIndex((e) => entitySpec(e).name === lastHit.entityType), u: lastHit.urn };
        break;
      }
      hits.push({ urn, entityType });
    }
    return { hits, ...(last ? { nextScrollId: encode(last) } : {}), total: () => this.count(req) };
  }

  /** One offset page (searchAcrossEntities' start and count). */
  async page(req: EntitySearchRequest, start: number, count: number): Promise<SearchPage> {
    checkFilter(req.filter);
    if (req.sort.length > 0) {
      const all = await this.sorted(req);
      return { hits: all.slice(start, start + count), total: async () => all.length };
    }
    const hits: SearchHit[] = [];
    let seen = 0;
    for await (const { urn, entityType } of this.matches(req, 0, undefined)) {
      if (seen++ < start) continue;
      if (hits.length === count) break;
      hits.push({ urn, entityType });
    }
    return { hits, total: () => this.count(req) };
  }

  /** Per facet field, how many matches hold each value (each counted once per entity): a whole pass, like total. */
  async aggregate(req: EntitySearchRequest, facets: readonly string[]): Promise<Map<string, Map<string, number>>> {
    checkFilter(req.filter);
    const counts = new Map(facets.map((f) => [baseFieldName(f), new Map<string, number>()]));
    for await (const { doc } of this.matches(req, 0, undefined, [...counts.keys()])) {
      for (const [field, values] of counts) {
        for (const v of new Set((doc?.get(field) ?? []).map(String))) values.set(v, (values.get(v) ?? 0) + 1);
      }
    }
    return counts;
  }

  private async count(req: EntitySearchRequest): Promise<number> {
    let n = 0;
    for await (const _ of this.matches(req, 0, undefined)) n++;
    return n;
  }

  /** Every match, in the request's sort order. */
  private async sorted(req: EntitySearchRequest): Promise<SearchHit[]> {
    const found: Array<SearchHit & { readonly doc?: SearchDocument }> = [];
    for await (const hit of this.matches(req, 0, undefined)) found.push(hit);
    return found.sort((a, b) => compareDocuments(a.doc!, b.doc!, req.sort)).map(({ urn, entityType }) => ({ urn, entityType }));
  }

  /**
   * Matches in order: types as listed, urns ascending, from type `t` after urn `after`; with the document when one
   * was built (always when `extraFields` are asked for, holding them too).
   */
  private async *matches(
    req: EntitySearchRequest,
    t: number,
    after: string | undefined,
    extraFields: readonly string[] = [],
  ): AsyncGenerator<SearchHit & { readonly doc?: SearchDocument }> {
    const removed = removedMode(req);
    const fields = req.query === undefined ? [...filterFields(req.filter, req.sort), ...extraFields] : undefined;
    const needsDocument = req.query !== undefined || req.filter.length > 0 || req.sort.length > 0 || extraFields.length > 0;
    for (let i = t; i < req.entityTypes.length; i++) {
      const entityType = entitySpec(req.entityTypes[i]!).name;
      const aspects = needsDocument ? aspectsForFields(entityType, fields) : [];
      let afterUrn = i === t ? after : undefined;
      for (;;) {
        const urns = await this.ports.aspects.listEntityUrns({ entityType, afterUrn, limit: BATCH, ...(removed === undefined ? {} : { removed }) });
        const stored = needsDocument ? await this.ports.aspects.getEntities(urns, aspects) : undefined;
        for (const urn of urns) {
          if (!stored) {
            yield { urn, entityType };
            continue;
          }
          const values = new Map<string, Json>((stored.get(urn) ?? []).map((a) => [a.aspect, a.value]));
          const doc = searchDocument(entityType, urn, parseUrn(urn).parts, values, fields);
          if (matchesFilter(doc, req.filter) && matchesText(doc, req.query)) yield { urn, entityType, doc };
        }
        if (urns.length < BATCH) break;
        afterUrn = urns.at(-1);
      }
    }
  }
}

/** What the store can narrow by itself: only soft-deleted entities, only the others, or all. */
function removedMode(req: EntitySearchRequest): boolean | undefined {
  const removedTrue = (negated: boolean) => (c: SearchCriterion) =>
    baseFieldName(c.field) === 'removed' &&
    (c.negated === true) === negated &&
    (c.condition ?? 'EQUAL') === 'EQUAL' &&
    c.values.length === 1 &&
    c.values[0] === 'true';
  if (req.filter.some((group) => group.some((c) => baseFieldName(c.field) === 'removed'))) {
    // Every group asks for soft-deleted ones (ONLY_SOFT_DELETED), or every group excludes them (NOT_SOFT_DELETED).
    if (req.filter.every((group) => group.some(removedTrue(false)))) return true;
    if (req.filter.every((group) => group.some(removedTrue(true)))) return false;
    return undefined;
  }
  return req.includeSoftDeleted ? undefined : false;
}
