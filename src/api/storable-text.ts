/** A JSON escape of U+0000 or of a surrogate: the only way either can reach a parsed body. */
const SUSPECT_ESCAPE = /\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** U+0000, or a high surrogate without its low one, or a low one without its high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const badString = (s: string): boolean => s.includes('\u0000') || LONE_SURROGATE.test(s);

/**
 * Where in a parsed body a string holds U+0000 or an unpaired surrogate, which
 * neither backend stores (PostgreSQL refuses them, SQLite would keep invalid
 * UTF-8): a path like `proposal.aspect.value.description`, or undefined. A
 * string that is itself JSON (an MCP's `aspect.value`) is looked into too.
 * Cheap for the common body: the walk runs only when the raw text escapes one of them.
 */
export function unstorableTextAt(rawText: string, parsed: unknown): string | undefined {
  if (!SUSPECT_ESCAPE.test(rawText)) return undefined;
  const walk = (v: unknown, path: string): string | undefined => {
    if (typeof v === 'string') {
      if (badString(v)) return path;
      if (SUSPECT_ESCAPE.test(v)) {
        try {
          return walk(JSON.parse(v), path);
        } catch {
          return undefined;
        }
      }
      return undefined;
    }
    if (!isObj(v)) return undefined;
    for (const [k, child] of Object.entries(v)) {
      if (badString(k)) return path ? `${path}.${k}` : k;
      const found = walk(child, Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(parsed, '') ?? undefined;
}
