import type { FacetCounts, SearchHit, SearchQuery, SearchRequest, SearchResult } from './ports/search.ts';
import { deprecationStateSql, matchedSql, orderSql, type SearchDialect, type SearchRules } from './search-sql.ts';

/** Runs one read statement with its parameters and answers its rows. */
export type RunQuery = (sql: string, params: readonly unknown[]) => Promise<Array<Record<string, unknown>>>;

/** The facet values counted per field, most frequent first. */
const MAX_FACET_VALUES = 1000;
const ENTITY_TYPE_FACETS = new Set(['_entityType', 'entityType']);
const DEPRECATION_STATES = ['ACTIVE', 'DEPRECATED', 'OVERDUE'] as const;

interface Cursor {
  /** How many matches came before the next page. */
  readonly o: number;
}

const encode = (c: Cursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

/**
 * Entity search over the search index, the same on both engines: one statement for a page, one for a count, one for
 * all facets (the matches computed once). The engine gives its dialect (placeholders, full-text match) and a way to
 * run a read; the SQL itself is storage/search-sql.ts.
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
    if (paging.count === 0) return { hits: [], ...('scrollId' in paging && paging.scrollId ? { nextScrollId: paging.scrollId } : {}) };
    const params: unknown[] = [];
    const matched = matchedSql(req, this.dialect, params, this.rules, this.clock());
    const order = orderSql(req, this.dialect, params, this.rules);
    // One more than asked: whether a next page exists, without counting.
    const sql = `SELECT m.urn AS urn, m.entity_type AS entity_type,
        COALESCE((SELECT min(n.value) FROM search_fields n WHERE n.urn = m.urn AND n.field = '_entityName'),
          (SELECT min(n.value) FROM search_fields n WHERE n.urn = m.urn AND n.field = '_entityKeyName')) AS name
      FROM (${matched}) m ORDER BY ${order}
      LIMIT ${this.dialect.param(params, paging.count + 1)} OFFSET ${this.dialect.param(params, start)}`;
    const rows = await this.run(sql, params);
    const hits: SearchHit[] = rows
      .slice(0, paging.count)
      .map((r) => ({ urn: String(r.urn), entityType: String(r.entity_type), ...(r.name != null ? { name: String(r.name) } : {}) }));
    const more = rows.length > paging.count;
    return { hits, ...('scrollId' in paging && more ? { nextScrollId: encode({ o: start + paging.count }) } : {}) };
  }

  async count(req: SearchQuery): Promise<number> {
    const params: unknown[] = [];
    const matched = matchedSql(req, this.dialect, params, this.rules, this.clock());
    const [row] = await this.run(`SELECT count(*) AS n FROM (${matched}) m`, params);
    return Number(row?.n ?? 0);
  }

  /** Every facet in one statement over the matches, computed once. */
  async facets(req: SearchQuery, fields: readonly string[]): Promise<FacetCounts> {
    const counts: FacetCounts = new Map(fields.map((f) => [this.rules.baseField(f), new Map<string, number>()]));
    if (counts.size === 0) return counts;
    const params: unknown[] = [];
    const now = this.clock();
    const matched = matchedSql(req, this.dialect, params, this.rules, now);
    const parts: string[] = [];
    for (const field of counts.keys()) {
      const name = `CAST(${this.dialect.param(params, field)} AS text)`;
      if (ENTITY_TYPE_FACETS.has(field)) {
        parts.push(`SELECT ${name} AS field, m.entity_type AS value, count(*) AS n FROM m GROUP BY m.entity_type`);
      } else if (field === 'deprecationState') {
        for (const state of DEPRECATION_STATES) {
          const value = `CAST(${this.dialect.param(params, state)} AS text)`;
          const condition = deprecationStateSql(state, this.dialect, params, now);
          parts.push(`SELECT ${name} AS field, ${value} AS value, count(*) AS n FROM m JOIN entities e ON e.urn = m.urn WHERE ${condition}`);
        }
      } else {
        parts.push(
          `SELECT * FROM (SELECT ${name} AS field, f.value AS value, count(DISTINCT f.urn) AS n FROM search_fields f
             WHERE f.field = ${this.dialect.param(params, field)} AND f.urn IN (SELECT urn FROM m)
             GROUP BY f.value ORDER BY n DESC LIMIT ${MAX_FACET_VALUES}) x`,
        );
      }
    }
    const rows = await this.run(`WITH m AS MATERIALIZED (${matched}) ${parts.join(' UNION ALL ')}`, params);
    for (const r of rows) {
      const n = Number(r.n);
      if (n > 0) counts.get(String(r.field))?.set(String(r.value), n);
    }
    return counts;
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
