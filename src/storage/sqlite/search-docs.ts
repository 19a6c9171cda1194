/**
 * What SQLite's document row (search_docs: one per entity the index holds, migrations 24, 29 and 30) says beside its
 * number, urn and type, so that a search reading the row has no other row of the entity to seek for it: whether the
 * entity is soft-deleted (`removed`), its names folded (`names`: each `_entityName` and `_entityKeyName` value, for
 * ranking an exact name and a name prefix first, storage/search-doc-names.ts), and the numbers of its facet values (`facets`,
 * sqlite/facet-tally.ts). Written with the document's keys (sqlite/search-index.ts), whenever a name, a facet value
 * or the soft-deletion flag comes or goes.
 */
import { NAME_FIELDS } from '../search-sql.ts';
import { NAMES_SEP, nameItem } from '../search-doc-names.ts';

/** The `names` column for an entity's folded names: distinct, in byte order (SQLite's BINARY, as migration 29 orders them). */
export const docNames = (folded: Iterable<string>): string => {
  const items = [...new Set([...folded].map(nameItem))].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return items.length === 0 ? '' : `${NAMES_SEP}${items.join(NAMES_SEP)}${NAMES_SEP}`;
};

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
