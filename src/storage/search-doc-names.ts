/**
 * An entity's names as one text of its document row, on both engines (SQLite's search_docs, PostgreSQL's
 * search_docs): each `_entityName` and `_entityKeyName` value folded, between separators, so that the ranking tiers
 * (an exact name, a name prefix) are read from the row a search reads anyway, with no seek of the names per match.
 */

/** Separates the names, and starts and ends the text: `\x1fname\x1fkey name\x1f`. */
export const NAMES_SEP = '\u001f';

/** A folded name as the names text holds it (the separator inside a name becomes a space). */
export const nameItem = (folded: string): string => folded.replaceAll(NAMES_SEP, ' ');

/**
 * A match's ranking tier from its document row `e`: 2 when a name is `name` (folded), 1 when a name starts with it, 0
 * otherwise. `position` is the engine's substring search (`instr`, `strpos`), `param` its placeholder.
 */
export function docTierSql(
  params: unknown[],
  name: string,
  param: (params: unknown[], value: unknown) => string,
  position: 'instr' | 'strpos',
): string {
  const item = nameItem(name);
  const exact = param(params, `${NAMES_SEP}${item}${NAMES_SEP}`);
  const prefix = param(params, `${NAMES_SEP}${item}`);
  return `CASE WHEN ${position}(e.names, ${exact}) > 0 THEN 2 WHEN ${position}(e.names, ${prefix}) > 0 THEN 1 ELSE 0 END`;
}
