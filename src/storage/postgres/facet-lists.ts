/**
 * Counting facet values on PostgreSQL (migration 30): each entity with values of the default facet fields
 * (storage/search-facet-fields.ts) has one row of `search_facet_lists`, its values as a sorted `text[]` of
 * `field U+0001 value`, written with its search keys at the commit (postgres/search-index.ts). A search counts its
 * matches' lists with one seek per match and a hash of the values; before, each match's values were rows of
 * `search_facets`, read by a seek, sorted and made distinct per match (a word in 1% of a million entities, 10,000
 * matches, with its total and 11 facets over HTTP: 117.7 -> 87.7 ms). The rows are narrow, not a column of
 * `search_keys`, whose tsvectors of column paths make a row of about 1 kB (the facets of 18,000 matches in 100,000
 * entities, joined to each: 41 ms there, 32 in a narrow table).
 */

/** A facet value as a list holds it: the field (no field name holds U+0001), U+0001, the value. Text expressions. */
const listItemSql = (field: string, value: string): string => `${field} || chr(1) || ${value}`;

/**
 * An entity's list (sorted, distinct; NULL when it has no value) aggregated over rows `x` with `field` and `value`,
 * of which those where `where` holds are facet values.
 */
export const facetListAggSql = (where: string): string => {
  const item = listItemSql('x.field', 'x.value');
  return `array_agg(DISTINCT ${item} ORDER BY ${item}) FILTER (WHERE ${where})`;
};

/**
 * `SELECT field, value, n` over the matches `m` (SearchDialect.facetCounts): each match's list (`m.facets` where the
 * matches are document rows, postgres/search-docs.ts, else by a seek), its values
 * counted by a hash, then split back into field and value and kept for the `fields` asked (a placeholder of a
 * `text[]`). An entity without a list has no facet value. The seek is a scalar subquery, which PostgreSQL does not
 * turn into a join: as a join, it hashed every list of the catalog for 1,000 matches of 100,000 entities (7.4 ms
 * against 3.1).
 *
 * The lists are unnested in the select list (a ProjectSet), not by a lateral function scan per match, and the
 * counts are fenced (`OFFSET 0`) so that the fields' condition is checked on each distinct value once after the
 * count, not pushed down to every item of every list (a split_part each). A word in 1% of a million entities
 * (10,000 matches, 50,000 items), its whole statement with the page, total and 11 facets: 68.0 -> 52.2 ms; a
 * common word (180,000 matches): 1,126 -> 904 ms (medians, one database, same minutes).
 */
export const facetCountsSql = (fields: string): string => `SELECT c.field AS field, c.value AS value, c.n AS n FROM (
      SELECT split_part(v.item, chr(1), 1) AS field, substr(v.item, strpos(v.item, chr(1)) + 1) AS value, v.n AS n FROM (
        SELECT f.item AS item, count(*) AS n
          FROM (SELECT unnest(COALESCE(m.facets::text[], (SELECT l.facets FROM search_facet_lists l WHERE l.urn = m.urn))) AS item FROM m) f
         GROUP BY f.item OFFSET 0) v) c
     WHERE c.field = ANY(${fields})`;
