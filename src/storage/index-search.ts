import type { FacetCounts, IndexedValue, SearchHit, SearchQuery, SearchRequest, SearchResult } from './ports/search.ts';
import { FACET_FIELD_SET } from './search-facet-fields.ts';
import { deprecationStatesSql, keyedCountSql, matchedSql, namesSql, orderSql, walkSql, type SearchDialect, type SearchRules } from './search-sql.ts';

/**
 * Runs one read statement with its parameters and answers its rows. `overAllMatches`: the statement sorts, hashes
 * and counts every match of a search (its page, total and facets), not a bounded few rows.
 */
export type RunQuery = (sql: string, params: readonly unknown[], overAllMatches?: boolean) => Promise<Array<Record<string, unknown>>>;

/** The facet values counted per field, most frequent first. */
const MAX_FACET_VALUES = 1000;
const ENTITY_TYPE_FACETS = new Set(['_entityType', 'entityType']);

/**
 * A filter's page is walked in urn order (IndexSearch.walk) when it ends within this many matches, reading at most
 * WALK_BUDGET times as many entities of its first value (steps of 2, 4 and 8 times: 14 in all); a deeper page, or
 * one the walk leaves short, reads every match.
 */
const MAX_WALKED_PAGE_END = 1000;
const WALK_BUDGET = 16;

/** What each row of the one statement is: a hit of the page, the total, or a facet value's count. */
const HIT = 0;
const TOTAL = 1;
const FACET = 2;
/** A walk step's row of the entities it read: how many, and the last urn. */
const LAST = 3;

/**
 * A count over the matches known beforehand: the total (no condition) or a facet value of the entity type or the
 * deprecation state, the matches of `s` (`entity_type`, and `state` where a deprecation state is counted) where
 * `condition` holds.
 */
interface Tally {
  readonly kind: typeof TOTAL | typeof FACET;
  readonly field?: string;
  /** The value as SQL: the placeholder its condition holds, not pushed again. */
  readonly value?: string;
  readonly condition?: string;
}

/**
 * The rows (`SELECT kind, 0, field, NULL, NULL, value, n`) of every tally, counted in one pass over `source` (FILTER):
 * no sort of every match by its value, which SQLite's GROUP BY needs (the entity type and the deprecation state of
 * 18,000 matches: about 5 of 40 ms), and one pass for the total, the type counts and the deprecation states, not one
 * each (PostgreSQL reads a materialized `m` once per reader: a common word's 180,000 matches, three passes).
 */
function talliesSql(p: (v: unknown) => string, source: string, tallies: readonly Tally[]): string {
  const counts = tallies.map((t, i) => `count(*)${t.condition !== undefined ? ` FILTER (WHERE ${t.condition})` : ''} AS c${i}`).join(', ');
  const rows = tallies.map((_, i) => `SELECT ${i} AS i`).join(' UNION ALL ');
  const text = (sql: string | undefined) => `CAST(${sql ?? 'NULL'} AS text)`;
  const pick = (of: (t: Tally, i: number) => string) => `CASE v.i ${tallies.map((t, i) => `WHEN ${i} THEN ${of(t, i)}`).join(' ')} END`;
  return `SELECT ${pick((t) => String(t.kind))}, 0, ${pick((t) => text(t.field !== undefined ? p(t.field) : undefined))}, NULL, NULL, ${pick((t) => text(t.value))}, ${pick((_, i) => `c.c${i}`)}
    FROM (SELECT ${counts} FROM ${source}) c CROSS JOIN (${rows}) v`;
}

interface Cursor {
  /** How many matches came before the next page. */
  readonly o: number;
}

/** A hit from a page row (`urn`, `entity_type`, its name as `value`). */
const hitOf = (r: Record<string, unknown>): SearchHit => ({
  urn: String(r.urn),
  entityType: String(r.entity_type),
  ...(r.value != null ? { name: String(r.value) } : {}),
});

const encode = (c: Cursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

/** The page's rows, each hit with its display name (the entity's name, else its key's). */
const NAME = `COALESCE((SELECT min(n.value) FROM search_fields n WHERE n.urn = m.urn AND n.field = '_entityName'),
  (SELECT min(n.value) FROM search_fields n WHERE n.urn = m.urn AND n.field = '_entityKeyName'))`;

/**
 * Entity search over the search index, the same on both engines. A page, its total and its facets are one statement:
 * the matches are computed once (`m`, materialized when more than one part reads it), then the page, the count and
 * every facet read `m`; a filter's total comes from the search keys when they answer it, and a filter's page without
 * facets may be walked in urn order instead (walk). The engine gives its dialect (placeholders, full-text match) and a
 * way to run a read; the SQL itself is storage/search-sql.ts.
 */
export class IndexSearch {
  constructor(
    private readonly dialect: SearchDialect,
    private readonly rules: SearchRules & { readonly invalidScrollId: (scrollId: string) => Error },
    private readonly run: RunQuery,
    private readonly clock: () => number = Date.now,
  ) {}

  async search(req: SearchRequest): Promise<SearchResult> {
    const { paging } = req;
    const start = 'start' in paging ? paging.start : paging.scrollId ? this.decode(paging.scrollId).o : 0;
    const facetFields = req.facets ?? [];
    if (paging.count === 0 && !req.withTotal && facetFields.length === 0) {
      return { hits: [], ...('scrollId' in paging && paging.scrollId ? { nextScrollId: paging.scrollId } : {}) };
    }
    const now = this.clock();
    if (paging.count > 0 && facetFields.length === 0 && start + paging.count <= MAX_WALKED_PAGE_END) {
      const walked = await this.walk(req, start, now);
      if (walked !== undefined) return this.answer(req, start, walked, facetFields);
    }
    const result = await this.read(req, start, req.withTotal === true, facetFields, now);
    return this.answer(req, start, result, facetFields);
  }

  /**
   * A filter's page found by walking its first value's entities in urn order (walkSql), in steps of twice as many
   * entities as the last, until the page is full or the value's entities end; its total, if asked, from the search
   * keys. Undefined when the search is not of that shape, its total needs every match counted, or the walk reads
   * WALK_BUDGET times the page's end without filling it (matches are rare among the value's entities: reading every
   * match is cheaper). A platform and a tag over a million entities: about 60 entities read for a page of ten, where
   * every match's row (40,000) was read and sorted. Its steps are statements of their own: a write committed between
   * two of them can show in the page and not in the total (a search engine's refresh does the same).
   */
  private async walk(req: SearchRequest, start: number, now: number): Promise<{ hits: SearchHit[]; total?: number } | undefined> {
    const end = start + req.paging.count + 1;
    const hits: SearchHit[] = [];
    let total: number | undefined;
    let after = '';
    let read = 0;
    for (let limit = 2 * end, first = true; read + limit <= WALK_BUDGET * end; limit *= 2, first = false) {
      const params: unknown[] = [];
      // The total, if asked, with the first step: from the keys, or no walk.
      const count = req.withTotal && first ? keyedCountSql(req, this.dialect, params, this.rules) : undefined;
      if (req.withTotal && first && count === undefined) return undefined;
      const step = walkSql(req, this.dialect, params, this.rules, now, after, limit);
      if (step === undefined) return undefined;
      const parts = [
        `SELECT ${HIT}, m.urn, m.entity_type, ${NAME}, 0 FROM (${step.matches}) m`,
        `SELECT ${LAST}, max(g.urn), NULL, NULL, count(*) FROM g`,
        ...(count !== undefined ? [`SELECT ${TOTAL}, NULL, NULL, NULL, c.n FROM (${count}) c`] : []),
      ];
      const rows = await this.run(
        `WITH g AS MATERIALIZED (${step.driver}), r (kind, urn, entity_type, value, n) AS (${parts.join(' UNION ALL ')})
          SELECT * FROM r ORDER BY kind, urn`,
        params,
      );
      let walked = 0;
      for (const r of rows) {
        const kind = Number(r.kind);
        if (kind === HIT) hits.push(hitOf(r));
        else if (kind === TOTAL) total = Number(r.n);
        else {
          walked = Number(r.n);
          if (r.urn != null) after = String(r.urn);
        }
      }
      read += walked;
      if (hits.length >= end || walked < limit) return { hits: hits.slice(start, end), ...(total !== undefined ? { total } : {}) };
    }
    return undefined;
  }

  /**
   * One statement over every match (matchedSql): the page (one row more than asked), the total if `withTotal` (the
   * keys' count when they answer the filter, else counted) and the facets.
   */
  private async read(
    req: SearchRequest,
    start: number,
    withTotal: boolean,
    facetFields: readonly string[],
    now: number,
  ): Promise<{ hits: SearchHit[]; total?: number; facets: FacetCounts }> {
    const { paging } = req;
    const params: unknown[] = [];
    // The default facet fields' counts read each match's list of values, where the engine keeps one.
    const facetLists = facetFields.some((f) => FACET_FIELD_SET.has(this.rules.baseField(f)));
    const matched = matchedSql(req, this.dialect, params, this.rules, now, facetLists);
    const p = (v: unknown) => this.dialect.param(params, v);
    const parts: string[] = [];
    if (paging.count > 0) {
      // One more than asked: whether a next page exists, without counting. The page's order is its rows' `ord`.
      const inner = orderSql(req, this.dialect, params, this.rules);
      const outer = orderSql(req, this.dialect, params, this.rules);
      parts.push(`SELECT ${HIT}, row_number() OVER (ORDER BY ${outer}), CAST(NULL AS text), m.urn, m.entity_type, ${NAME}, 0
        FROM (SELECT * FROM m ORDER BY ${inner} LIMIT ${p(paging.count + 1)} OFFSET ${p(start)}) m`);
    }
    // A filter's total from the search keys alone, when they answer it: no row of each match is read.
    if (withTotal && matched.count !== undefined) parts.push(`SELECT ${TOTAL}, 0, NULL, NULL, NULL, NULL, c.n FROM (${matched.count}) c`);
    const countReads = this.countParts(req, facetFields, params, now, withTotal && matched.count === undefined);
    parts.push(...countReads);
    // Read more than once, the matches are computed once; read once, the engine may fold them into that part's plan,
    // except a filter's matches from the keys: folded into the page, PostgreSQL may answer `ORDER BY urn LIMIT` by
    // walking its primary key and checking each row's keys, and a filter's matches often sort together (a platform's
    // datasets), after most of the catalog.
    const reads = (paging.count > 0 ? 1 : 0) + countReads.length;
    const materialized = reads > 1 || matched.count !== undefined ? 'MATERIALIZED ' : '';
    const statement = `WITH m AS ${materialized}(${matched.sql}), r (kind, ord, field, urn, entity_type, value, n) AS (${parts.join(' UNION ALL ')})
      SELECT * FROM r ORDER BY kind, ord`;
    const hits: SearchHit[] = [];
    let total: number | undefined;
    const facets: FacetCounts = new Map(facetFields.map((f) => [this.rules.baseField(f), new Map<string, number>()]));
    for (const r of await this.run(statement, params, true)) {
      const kind = Number(r.kind);
      if (kind === HIT) hits.push(hitOf(r));
      else if (kind === TOTAL) total = Number(r.n);
      else if (Number(r.n) > 0) facets.get(String(r.field))?.set(String(r.value), Number(r.n));
    }
    return { hits, ...(total !== undefined ? { total } : {}), facets };
  }

  /** The result a caller sees: the page asked, the next scroll id, and the total and facets it asked for. */
  private answer(
    req: SearchRequest,
    start: number,
    read: { hits: SearchHit[]; total?: number; facets?: FacetCounts },
    facetFields: readonly string[],
  ): SearchResult {
    const { paging } = req;
    const more = read.hits.length > paging.count;
    return {
      hits: read.hits.slice(0, paging.count),
      ...('scrollId' in paging && more ? { nextScrollId: encode({ o: start + paging.count }) } : {}),
      ...('scrollId' in paging && paging.count === 0 && paging.scrollId ? { nextScrollId: paging.scrollId } : {}),
      ...(req.withTotal && read.total !== undefined ? { total: read.total } : {}),
      ...(facetFields.length > 0 ? { facets: read.facets ?? new Map() } : {}),
    };
  }

  async namesStartingWith(req: SearchQuery, prefix: string, limit: number): Promise<SearchHit[]> {
    const params: unknown[] = [];
    // Twice the rows asked: an entity whose name and key name both start with the prefix is two of them.
    const names = namesSql(req, prefix, 2 * limit, this.dialect, params, this.rules, this.clock());
    const rows = await this.run(
      `SELECT m.urn AS urn, m.entity_type AS entity_type, ${NAME} AS name FROM (${names}) m ORDER BY ${this.dialect.nameOrder('m.folded')}, m.urn`,
      params,
    );
    const hits = new Map<string, SearchHit>();
    for (const r of rows) {
      const urn = String(r.urn);
      if (!hits.has(urn)) hits.set(urn, { urn, entityType: String(r.entity_type), ...(r.name != null ? { name: String(r.name) } : {}) });
    }
    return [...hits.values()].slice(0, limit);
  }

  async count(req: SearchQuery): Promise<number> {
    return (await this.search({ ...req, paging: { start: 0, count: 0 }, withTotal: true })).total ?? 0;
  }

  /** Every facet in one statement over the matches, computed once. */
  async facets(req: SearchQuery, fields: readonly string[]): Promise<FacetCounts> {
    if (fields.length === 0) return new Map();
    return (await this.search({ ...req, paging: { start: 0, count: 0 }, facets: fields })).facets ?? new Map();
  }

  /**
   * The total's row, if `total`, and the facet rows over `m`: the total, the entity type and the deprecation state
   * in one pass of `m` (talliesSql), every other field in one pass of the matches over their indexed values, the
   * most frequent values of each field kept. CROSS JOIN keeps the
   * matches the outer loop on SQLite (a covering seek per match on `(urn, field)`; SQLite, knowing no size for `m`,
   * would otherwise read every value of each facet field and probe the matches: 187 ms of CPU against 295 for a word
   * matching 10,000 of 50,000 entities, 689 against 1,400 for all of them). PostgreSQL plans it as any inner join: it
   * knows `m`'s size, and hashes the facet fields' values for a large match set (for 45,000 matches a nested loop of
   * seeks took four times as long) and seeks for a small one.
   */
  private countParts(req: SearchQuery, fields: readonly string[], params: unknown[], now: number, total: boolean): string[] {
    const p = (v: unknown) => this.dialect.param(params, v);
    const asked = [...new Set(fields.map(this.rules.baseField))];
    const parts: string[] = [];
    const indexed: string[] = [];
    const compact: string[] = [];
    const tallies: Tally[] = total ? [{ kind: TOTAL }] : [];
    let states: string | undefined;
    const types = [...new Set(req.entityTypes.map(this.rules.entityType))];
    for (const field of asked) {
      if (ENTITY_TYPE_FACETS.has(field)) {
        // The matches are of the types asked (none asked, none match): a count of each.
        for (const t of types) {
          const value = p(t);
          tallies.push({ kind: FACET, field, value, condition: `s.entity_type = ${value}` });
        }
      } else if (field === 'deprecationState') {
        const labels = { ACTIVE: p('ACTIVE'), DEPRECATED: p('DEPRECATED'), OVERDUE: p('OVERDUE') };
        states = deprecationStatesSql(this.dialect, params, now, labels);
        for (const l of ['ACTIVE', 'DEPRECATED', 'OVERDUE'] as const)
          tallies.push({ kind: FACET, field, value: labels[l], condition: `s.state = ${labels[l]}` });
      } else if (FACET_FIELD_SET.has(field)) compact.push(field);
      else indexed.push(field);
    }
    if (tallies.length > 0) parts.push(talliesSql(p, states !== undefined ? `(${states}) s` : 'm s', tallies));
    // The most frequent values of each field, from counts `SELECT field, value, n` of either source.
    const top = (counts: string) => `SELECT ${FACET}, 0, v.field, NULL, NULL, v.value, v.n FROM (
        SELECT c.field AS field, c.value AS value, c.n AS n, row_number() OVER (PARTITION BY c.field ORDER BY c.n DESC, c.value) AS r
          FROM (${counts}) c) v
      WHERE v.r <= ${p(MAX_FACET_VALUES)}`;
    if (compact.length > 0) parts.push(top(this.dialect.facetCounts(params, compact)));
    if (indexed.length > 0) {
      parts.push(
        top(`SELECT f.field AS field, f.value AS value, count(DISTINCT f.urn) AS n
          FROM m CROSS JOIN search_fields f WHERE f.urn = m.urn AND f.field ${this.dialect.in(params, indexed)}
         GROUP BY f.field, f.value`),
      );
    }
    return parts;
  }

  async indexedValues(urns: readonly string[]): Promise<Map<string, IndexedValue[]>> {
    const params: unknown[] = [];
    const rows = await this.run(
      `SELECT urn, field, value, num FROM search_fields WHERE urn ${this.dialect.in(params, urns)} ORDER BY urn, field, value`,
      params,
    );
    const out = new Map<string, IndexedValue[]>();
    for (const r of rows) {
      const list = out.get(String(r.urn)) ?? [];
      list.push({ field: String(r.field), value: String(r.value), ...(r.num != null ? { number: Number(r.num) } : {}) });
      out.set(String(r.urn), list);
    }
    return out;
  }

  private decode(scrollId: string): Cursor {
    try {
      const c = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as Cursor;
      if (typeof c === 'object' && c !== null && Number.isInteger(c.o) && c.o >= 0) return c;
    } catch {
      // reported below
    }
    throw this.rules.invalidScrollId(scrollId);
  }
}
