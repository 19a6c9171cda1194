import type { ParsedSearchQuery } from './search-index.ts';

/** One criterion of DataHub's search filter (FacetFilterInput / Criterion). */
export interface SearchCriterion {
  readonly field: string;
  readonly values: readonly string[];
  /** EQUAL when absent, as in DataHub. */
  readonly condition?: string;
  readonly negated?: boolean;
}

/** DataHub's `orFilters`: the document matches when every criterion of at least one group holds; no groups match all. */
export type SearchFilter = readonly (readonly SearchCriterion[])[];

export interface SortCriterion {
  readonly field: string;
  readonly order: 'ASCENDING' | 'DESCENDING';
}

/** What searchAcrossEntities and scrollAcrossEntities ask, in registry terms: which documents match, in what order. */
export interface SearchQuery {
  /** Registry entity names, searched in this order. */
  readonly entityTypes: readonly string[];
  /** A full-text query; undefined matches everything. */
  readonly query?: string;
  /** The query as the catalog parsed it (DataHub's query language): what an index matches. */
  readonly parsed?: ParsedSearchQuery;
  readonly filter: SearchFilter;
  /** DataHub leaves soft-deleted entities out unless this is set or the filter names `removed`. */
  readonly includeSoftDeleted: boolean;
  readonly sort: readonly SortCriterion[];
}

/** A page by offset (searchAcrossEntities' start and count) or after a scroll id the engine returned (none: the first page). */
export type SearchPaging = { readonly start: number; readonly count: number } | { readonly scrollId: string | undefined; readonly count: number };

export interface SearchRequest extends SearchQuery {
  readonly paging: SearchPaging;
  /** Count every match with the page: the matches are computed once for the page, the total and the facets. */
  readonly withTotal?: boolean;
  /** Facet fields to count with the page (as `facets` takes them). */
  readonly facets?: readonly string[];
}

export interface SearchHit {
  readonly urn: string;
  readonly entityType: string;
  /** The entity's display name, as indexed (`_entityName`), when it has one. */
  readonly name?: string;
}

export interface SearchResult {
  readonly hits: readonly SearchHit[];
  /** Present when more may follow (scroll paging only). */
  readonly nextScrollId?: string;
  /** Every match, when asked for (`withTotal`) or counted anyway; otherwise `count` answers. */
  readonly total?: number;
  /** The facets asked for with the page. */
  readonly facets?: FacetCounts;
}

/** Per facet field (as asked, `.keyword` removed), how many matches hold each value, each counted once per entity. */
export type FacetCounts = Map<string, Map<string, number>>;

/** The catalog's rules the index reads by: entity type names, filter field names, folding, the scroll id error. */
export interface SearchDocuments {
  /** The registry's name of an entity type; throws the catalog's error for an unknown one. */
  entityType(name: string): string;
  /** `platform.keyword` and `platform` are one field. */
  baseField(field: string): string;
  /** Case and accents folded, as the index folds values. */
  fold(text: string): string;
  /** The error for a scroll id this server did not return. */
  invalidScrollId(scrollId: string): Error;
  /** Every boost a field queried by default carries (the registry's), highest first. */
  readonly boosts: readonly number[];
}

/**
 * Where the build of the index over aspects stored before it stands: the migration that creates the index starts one
 * on a database that already holds aspects, and it runs in batches while the server answers.
 */
export interface SearchIndexBuild {
  /** Every stored aspect is indexed: searches read a complete index. */
  readonly complete: boolean;
  /** Aspects the build has indexed so far. */
  readonly done: number;
  /** Aspects it had to index when it started. */
  readonly total: number;
}

/** One exact value the index holds for an entity: its field, the value as text, and as a number when it is one. */
export interface IndexedValue {
  readonly field: string;
  readonly value: string;
  readonly number?: number;
}

/** What SearchPort only reads. */
export interface SearchReads {
  /** The exact values the index holds for each of these urns (an urn it holds nothing for is absent). */
  indexedValues(urns: readonly string[]): Promise<Map<string, IndexedValue[]>>;
  /** The build's state (complete when none is under way). */
  searchIndexBuild(): Promise<SearchIndexBuild>;
  /** One page of matches, in the query's sort order (registry order of the types, then urn, when unsorted). */
  search(request: SearchRequest): Promise<SearchResult>;
  /**
   * Autocomplete's first suggestions: the entities among the query's types and filters (its text ignored) whose
   * name or key name, folded, starts with `prefix`, in the order of that name (an exact name first), then urn, at
   * most `limit`. Reads about `limit` names, however many start so.
   */
  namesStartingWith(query: SearchQuery, prefix: string, limit: number): Promise<SearchHit[]>;
  /** How many entities match. */
  count(query: SearchQuery): Promise<number>;
  /** Facet counts over every match. */
  facets(query: SearchQuery, fields: readonly string[]): Promise<FacetCounts>;
}

/** The index is written with each aspect (AspectIndexEntries.search); these build it over aspects stored before it. */
export interface SearchWrites {
  /**
   * Indexes the next `size` stored aspects the build has not reached (each one's entries replaced, so an aspect
   * written meanwhile is never indexed twice), in one transaction with the build's progress: a crash loses at most
   * the batch under way, and the next call resumes after the last one committed.
   */
  continueSearchIndexBuild(size: number): Promise<SearchIndexBuild>;
  /** Starts the build over from the first stored aspect (searches meanwhile read what the index already holds). */
  restartSearchIndexBuild(): Promise<SearchIndexBuild>;
}

/**
 * Entity search: DataHub's query, orFilters, sort, paging and facets over the search index, which the relationship
 * part writes with each aspect (AspectIndexEntries.search). Each engine has its adapter (sqlite/search.ts,
 * postgres/search.ts) over one reader, storage/index-search.ts.
 */
export type SearchPort = SearchReads & SearchWrites;
