/** The facets offered as selects on the search pages, by DataHub's field names. */
export const FACET_SELECTS: ReadonlyArray<readonly [field: string, label: string]> = [
  ['platform', 'Platform'],
  ['owners', 'Owner'],
  ['tags', 'Tag'],
  ['glossaryTerms', 'Glossary term'],
  ['domains', 'Domain'],
];

/** The filters an address carries, of the given fields. */
export const chosenFrom = (params: URLSearchParams, fields: readonly string[]): Record<string, string> =>
  Object.fromEntries(fields.flatMap((f) => (params.get(f) ? [[f, params.get(f)!]] : [])));

/** DataHub's orFilters for the chosen values (all of them at once), and deprecated ones only if asked. */
export function orFiltersOf(chosen: Readonly<Record<string, string>>, deprecatedOnly: boolean) {
  const and = [
    ...Object.entries(chosen)
      .filter(([, v]) => v)
      .map(([field, v]) => ({ field, values: [v] })),
    ...(deprecatedOnly ? [{ field: 'deprecated', values: ['true'] }] : []),
  ];
  return and.length ? [{ and }] : [];
}
