import { DEPRECATION_STATES } from '../deprecation-lifecycle.ts';
import { badRequest } from '../errors.ts';
import type { SearchFilter } from '../../storage/store.ts';
import { SEARCH_FIELD_NAMES, STRUCTURED_PROPERTY_FIELD_PREFIX } from './search-entries.ts';

/** DataHub's search filter and sort, as the search port takes them. */
export type { SearchCriterion, SearchFilter, SortCriterion } from '../../storage/store.ts';

/** The conditions the index applies, with DataHub's meaning on exact (keyword) values. */
const CONDITIONS = new Set([
  'EQUAL',
  'IN',
  'IEQUAL',
  'CONTAIN',
  'START_WITH',
  'END_WITH',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL_TO',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL_TO',
  'EXISTS',
]);

/** Fields that belong to the entity rather than an aspect, and Almanac's derived ones. */
const ENTITY_FIELDS = new Set(['urn', '_entityType', 'entityType', '_index', 'deprecationState']);

/** `platform.keyword` and `platform` are one field: the index keeps exact values under the plain name. */
export const baseFieldName = (field: string): string => (field.endsWith('.keyword') ? field.slice(0, -'.keyword'.length) : field);

/**
 * Checks a filter up front, so a bad one is a 400 naming it before anything is read: an unknown condition, a missing
 * value, a field no entity type indexes (which would otherwise match nothing, silently), a lifecycle state that does
 * not exist.
 */
export function checkFilter(filter: SearchFilter): void {
  filter.forEach((group, i) =>
    group.forEach((c, j) => {
      const where = `orFilters[${i}].and[${j}] (${c.field})`;
      const condition = c.condition ?? 'EQUAL';
      if (!CONDITIONS.has(condition))
        throw badRequest(`${where}: condition ${condition} is not supported; Almanac applies ${[...CONDITIONS].join(', ')}`);
      const field = baseFieldName(c.field);
      const known = ENTITY_FIELDS.has(field) || SEARCH_FIELD_NAMES.has(field) || field.startsWith(STRUCTURED_PROPERTY_FIELD_PREFIX);
      if (!known) throw badRequest(`${where}: no entity type has a search field named ${field}`);
      if (condition !== 'EXISTS' && c.values.length === 0) throw badRequest(`${where}: give at least one value`);
      const unknownState = field === 'deprecationState' ? c.values.find((v) => !(DEPRECATION_STATES as readonly string[]).includes(v)) : undefined;
      if (unknownState !== undefined) {
        throw badRequest(`orFilters[${i}].and[${j}] (deprecationState): unknown value ${unknownState}; use ${DEPRECATION_STATES.join(', ')}`);
      }
    }),
  );
}

/** The query as the search port takes it: undefined for match-all. */
export const fullTextQuery = (query: string | undefined | null): string | undefined => {
  const q = (query ?? '').trim();
  return q === '' || q === '*' ? undefined : q;
};
