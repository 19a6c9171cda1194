import type { ParsedSearchQuery as ParsedQuery } from './ports/search-query.ts';

/**
 * SQL over the search index, the same shape on both engines: `search_fields` holds each exact value an aspect
 * contributes (field, value, folded value, number), the engine's full-text table holds each text field's words, and
 * `entities` is the universe. A parsed query becomes one SELECT of `(urn, score)`; filters become EXISTS clauses on
 * `search_fields`. What differs between engines (placeholders, the full-text match, LIKE) comes from the dialect.
 */
export interface SearchDialect {
  /** A placeholder for the value; the dialect keeps the values in order. */
  readonly param: (params: unknown[], value: unknown) => string;
  /** `SELECT urn, max(boost) AS score` of the rows whose words match (a phrase; the last word a prefix if asked). */
  readonly wordsMatch: (params: unknown[], words: readonly string[], prefix: boolean, field: string | undefined) => string;
  readonly like: 'LIKE' | 'ILIKE';
  readonly trueValue: string;
}

const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A `*` pattern as LIKE's, everything else literal. */
export const likePattern = (pattern: string): string => pattern.split('*').map(likeEscape).join('%');

/**
 * The matches of a parsed query as `SELECT urn, score`: full-text words and phrases from the text table, exact-value
 * forms (`_exists_`, wildcards) from `search_fields`, AND as a join (scores add), OR as a union (the best score),
 * NOT as an anti-join. `universe` is the SELECT of every candidate, for a query that only excludes.
 */
export function matchSql(q: ParsedQuery, d: SearchDialect, params: unknown[], universe: string): string {
  switch (q.kind) {
    case 'all':
      return `SELECT urn, 0 AS score FROM (${universe}) u`;
    case 'words':
      return d.wordsMatch(params, q.words, q.prefix, q.field);
    case 'exists':
      return `SELECT DISTINCT urn, 0 AS score FROM search_fields WHERE field = ${d.param(params, q.field)}`;
    case 'wildcard':
      return `SELECT DISTINCT urn, 0 AS score FROM search_fields WHERE field = ${d.param(params, q.field)} AND folded ${d.like} ${d.param(params, likePattern(q.pattern))} ESCAPE '\\'`;
    case 'or': {
      const parts = q.children.map((c) => matchSql(c, d, params, universe));
      return `SELECT urn, max(score) AS score FROM (${parts.join(' UNION ALL ')}) o GROUP BY urn`;
    }
    case 'not':
      return `SELECT urn, 0 AS score FROM (${universe}) u WHERE urn NOT IN (SELECT urn FROM (${matchSql(q.child, d, params, universe)}) n)`;
    case 'and': {
      const positive = q.children.filter((c) => c.kind !== 'not');
      const negative = q.children.filter((c): c is Extract<ParsedQuery, { kind: 'not' }> => c.kind === 'not');
      const base = positive.length > 0 ? positive : [{ kind: 'all' } as const];
      const joined = base.map((c, i) => `(${matchSql(c, d, params, universe)}) a${i}`);
      let sql = `SELECT a0.urn, ${base.map((_, i) => `a${i}.score`).join(' + ')} AS score FROM ${joined[0]}`;
      for (let i = 1; i < joined.length; i++) sql += ` JOIN ${joined[i]} ON a${i}.urn = a0.urn`;
      const exclusions = negative.map((n) => `a0.urn NOT IN (SELECT urn FROM (${matchSql(n.child, d, params, universe)}) x)`);
      return exclusions.length > 0 ? `${sql} WHERE ${exclusions.join(' AND ')}` : sql;
    }
  }
}
