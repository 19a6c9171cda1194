/**
 * A parsed search query. DataHub hands a plain query to Elasticsearch's simple_query_string (terms AND by default,
 * `"phrases"`, `-` excludes, `|` or `OR` for either, parentheses, a trailing `*` for a prefix) and a query starting
 * with `/q ` to query_string, which adds `field:value`, `_exists_:field` and `*` wildcards anywhere.
 */
export type ParsedSearchQuery =
  | { readonly kind: 'all' }
  /**
   * Every word of `words` in this order, next to each other (one word is the plain case). `prefix`: the last word
   * ended in `*`. `quoted`: a `"phrase"`, matched word for word; an unquoted word also matches as the start of a word,
   * as DataHub's partial-word analyzers let `order` find `orders`.
   */
  | {
      readonly kind: 'words';
      readonly words: readonly string[];
      readonly prefix: boolean;
      readonly quoted: boolean;
      readonly field?: string;
      readonly text: string;
    }
  /** A field's value matching a pattern with `*` anywhere (`/q name: *mask*`): compared to the folded whole value. */
  | { readonly kind: 'wildcard'; readonly field: string; readonly pattern: string }
  | { readonly kind: 'exists'; readonly field: string }
  | { readonly kind: 'and'; readonly children: readonly ParsedSearchQuery[] }
  | { readonly kind: 'or'; readonly children: readonly ParsedSearchQuery[] }
  | { readonly kind: 'not'; readonly child: ParsedSearchQuery };

/**
 * One value an aspect contributes to its entity's search document, as the index keeps it: which field, the value as
 * text (exact, for filters, facets and sorts), and how full-text search treats it. The catalog derives entries from
 * DataHub's `@Searchable` annotations (catalog/search/search-entries.ts); the store writes them with the aspect.
 */
export interface SearchEntry {
  readonly field: string;
  readonly value: string;
  /** The value with case and accents folded: what IEQUAL, wildcards and name ranking compare. */
  readonly folded: string;
  /** For full-text entries: the words the engine indexes (catalog/search/search-tokens.ts), joined by spaces. */
  readonly words?: string;
  /** The value as a number, for DATETIME and COUNT fields (range filters and sorts compare numbers). */
  readonly number?: number;
  /** Full-text indexed: its words are matched by queries (plain ones only when `byDefault`, `/q field:` always). */
  readonly text: boolean;
  /** A plain query searches this field (DataHub's queryByDefault). */
  readonly byDefault: boolean;
  /** How much a match here weighs (DataHub's boostScore; 1 by default). */
  readonly boost: number;
  /** The entity's display name (`_entityName`, or a key's name): exact and prefix matches on it rank first. */
  readonly isName: boolean;
  readonly autocomplete: boolean;
}
