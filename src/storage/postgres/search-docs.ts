/**
 * PostgreSQL's document rows (migration 31): one row of `search_docs` per entity the index holds words of, with what
 * a search for words reads of each match, so that GIN's answer is the matches themselves, with no seek per match:
 * the entity's type, whether it is soft-deleted, its names (storage/search-doc-names.ts: the ranking tiers), its list
 * of facet values (as search_facet_lists holds it, postgres/facet-lists.ts) and the words of its fields queried by
 * default as one tsvector under GIN. A word's matches on search_text were its text rows, read from the heap and
 * grouped by urn, then a seek per match for the soft-deletion flag and one for the facet list (a word in 1% of a
 * million entities, with its total and facets: 84 to 133 ms for the store's statement; the same work over these rows
 * 37 to 51).
 *
 * Each word is kept as `<boost>~<word>`, under the boost of the field it is in (storage/search-rows.ts), so a
 * search asks GIN for each boost the registry gives (SearchRules.boosts), highest first, each excluding the higher
 * ones: the boost a match ranks by (its best field's) is the branch that found it, with no read of its words. A
 * field's positions start one past the last field's, so a phrase never spans two fields. Written with the entity's
 * keys at the commit (postgres/search-index.ts), from its search_text rows; search_text stays for `/q field:` words
 * and for queries with OR or an exclusion.
 */
import { NAMES_SEP } from '../search-doc-names.ts';
import { NAME_FIELDS } from '../search-sql.ts';

/**
 * The functions the document rows are written with: one field's words (space-separated, letters and digits:
 * catalog/search/search-tokens.ts) as a tsvector of `<boost>~<word>` at positions from 2 (the gap before the
 * field), and their concatenation (`||` shifts each field's positions past the ones before). Created by migration 31.
 * The tsvector's input merges a word's positions and keeps positions past its limit (16,383) at the limit; a word of
 * 2,000 bytes or more is left out, as to_tsvector leaves out a word past its limit. Over 100,000 text rows of the
 * bench's catalog: 12 µs a row, where grouping the positions first took 15 and regexp_split_to_table 19.
 */
export const DOC_WORDS_FUNCTIONS_SQL = `
  CREATE FUNCTION search_doc_words(words text, boost real) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT COALESCE(string_agg('''' || boost::text || '~' || w || ''':' || (n + 1), ' '), '')::tsvector
      FROM unnest(string_to_array(words, ' ')) WITH ORDINALITY AS t(w, n)
     WHERE w <> '' AND octet_length(w) < 2000
  $f$;
  CREATE AGGREGATE search_doc_words_agg(tsvector) (SFUNC = tsvector_concat, STYPE = tsvector, INITCOND = '');
`;

/** The entity `urn`'s words (a scalar subquery; NULL when none of its fields queried by default has words). */
export const docWordsSql = (urn: string): string =>
  `(SELECT search_doc_words_agg(search_doc_words(t.words, t.boost) ORDER BY t.aspect, t.field) FROM search_text t WHERE t.urn = ${urn} AND t.by_default)`;

/** The entity `urn`'s names as the document row holds them (storage/search-doc-names.ts); NULL when it has none. */
export const docNamesSql = (urn: string): string => {
  const item = `replace(n.folded, chr(31), ' ')`;
  return `(SELECT chr(31) || string_agg(DISTINCT ${item}, chr(31) ORDER BY ${item}) || chr(31) FROM search_fields n WHERE n.urn = ${urn} AND n.${NAME_FIELDS})`;
};

if (NAMES_SEP !== '\u001f') throw new Error('docNamesSql writes chr(31) as the separator of names');

/**
 * A word as the document rows hold it under `boost`: what search_doc_words writes, `real`'s shortest text of the
 * boost, which is JavaScript's for the registry's boosts (10, 4, 2, 1, 0.5).
 */
const lexeme = (boost: number, word: string): string => `'${String(boost)}~${word}'`;

/** A term of a words query: a phrase (one word is the plain case), its last word a prefix if `prefix`. */
export interface DocTerm {
  readonly words: readonly string[];
  readonly prefix: boolean;
}

/** The term as a tsquery over the words kept under `boost`. */
const phraseUnder = (term: DocTerm, boost: number): string =>
  `(${term.words.map((w, i) => `${lexeme(boost, w)}${term.prefix && i === term.words.length - 1 ? ':*' : ''}`).join(' <-> ')})`;

/**
 * The rows holding `term` with the boost of its best field as `score`: one GIN read per boost, highest first, each
 * leaving out the rows a higher one found, each also asking `also` (a tsquery the rows must match, or undefined).
 */
function termRows(term: DocTerm, also: string | undefined, boosts: readonly number[], columns: string, params: unknown[], param: Param): string {
  return boosts
    .map((boost, i) => {
      const higher = boosts.slice(0, i).map((b) => phraseUnder(term, b));
      const query = [phraseUnder(term, boost), ...(higher.length > 0 ? [`!(${higher.join(' | ')})`] : []), ...(also ? [also] : [])].join(' & ');
      return `SELECT ${columns}, ${param(params, boost)} AS score FROM search_docs WHERE words @@ ${param(params, query)}::tsquery`;
    })
    .join(' UNION ALL ');
}

type Param = (params: unknown[], value: unknown) => string;

/**
 * The document rows `e` holding every one of `terms` (a plain query's words: AND), each with `score`, the sum over the
 * terms of the boost of the best field holding it, as search_text's rows give it (storage/search-sql.ts: matchSql).
 * One term: its rows (termRows). More: each term's rows among those holding every term (the GIN index intersects
 * them), joined by urn; each holds one row per match, so the join is one to one.
 */
export function docWordRowsSql(params: unknown[], terms: readonly DocTerm[], boosts: readonly number[], param: Param): string {
  const columns = 'urn, entity_type, removed, names, facets';
  if (terms.length === 1) return termRows(terms[0]!, undefined, boosts, columns, params, param);
  const any = (term: DocTerm) => `(${boosts.map((b) => phraseUnder(term, b)).join(' | ')})`;
  const others = (i: number) =>
    terms
      .filter((_, j) => j !== i)
      .map(any)
      .join(' & ');
  const [first, ...rest] = terms;
  const joins = rest.map((term, i) => ` JOIN (${termRows(term, others(i + 1), boosts, 'urn', params, param)}) t${i + 1} ON t${i + 1}.urn = t0.urn`);
  const score = ['t0.score', ...rest.map((_, i) => `t${i + 1}.score`)].join(' + ');
  return `SELECT t0.urn, t0.entity_type, t0.removed, t0.names, t0.facets, ${score} AS score
    FROM (${termRows(first!, others(0), boosts, columns, params, param)}) t0${joins.join('')}`;
}
