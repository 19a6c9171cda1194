/**
 * What SQLite's document row (search_docs: one per entity the index holds, migrations 24, 29 and 30) says beside its
 * number, urn and type, so that a search reading the row has no other row of the entity to seek for it: whether the
 * entity is soft-deleted (`removed`), its names folded (`names`: each `_entityName` and `_entityKeyName` value, for
 * ranking an exact name and a name prefix first), and the numbers of its facet values (`facets`,
 * sqlite/facet-tally.ts). Written with the document's keys (sqlite/search-index.ts), whenever a name, a facet value
 * or the soft-deletion flag comes or goes.
 */
import { NAME_FIELDS } from '../search-sql.ts';

/** Separates the names in `names`, and starts and ends it: `\x1fname\x1fkey name\x1f`. */
const SEP = '\u001f';

/** A folded name as `names` holds it (the separator inside a name becomes a space). */
const nameItem = (folded: string): string => folded.replaceAll(SEP, ' ');

/** The `names` column for an entity's folded names: distinct, in byte order (SQLite's BINARY, as migration 29 orders them). */
export const docNames = (folded: Iterable<string>): string => {
  const items = [...new Set([...folded].map(nameItem))].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return items.length === 0 ? '' : `${SEP}${items.join(SEP)}${SEP}`;
};

/**
 * A match's ranking tier from its document row `e`: 2 when a name is `name` (folded), 1 when a name starts with it, 0
 * otherwise; what the join to the names with that prefix computed, from the row the search reads anyway.
 */
export function docTierSql(params: unknown[], name: string, param: (params: unknown[], value: unknown) => string): string {
  const item = nameItem(name);
  const exact = param(params, `${SEP}${item}${SEP}`);
  const prefix = param(params, `${SEP}${item}`);
  return `CASE WHEN instr(e.names, ${exact}) > 0 THEN 2 WHEN instr(e.names, ${prefix}) > 0 THEN 1 ELSE 0 END`;
}

/**
 * Sets every document row's names from the name rows (migration 29), read through the partial index on names alone
 * (its entries carry the urn: no read of search_fields itself), in the form docNames writes (group_concat's own
 * ORDER BY, SQLite 3.44 and later: byte order). A correlated read per document sought search_fields at random: over
 * 10 minutes at a million entities on a file larger than the page cache.
 */
export const FILL_DOC_NAMES_SQL = `UPDATE search_docs AS d SET names = t.names FROM (
    SELECT urn, char(31) || group_concat(v, char(31) ORDER BY v) || char(31) AS names FROM (
      SELECT DISTINCT urn, replace(folded, char(31), ' ') AS v FROM search_fields INDEXED BY search_fields_names WHERE ${NAME_FIELDS})
     GROUP BY urn) t
  WHERE d.urn = t.urn`;
