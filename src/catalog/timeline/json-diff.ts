import { isDeepStrictEqual } from 'node:util';
import type { JsonPatchOperation } from './change-event.ts';

/** RFC 6901: `~` and `/` in a key are escaped in a pointer. */
const pointer = (base: string, key: string | number) => `${base}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The raw diff `raw=true` asks for: an RFC 6902 patch that turns the previous value into the current one. Objects are
 * compared key by key; arrays element by element, with the tail added or removed (removals from the end first, so
 * every path is valid when applied in order). DataHub computes its patch with another algorithm, so the operations
 * may differ while the result of applying them is the same.
 */
export function jsonDiff(before: unknown, after: unknown, path = ''): JsonPatchOperation[] {
  if (isDeepStrictEqual(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const ops: JsonPatchOperation[] = [];
    for (const key of Object.keys(before)) if (!(key in after)) ops.push({ op: 'remove', path: pointer(path, key) });
    for (const [key, value] of Object.entries(after)) {
      ops.push(...(key in before ? jsonDiff(before[key], value, pointer(path, key)) : [{ op: 'add' as const, path: pointer(path, key), value }]));
    }
    return ops;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const ops: JsonPatchOperation[] = [];
    const common = Math.min(before.length, after.length);
    for (let i = 0; i < common; i++) ops.push(...jsonDiff(before[i], after[i], pointer(path, i)));
    for (let i = before.length - 1; i >= common; i--) ops.push({ op: 'remove', path: pointer(path, i) });
    for (let i = common; i < after.length; i++) ops.push({ op: 'add', path: pointer(path, i), value: after[i] });
    return ops;
  }
  return [{ op: 'replace', path, value: after }];
}
