/**
 * PostgreSQL's document rows (migration 31): one row of `search_docs` per entity the index holds words of, with what
 * a search for words reads of each match, so that GIN's answer is the matches themselves, with no seek per match:
 * the entity's type, whether it is soft-deleted, its names (storage/search-doc-names.ts: the ranking tiers), its list
 * of facet values (as search_facet_lists holds it, postgres/facet-lists.ts) and the words of its fields queried by
 * default as one tsvector under GIN. A word's matches on search_text were its text rows, read from the heap and
 * grouped by urn, then a seek per match for the soft-deletion flag and one for the facet list (a word in 1% of a
 * million entities, with its total and 11 facets, the store alone at p50: 133.2 ms, 84.1 at best; 45.6 over these
 * rows).
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
 * The lexeme of a document row whose positions are not all kept: PostgreSQL keeps a position up to 16,383 (one past
 * is kept at it) and 256 positions of a word, so a wide entity's later phrases cannot be told from its words (the
 * concatenation shifts each field past all the fields before it). Also on a row whose words outgrew FULL_BYTES (a
 * field left out). A phrase of such a row is checked on its search_text rows instead (docWordRowsSql). No word is
 * this lexeme: a kept word starts with its boost.
 */
const FULL = `'~full'`;

/**
 * The most bytes of words a document row's tsvector takes, under PostgreSQL's limit of 1 MB for one: a field whose
 * words would take it past this is left out of the row (which is marked FULL) instead of failing the write. The same
 * for one field of more than half of it.
 */
const FULL_BYTES = 900_000;

/**
 * The functions the document rows are written with: one field's words (space-separated, letters and digits:
 * catalog/search/search-tokens.ts) as a tsvector of `<boost>~<word>` at positions from 2 (the gap before the
 * field), and their concatenation within FULL_BYTES (`||` shifts each field's positions past the ones before).
 * Created by migration 31. The tsvector's input merges a word's positions and keeps positions past its limit at the
 * limit; a word of 2,000 bytes or more is left out, as to_tsvector leaves out a word past its limit. Over 100,000
 * text rows of the bench's catalog: 12 µs a row, where grouping the positions first took 15 and
 * regexp_split_to_table 19.
 */
export const DOC_WORDS_FUNCTIONS_SQL = `
  CREATE FUNCTION search_doc_words(words text, boost real) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT CASE WHEN octet_length(words) > ${FULL_BYTES / 2} THEN ${FULL}::tsvector ELSE (
      SELECT COALESCE(string_agg('''' || boost::text || '~' || w || ''':' || (n + 1), ' '), '')::tsvector
        FROM unnest(string_to_array(words, ' ')) WITH ORDINALITY AS t(w, n)
       WHERE w <> '' AND octet_length(w) < 2000) END
  $f$;
  CREATE FUNCTION search_doc_words_add(acc tsvector, field tsvector) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT CASE WHEN pg_column_size(acc) + pg_column_size(field) > ${FULL_BYTES} THEN acc || ${FULL}::tsvector ELSE acc || field END
  $f$;
  CREATE AGGREGATE search_doc_words_agg(tsvector) (SFUNC = search_doc_words_add, STYPE = tsvector, INITCOND = '');
`;

/**
 * The entity `urn`'s words (a scalar subquery; NULL when none of its fields queried by default has words), marked
 * FULL when a position or a word's positions reached PostgreSQL's limits.
 */
export const docWordsSql = (urn: string): string => `(SELECT CASE
      WHEN w = ''::tsvector THEN NULL
      WHEN EXISTS (SELECT 1 FROM unnest(w) u WHERE cardinality(u.positions) >= 256 OR u.positions[cardinality(u.positions)] >= 16383)
        THEN w || ${FULL}::tsvector
      ELSE w END
    FROM (SELECT search_doc_words_agg(search_doc_words(t.words, t.boost) ORDER BY t.aspect, t.field) AS w
            FROM search_text t WHERE t.urn = ${urn} AND t.by_default) x)`;

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
 * A phrase as to_tsquery('simple', ...) reads it over search_text: its words next to each other, the last a prefix if
 * `prefix`. Words are letters and digits only (catalog/search/search-tokens.ts): safe as tsquery lexemes.
 */
export const phraseQueryText = (words: readonly string[], prefix: boolean): string =>
  words.map((w, i) => (prefix && i === words.length - 1 ? `${w}:*` : w)).join(' <-> ');

/** A term of a words query: a phrase (one word is the plain case), its last word a prefix if `prefix`. */
export interface DocTerm {
  readonly words: readonly string[];
  readonly prefix: boolean;
}

type Param = (params: unknown[], value: unknown) => string;

/** A term's word `i` under `boost`, as a tsquery operand. */
const wordUnder = (term: DocTerm, i: number, boost: number): string =>
  `${lexeme(boost, term.words[i]!)}${term.prefix && i === term.words.length - 1 ? ':*' : ''}`;

/** The term as a tsquery over the words kept under `boost`. */
const phraseUnder = (term: DocTerm, boost: number): string => `(${term.words.map((_, i) => wordUnder(term, i, boost)).join(' <-> ')})`;

/** The term's words under any boost, anywhere in the row (no positions: what a FULL row can still tell). */
const wordsAnywhere = (term: DocTerm, boosts: readonly number[]): string =>
  `(${term.words.map((_, i) => `(${boosts.map((b) => wordUnder(term, i, b)).join(' | ')})`).join(' & ')})`;

/** The columns a search reads of a document row. */
const COLUMNS = ['urn', 'entity_type', 'removed', 'names', 'facets'];

/**
 * The rows `d` holding `term` with the boost of its best field as `score`: one GIN read per boost, highest first,
 * each leaving out the rows a higher one found, each also asking `also` (a tsquery the rows must match, or
 * undefined). A phrase of several words leaves out FULL rows, and reads those holding its words with the phrase
 * checked, and its score taken, from their search_text rows (few: entities too wide for their positions).
 */
function termRows(
  term: DocTerm,
  also: string | undefined,
  boosts: readonly number[],
  columns: readonly string[],
  params: unknown[],
  param: Param,
): string {
  const phrase = term.words.length > 1;
  const selected = columns.map((c) => `d.${c}`).join(', ');
  const reads = boosts.map((boost, i) => {
    const higher = boosts.slice(0, i).map((b) => phraseUnder(term, b));
    const query = [
      phraseUnder(term, boost),
      ...(higher.length > 0 ? [`!(${higher.join(' | ')})`] : []),
      ...(phrase ? [`!${FULL}`] : []),
      ...(also !== undefined ? [also] : []),
    ].join(' & ');
    return `SELECT ${selected}, ${param(params, boost)} AS score FROM search_docs d WHERE d.words @@ ${param(params, query)}::tsquery`;
  });
  if (phrase) {
    const candidates = [FULL, wordsAnywhere(term, boosts), ...(also !== undefined ? [also] : [])].join(' & ');
    const text = phraseQueryText(term.words, term.prefix);
    reads.push(`SELECT ${selected}, s.score FROM search_docs d
      CROSS JOIN LATERAL (SELECT max(t.boost) AS score FROM search_text t
        WHERE t.urn = d.urn AND t.by_default AND t.tsv @@ to_tsquery('simple', ${param(params, text)})) s
      WHERE d.words @@ ${param(params, candidates)}::tsquery AND s.score IS NOT NULL`);
  }
  return reads.join(' UNION ALL ');
}

/**
 * The document rows `e` holding every one of `terms` (a plain query's words: AND), each with `score`, the sum over the
 * terms of the boost of the best field holding it, as search_text's rows give it (storage/search-sql.ts: matchSql).
 * One term: its rows (termRows). More: each term's rows among those holding every term's words (the GIN index
 * intersects them), joined by urn; each holds one row per match, so the join is one to one. A word of 2,000 bytes or
 * more is in no row (search_doc_words leaves it out, and a tsquery refuses it): no match.
 */
export function docWordRowsSql(params: unknown[], terms: readonly DocTerm[], boosts: readonly number[], param: Param): string {
  if (terms.some((t) => t.words.some((w) => Buffer.byteLength(w) >= 2000))) {
    return `SELECT ${COLUMNS.join(', ')}, CAST(0 AS float8) AS score FROM search_docs WHERE false`;
  }
  if (terms.length === 1) return termRows(terms[0]!, undefined, boosts, COLUMNS, params, param);
  const others = (i: number) =>
    terms
      .filter((_, j) => j !== i)
      .map((t) => wordsAnywhere(t, boosts))
      .join(' & ');
  const [first, ...rest] = terms;
  const joins = rest.map((term, i) => ` JOIN (${termRows(term, others(i + 1), boosts, ['urn'], params, param)}) t${i + 1} ON t${i + 1}.urn = t0.urn`);
  const score = ['t0.score', ...rest.map((_, i) => `t${i + 1}.score`)].join(' + ');
  return `SELECT t0.urn, t0.entity_type, t0.removed, t0.names, t0.facets, ${score} AS score
    FROM (${termRows(first!, others(0), boosts, COLUMNS, params, param)}) t0${joins.join('')}`;
}
