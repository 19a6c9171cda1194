/**
 * graphql-js parses, validates and graphql-armor measures depth by recursion, one
 * stack frame or more per level: a few thousand nested selections or list and
 * object literals overflow the stack before any limit rule runs. This bound is
 * checked on the raw text first, in one pass without recursion.
 */
export const MAX_DOCUMENT_NESTING = 200;

/** Whether a GraphQL document nests `{`, `(` or `[` deeper than `max`; strings, block strings and comments skipped. */
export function graphqlNestsDeeper(text: string, max: number = MAX_DOCUMENT_NESTING): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (c === '"') {
      if (text.startsWith('"""', i)) {
        const end = text.indexOf('"""', i + 3);
        // Inside a block string only \""" escapes the delimiter.
        let close = end;
        while (close > 0 && text[close - 1] === '\\') close = text.indexOf('"""', close + 3);
        if (close < 0) return false;
        i = close + 2;
      } else {
        for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      }
    } else if (c === '{' || c === '(' || c === '[') {
      if (++depth > max) return true;
    } else if (c === '}' || c === ')' || c === ']') {
      depth--;
    }
  }
  return false;
}
