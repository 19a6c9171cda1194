import type { ArrayField } from './templates.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const UNIT_SEPARATOR = '\u241f';

function at(node: Obj, path: readonly string[]): { parent: Obj; key: string } | undefined {
  let cur: unknown = node;
  for (const p of path.slice(0, -1)) {
    if (!isObj(cur)) return undefined;
    cur = Object.hasOwn(cur, p) ? cur[p] : undefined;
  }
  return isObj(cur) ? { parent: cur, key: path[path.length - 1]! } : undefined;
}

const keyValue = (element: unknown, key: string): string => {
  let cur: unknown = element;
  for (const p of key.split(UNIT_SEPARATOR)) cur = isObj(cur) && Object.hasOwn(cur, p) ? cur[p] : undefined;
  return cur === undefined || cur === null ? '' : String(cur);
};

/**
 * Turns each keyed array into nested maps, `map[k1][k2]... = element`, so JSON
 * Patch paths can name elements by key (`/tags/urn:li:tag:pii`), as DataHub's
 * ArrayMergingTemplate does. An array without key fields maps each value to itself.
 */
export function arraysToMaps(node: Obj, fields: readonly ArrayField[]): void {
  for (const f of fields) {
    const slot = at(node, f.path);
    const arr = slot?.parent[slot.key];
    if (!slot || !Array.isArray(arr)) continue;
    // Keys are values from the client's elements (a tag urn, a field path): a map without a prototype keeps a value
    // like `__proto__` an ordinary key.
    const map: Obj = Object.create(null) as Obj;
    for (const element of arr) {
      if (isObj(element) && f.nested) arraysToMaps(element, f.nested);
      if (f.keys.length === 0) {
        map[String(element)] = element;
        continue;
      }
      let cur = map;
      f.keys.forEach((k, i) => {
        const kv = keyValue(element, k);
        if (i === f.keys.length - 1) cur[kv] = element;
        else cur = (isObj(cur[kv]) ? cur[kv] : (cur[kv] = Object.create(null))) as Obj;
      });
    }
    slot.parent[slot.key] = map;
  }
}

/**
 * The inverse of arraysToMaps after the patch: maps flatten depth first in
 * insertion order, a key field named only by the path is put back into its
 * element, an array the patch set whole stays as it is, and a removed one is empty.
 */
export function mapsToArrays(node: Obj, fields: readonly ArrayField[]): void {
  for (const f of fields) {
    const slot = at(node, f.path);
    if (!slot) continue;
    const v = slot.parent[slot.key];
    if (Array.isArray(v)) continue;
    const out: unknown[] = [];
    const walk = (cur: unknown, depth: number, keys: string[]): void => {
      if (depth === Math.max(f.keys.length, 1) || !isObj(cur)) {
        if (isObj(cur)) {
          f.keys.forEach((k, i) => {
            if (!k.includes(UNIT_SEPARATOR) && keys[i] !== '' && cur[k] === undefined) cur[k] = keys[i];
          });
          if (f.nested) mapsToArrays(cur, f.nested);
        }
        out.push(cur);
        return;
      }
      for (const [k, child] of Object.entries(cur)) walk(child, depth + 1, [...keys, k]);
    };
    if (isObj(v)) walk(v, 0, []);
    slot.parent[slot.key] = out;
  }
}
