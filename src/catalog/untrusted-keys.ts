import { badRequest } from './errors.ts';

/**
 * Names that reach an object's prototype when used as a key or a path segment: `obj['__proto__'] = v` replaces the
 * prototype, and `obj.constructor.prototype` is the shared prototype of every object of that class. Keys that come
 * from clients are never allowed to be these: JSON.parse keeps `__proto__` as an own property, but the first
 * assignment, merge or path walk that takes it as a key would change what every object in the process inherits.
 */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** `__proto__` spelled in JSON text, with any of its characters escaped: the only way one can reach a parsed body. */
const SUSPECT =
  /(?:_|\\u005[fF])(?:_|\\u005[fF])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[fF])(?:t|\\u0074)(?:o|\\u006[fF])(?:_|\\u005[fF])(?:_|\\u005[fF])/;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const join = (path: string, key: string, inArray: boolean): string => (inArray ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/**
 * Where in parsed client JSON a key is `__proto__` (a path like `proposal.aspect.value.__proto__`), or undefined.
 * A string that is itself JSON (an MCP's `aspect.value`) is looked into too. Cheap for the common body: the walk
 * runs only when the raw text spells `__proto__` somewhere.
 */
export function prototypeKeyAt(rawText: string, parsed: unknown): string | undefined {
  if (!SUSPECT.test(rawText)) return undefined;
  const walk = (v: unknown, path: string): string | undefined => {
    if (typeof v === 'string') {
      if (!SUSPECT.test(v)) return undefined;
      try {
        return walk(JSON.parse(v), path);
      } catch {
        return undefined;
      }
    }
    if (!isObj(v)) return undefined;
    const inArray = Array.isArray(v);
    for (const key of Object.keys(v)) {
      if (key === '__proto__') return join(path, key, false);
      const found = walk(v[key], join(path, key, inArray));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(parsed, '');
}

export const prototypeKeyMessage = (field: string): string =>
  `Field '${field}' is named __proto__, which is not allowed as a key: it would change the prototype of every object`;

/**
 * JSON.parse of a client's text found at field `where`: text that is not JSON is refused with `notJson`, a `__proto__`
 * key anywhere in it with a 400 naming where the key sits.
 */
export function parseClientJson(text: string, where: string, notJson = `Field '${where}' is not valid JSON`): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest(notJson);
  }
  const bad = prototypeKeyAt(text, parsed);
  if (bad !== undefined) throw badRequest(prototypeKeyMessage(`${where}.${bad}`));
  return parsed;
}

/** Refuses a client-given key or path segment that names a prototype (`__proto__`, `constructor`, `prototype`). */
export function assertPlainKey(key: string, where: string): void {
  if (PROTOTYPE_KEYS.has(key)) throw badRequest(`${where} names '${key}', which is not allowed as a field name`);
}
