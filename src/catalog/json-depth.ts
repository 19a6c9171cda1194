/**
 * How deeply one JSON document may nest: Jackson's default (StreamReadConstraints),
 * which DataHub's server parses every request with. Deeper documents are refused
 * before anything walks them, so no recursive walk (validation, canonical JSON,
 * PostgreSQL's jsonb input) can run out of stack on a client's input.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Whether JSON text nests arrays and objects deeper than `max`. One pass over the
 * text without recursion; brackets inside strings do not count.
 */
export function jsonNestsDeeper(text: string, max: number = MAX_JSON_DEPTH): boolean {
  // Most documents are shorter than the limit in brackets: nothing to scan.
  if (text.length <= max * 2) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** The refusal's message, naming the field (or the body) that nests too deep. */
export const tooDeepMessage = (field: string, max: number = MAX_JSON_DEPTH): string => `${field} nests objects and arrays deeper than ${max} levels`;
