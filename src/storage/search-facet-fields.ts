/**
 * The fields whose values the index also keeps in a compact form for counting facets over a large match set: the
 * default facets DataHub's UI shows (catalog/search/search-facets.ts) that are indexed values. SQLite lists each
 * document's value numbers on its row (`search_docs.facets`, migration 30, sqlite/facet-tally.ts); PostgreSQL lists
 * each entity's values on a row of `search_facet_lists` (migration 30, postgres/facet-lists.ts). A facet on any other
 * field is counted from `search_fields`. They are also the fields of the search keys (storage/search-keys.ts) a filter
 * is answered from. Changing this list needs a migration that fills those lists and `search_keys` for the fields added
 * (SQLite 26 and 30, PostgreSQL 25, 27 and 30, filled them for these).
 */
export const FACET_FIELDS: readonly string[] = [
  'platform',
  'origin',
  'typeNames',
  'container',
  'owners',
  'tags',
  'glossaryTerms',
  'domains',
  'deprecated',
];

export const FACET_FIELD_SET: ReadonlySet<string> = new Set(FACET_FIELDS);
