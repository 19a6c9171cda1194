import type { SearchFilter } from '../../catalog/search/search-filter.ts';
import type { GraphqlModule } from './schema.ts';

/** DataHub's filter and sort inputs (search.graphql), shared by search, scroll, token lists and profiles. */
const typeDefs = /* GraphQL */ `
  enum FilterOperator {
    CONTAIN
    EQUAL
    IEQUAL
    IN
    EXISTS
    GREATER_THAN
    GREATER_THAN_OR_EQUAL_TO
    LESS_THAN
    LESS_THAN_OR_EQUAL_TO
    START_WITH
    END_WITH
    DESCENDANTS_INCL
    ANCESTORS_INCL
    RELATED_INCL
  }

  "One criterion: the field matches one of the values under the condition (EQUAL when unset), or not when negated."
  input FacetFilterInput {
    field: String!
    values: [String!]
    negated: Boolean
    condition: FilterOperator
  }

  "Criteria that must all hold."
  input AndFilterInput {
    and: [FacetFilterInput!]
  }

  input FilterInput {
    and: [FacetFilterInput!]!
  }

  enum SortOrder {
    ASCENDING
    DESCENDING
  }

  input SortCriterion {
    field: String!
    sortOrder: SortOrder!
  }

  input SearchSortInput {
    sortCriterion: SortCriterion @deprecated(reason: "Use sortCriteria instead")
    sortCriteria: [SortCriterion!]
  }
`;

export interface FacetFilter {
  readonly field: string;
  readonly values?: readonly string[] | null;
  readonly negated?: boolean | null;
  readonly condition?: string | null;
}

export interface AndFilter {
  readonly and?: readonly FacetFilter[] | null;
}

export interface SortInput {
  readonly sortCriterion?: { readonly field: string; readonly sortOrder: 'ASCENDING' | 'DESCENDING' } | null;
  readonly sortCriteria?: ReadonlyArray<{ readonly field: string; readonly sortOrder: 'ASCENDING' | 'DESCENDING' }> | null;
}

/** orFilters in the catalog's terms: a disjunction of conjunctions of criteria. */
export const searchFilterOf = (orFilters: readonly AndFilter[]): SearchFilter =>
  orFilters.map((g) =>
    (g.and ?? []).map((f) => ({
      field: f.field,
      values: f.values ?? [],
      ...(f.condition ? { condition: f.condition } : {}),
      ...(f.negated ? { negated: true } : {}),
    })),
  );

/** DataHub's rule for inputs carrying both: orFilters when given, else the deprecated filters as one conjunction. */
export const inputFilter = (orFilters: readonly AndFilter[] | null | undefined, filters?: readonly FacetFilter[] | null): SearchFilter =>
  orFilters && orFilters.length > 0 ? searchFilterOf(orFilters) : filters && filters.length > 0 ? searchFilterOf([{ and: filters }]) : [];

export const filtersModule: GraphqlModule = { typeDefs, resolvers: {} };
