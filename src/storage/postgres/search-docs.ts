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
 * and for queries of several terms.
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

/**
 * The document rows `e` whose words hold the phrase `words` (the last a prefix if `prefix`), each with the boost of
 * its best field as `score`: one GIN read per boost, highest first, each leaving out the rows a higher one found.
 * `param` pushes a value and answers its placeholder.
 */
export function docWordRowsSql(
  params: unknown[],
  words: readonly string[],
  prefix: boolean,
  boosts: readonly number[],
  param: (params: unknown[], value: unknown) => string,
): string {
  const phrase = (boost: number) => `(${words.map((w, i) => `${lexeme(boost, w)}${prefix && i === words.length - 1 ? ':*' : ''}`).join(' <-> ')})`;
  const reads = boosts.map((boost, i) => {
    const higher = boosts.slice(0, i).map(phrase);
    const query = higher.length === 0 ? phrase(boost) : `${phrase(boost)} & !(${higher.join(' | ')})`;
    return `SELECT urn, entity_type, removed, names, facets, ${param(params, boost)} AS score FROM search_docs WHERE words @@ ${param(params, query)}::tsquery`;
  });
  return reads.join(' UNION ALL ');
}
