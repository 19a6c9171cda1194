/**
 * The facets a search counts when none are named (DataHub's field names and display names), in this order: what
 * GraphQL's searchAcrossEntities and Rest.li's search actions answer alike.
 */
export const SEARCH_FACETS: ReadonlyArray<readonly [field: string, displayName: string]> = [
  ['_entityType', 'Type'],
  ['platform', 'Platform'],
  ['origin', 'Environment'],
  ['typeNames', 'Sub Type'],
  ['container', 'Container'],
  ['owners', 'Owned By'],
  ['tags', 'Tag'],
  ['glossaryTerms', 'Glossary Term'],
  ['domains', 'Domain'],
  ['deprecated', 'Deprecated'],
  // Almanac's: ACTIVE, DEPRECATED or OVERDUE (catalog/deprecation-lifecycle.ts).
  ['deprecationState', 'Deprecation state'],
];

/** A facet's display name: DataHub's for the default facets, else the field itself. */
export const facetDisplayName = (field: string): string => SEARCH_FACETS.find(([name]) => name === field)?.[1] ?? field;

/** Counts of one facet, most frequent value first, ties by value. */
export const sortedFacetValues = (counts: ReadonlyMap<string, number> | undefined): Array<[value: string, count: number]> =>
  [...(counts ?? [])].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

/**
 * An autocomplete request as a search query: the words as prefixes of the entity's name, or of the given field
 * (`/q field:word*`), which is what a user typing into a search box means. Empty or `*` matches everything.
 */
export function autocompleteQuery(query: string, field?: string | null): string {
  const text = query.trim();
  if (text === '' || text === '*') return '*';
  if (field)
    return `/q ${field}:${text
      .replace(/[\s"()|]+/g, ' ')
      .trim()
      .split(' ')
      .join(` ${field}:`)}*`;
  return `${text}*`;
}
