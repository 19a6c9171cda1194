/**
 * A parsed search query. DataHub hands a plain query to Elasticsearch's simple_query_string (terms AND by default,
 * `"phrases"`, `-` excludes, `|` or `OR` for either, parentheses, a trailing `*` for a prefix) and a query starting
 * with `/q ` to query_string, which adds `field:value`, `_exists_:field` and `*` wildcards anywhere.
 */
export type ParsedSearchQuery =
  | { readonly kind: 'all' }
  /** Every word of `words` in this order, next to each other (one word is the plain case); `prefix`: the last is a prefix. */
  | { readonly kind: 'words'; readonly words: readonly string[]; readonly prefix: boolean; readonly field?: string; readonly text: string }
  /** A field's value matching a pattern with `*` anywhere (`/q name: *mask*`): compared to the folded whole value. */
  | { readonly kind: 'wildcard'; readonly field: string; readonly pattern: string }
  | { readonly kind: 'exists'; readonly field: string }
  | { readonly kind: 'and'; readonly children: readonly ParsedSearchQuery[] }
  | { readonly kind: 'or'; readonly children: readonly ParsedSearchQuery[] }
  | { readonly kind: 'not'; readonly child: ParsedSearchQuery };
