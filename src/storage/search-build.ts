import type { SearchIndexBuild } from './ports/search.ts';

/** The settings row that records a search index build under way; absent once it is complete. */
export const SEARCH_BUILD_KEY = 'search_index_build';

/** A build's progress as its settings row holds it: the last aspect indexed (in (urn, aspect) order) and the counts. */
export interface BuildCursor {
  readonly urn: string;
  readonly aspect: string;
  readonly done: number;
  readonly total: number;
}

export const COMPLETE: SearchIndexBuild = { complete: true, done: 0, total: 0 };

/** The state a settings value (or its absence) says. */
export function buildState(value: string | undefined): SearchIndexBuild {
  if (value === undefined) return COMPLETE;
  const c = JSON.parse(value) as BuildCursor;
  return { complete: false, done: c.done, total: c.total };
}

/**
 * The cursor after one batch of `size` asked and `indexed` rows, the last being (urn, aspect): undefined when the
 * batch came up short, which ends the build.
 */
export function nextCursor(before: BuildCursor, size: number, rows: ReadonlyArray<{ urn: string; aspect: string }>): BuildCursor | undefined {
  if (rows.length < size) return undefined;
  const last = rows.at(-1)!;
  return { urn: last.urn, aspect: last.aspect, done: before.done + rows.length, total: before.total };
}

/** The first cursor of a build over `total` aspects. */
export const firstCursor = (total: number): BuildCursor => ({ urn: '', aspect: '', done: 0, total });
