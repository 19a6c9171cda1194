import { badRequest } from '../errors.ts';
import type { Json } from '../../storage/store.ts';
import { arraysToMaps, mapsToArrays, UNIT_SEPARATOR } from './array-keys.ts';
import { assertPlainKey } from '../untrusted-keys.ts';
import { applyJsonPatch, type PatchOp } from './json-patch.ts';
import { fineGrainedToArray, fineGrainedToMap } from './fine-grained-lineage.ts';
import { PATCH_TEMPLATES, type ArrayField } from './templates.ts';

/** A PATCH proposal's value, checked before any write: DataHub's plain array or its generic envelope. */
export interface AspectPatch {
  readonly ops: readonly PatchOp[];
  /** Set for the generic route (envelope with arrayPrimaryKeys or forceGenericPatch): the arrays to key. */
  readonly generic?: readonly ArrayField[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ENVELOPE_FIELDS = new Set(['patch', 'arrayPrimaryKeys', 'forceGenericPatch']);

function parseOps(raw: unknown, where: string): PatchOp[] {
  if (!Array.isArray(raw)) throw badRequest(`${where} must be a JSON Patch array of {"op", "path", "value"}`);
  return raw.map((op, i) => {
    if (!isObj(op) || typeof op.op !== 'string' || typeof op.path !== 'string') {
      throw badRequest(`${where}[${i}] must be {"op": string, "path": string, "value"?: ...}`);
    }
    const extra = Object.keys(op).find((k) => !['op', 'path', 'value', 'from'].includes(k));
    if (extra) throw badRequest(`${where}[${i}] has an unknown field '${extra}'`);
    return { op: op.op, path: op.path, value: op.value, ...(typeof op.from === 'string' ? { from: op.from } : {}) };
  });
}

/** Checks a PATCH value and whether the aspect can take it; `where` names it in errors. */
export function parsePatch(aspectName: string, value: unknown, where: string): AspectPatch {
  if (Array.isArray(value)) {
    if (!PATCH_TEMPLATES.has(aspectName)) {
      throw badRequest(
        `${where}: PATCH of ${aspectName} needs DataHub's generic form {"arrayPrimaryKeys": {...}, "patch": [...]}; a plain JSON Patch array works only for aspects with a patch template`,
      );
    }
    return { ops: parseOps(value, where) };
  }
  if (!isObj(value) || !('patch' in value)) throw badRequest(`${where} must be a JSON Patch array, or {"patch": [...], "arrayPrimaryKeys": {...}}`);
  const extra = Object.keys(value).find((k) => !ENVELOPE_FIELDS.has(k));
  if (extra) throw badRequest(`${where} has an unknown field '${extra}'`);
  const ops = parseOps(value.patch, `${where}.patch`);
  const keys = value.arrayPrimaryKeys ?? {};
  if (!isObj(keys) || !Object.values(keys).every((k) => Array.isArray(k) && k.every((s) => typeof s === 'string'))) {
    throw badRequest(`${where}.arrayPrimaryKeys must map array fields to lists of key field names`);
  }
  for (const [field, names] of Object.entries(keys as Record<string, string[]>)) {
    assertPlainKey(field, `${where}.arrayPrimaryKeys`);
    for (const name of names) for (const part of name.split(UNIT_SEPARATOR)) assertPlainKey(part, `${where}.arrayPrimaryKeys.${field}`);
  }
  const generic = Object.keys(keys).length > 0 || value.forceGenericPatch === true;
  if (!generic && !PATCH_TEMPLATES.has(aspectName)) {
    throw badRequest(`${where}: PATCH of ${aspectName} needs 'arrayPrimaryKeys' (or forceGenericPatch); it has no patch template`);
  }
  return generic ? { ops, generic: Object.entries(keys as Record<string, string[]>).map(([f, k]) => ({ path: [f], keys: k })) } : { ops };
}

/**
 * Applies a checked patch to the aspect's current value, or to the default of
 * its template (an empty record on the generic route) when there is none,
 * keying arrays as DataHub's templates do. The caller validates the result.
 */
export function applyPatch(aspectName: string, current: Json | undefined, patch: AspectPatch, now: number): Json {
  const template = PATCH_TEMPLATES.get(aspectName);
  const doc = structuredClone(current ?? template?.getDefault(now) ?? {});
  const arrays = patch.generic ?? template?.arrays ?? [];
  const fineGrained = patch.generic === undefined && template?.fineGrained === true;
  arraysToMaps(doc, arrays);
  if (fineGrained) fineGrainedToMap(doc);
  applyJsonPatch(doc, patch.ops);
  if (fineGrained) fineGrainedToArray(doc);
  mapsToArrays(doc, arrays);
  if (patch.generic === undefined && isObj(doc)) template?.rebase?.(doc, now);
  return doc;
}
