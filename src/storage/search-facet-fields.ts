/**
 * The fields whose values the SQLite index also keeps as compact facet rows (`search_facets`, migration 25): the
 * default facets DataHub's UI shows (catalog/search/search-facets.ts) that are indexed values, so counting them over
 * a large match set reads a few small integer rows per match instead of a seek of `search_fields` per field. A facet
 * on any other field is counted from `search_fields`, as before. They are also the fields of the search keys
 * (storage/search-keys.ts) a filter is answered from. Changing this list needs a migration that fills
 * `search_facets` and `search_keys` for the fields added (migrations 25, and SQLite 26 / PostgreSQL 27, filled them
 * for these).
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
