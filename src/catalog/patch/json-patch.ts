import { badRequest } from '../errors.ts';
import { assertPlainKey } from '../untrusted-keys.ts';

/** One RFC 6902 operation as DataHub's clients send it. */
export interface PatchOp {
  readonly op: string;
  readonly path: string;
  readonly value?: unknown;
  readonly from?: string;
}

type Container = Record<string, unknown> | unknown[];
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/**
 * A JSON pointer's components, `~1` and `~0` decoded; `""` is the whole document. A component naming a prototype
 * (`__proto__`, `constructor`, `prototype`) is refused: no path a client writes may walk out of the document.
 */
export function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw badRequest(`JSON Patch path must start with '/', got ${JSON.stringify(path)}`);
  const parts = path
    .slice(1)
    .split('/')
    .map((c) => c.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const c of parts) assertPlainKey(c, `JSON Patch path ${JSON.stringify(path)}`);
  return parts;
}

/** Own properties only: what an object inherits is never part of the document. */
const own = (parent: Record<string, unknown>, key: string): unknown => (Object.hasOwn(parent, key) ? parent[key] : undefined);

function child(parent: Container, key: string): unknown {
  return Array.isArray(parent) ? parent[arrayIndex(parent, key, false)] : own(parent, key);
}

function arrayIndex(arr: unknown[], key: string, forInsert: boolean): number {
  if (key === '-' && forInsert) return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(key)) throw badRequest(`JSON Patch index ${JSON.stringify(key)} is not a valid array index`);
  const i = Number(key);
  if (i > arr.length || (!forInsert && i === arr.length)) throw badRequest(`JSON Patch index ${i} is out of bounds`);
  return i;
}

/**
 * DataHub creates the missing objects on an operation's path before applying
 * it (TemplateUtil.populateTopLevelKeys): the parents for add and replace, and
 * the leaf too for remove or a path ending in an empty component. So `add`
 * never fails on a missing parent and removing a missing key does nothing.
 */
function populate(doc: Container, parts: readonly string[], withLeaf: boolean): void {
  let cur: unknown = doc;
  const upTo = withLeaf ? parts.length : parts.length - 1;
  for (let i = 0; i < upTo; i++) {
    if (!isContainer(cur) || Array.isArray(cur)) return;
    const key = parts[i]!;
    if (own(cur, key) === undefined || cur[key] === null) cur[key] = {};
    cur = cur[key];
  }
}

function parentOf(doc: Container, parts: readonly string[], path: string): [Container, string] {
  let cur: unknown = doc;
  for (const key of parts.slice(0, -1)) {
    if (!isContainer(cur)) throw badRequest(`JSON Patch path ${path} does not exist`);
    cur = child(cur, key);
  }
  if (!isContainer(cur)) throw badRequest(`JSON Patch path ${path} does not exist`);
  return [cur, parts[parts.length - 1]!];
}

function add(doc: Container, parts: readonly string[], value: unknown, path: string): void {
  const [parent, key] = parentOf(doc, parts, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, structuredClone(value));
  else parent[key] = structuredClone(value);
}

function remove(doc: Container, parts: readonly string[], path: string): unknown {
  const [parent, key] = parentOf(doc, parts, path);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, false), 1)[0];
  if (!Object.hasOwn(parent, key)) throw badRequest(`JSON Patch path ${path} does not exist`);
  const old = parent[key];
  delete parent[key];
  return old;
}

function get(doc: Container, parts: readonly string[], path: string): unknown {
  let cur: unknown = doc;
  for (const key of parts) {
    if (!isContainer(cur)) throw badRequest(`JSON Patch path ${path} does not exist`);
    cur = child(cur, key);
    if (cur === undefined) throw badRequest(`JSON Patch path ${path} does not exist`);
  }
  return cur;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Applies RFC 6902 operations (add, remove, replace, move, copy, test) to an
 * object in place, with DataHub's missing-parent rule. A whole-document
 * operation (path "") is refused: a patch changes fields of an aspect.
 */
export function applyJsonPatch(doc: Record<string, unknown>, ops: readonly PatchOp[]): void {
  for (const op of ops) {
    const parts = pointer(op.path);
    if (parts.length === 0) throw badRequest(`JSON Patch operation ${op.op} on the whole aspect is not supported; name a field`);
    populate(doc, parts, op.op === 'remove' || parts[parts.length - 1] === '');
    switch (op.op) {
      case 'add':
        add(doc, parts, op.value, op.path);
        break;
      case 'remove':
        remove(doc, parts, op.path);
        break;
      case 'replace':
        get(doc, parts, op.path);
        remove(doc, parts, op.path);
        add(doc, parts, op.value, op.path);
        break;
      case 'move':
      case 'copy': {
        if (typeof op.from !== 'string') throw badRequest(`JSON Patch ${op.op} needs 'from'`);
        const fromParts = pointer(op.from);
        const value = op.op === 'move' ? remove(doc, fromParts, op.from) : structuredClone(get(doc, fromParts, op.from));
        add(doc, parts, value, op.path);
        break;
      }
      case 'test':
        if (!same(get(doc, parts, op.path), op.value)) throw badRequest(`JSON Patch test failed at ${op.path}`);
        break;
      default:
        throw badRequest(`Unsupported PATCH operation: ${JSON.stringify(op.op)}; use add, remove, replace, move, copy or test`);
    }
  }
}
