import type { ChangeDiffer, ChangeEvent, ChangeOperation, SemanticChange } from './change-event.ts';
import { schemaFieldUrn } from '../urn.ts';
import { objectList, optionalString } from './change-event.ts';

/**
 * TECHNICAL_SCHEMA changes between two schemaMetadata values, by DataHub's rules (SchemaMetadataChangeEventGenerator):
 * a removed field, a native type change or a primary-key change is MAJOR (backwards incompatible); an added field or
 * a rename is MINOR. A rename is a removed and an added field with the same native type, parent path and description.
 */

const INCOMPATIBLE = 'A backwards incompatible change due to';
const COMPATIBLE = 'A forwards & backwards compatible change due to ';
const FIELD_PATH_V2 = '[version=2.0]';

interface Field {
  readonly path: string;
  /** The SchemaField as stored. */
  readonly value: Record<string, unknown>;
  readonly nativeType: string | undefined;
  readonly description: string | undefined;
  readonly nullable: boolean;
  /** The whole field, canonical: DataHub compares SchemaField records by value. */
  readonly key: string;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function fieldsOf(schema: Record<string, unknown> | undefined): Field[] {
  const fields = objectList(schema?.fields)
    .filter((f) => typeof f.fieldPath === 'string')
    .map((f) => ({
      path: f.fieldPath as string,
      value: f,
      nativeType: optionalString(f.nativeDataType),
      description: optionalString(f.description),
      nullable: f.nullable === true,
      key: canonical(f),
    }));
  // Stable sort by path, as DataHub aligns the two field lists.
  return fields.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** DataHub's v1 form of a v2 field path: the components without the bracketed type annotations. */
function downgrade(path: string): string {
  if (!path.startsWith(FIELD_PATH_V2)) return path;
  return path
    .slice(FIELD_PATH_V2.length)
    .split('.')
    .filter((c) => c !== '' && !(c.startsWith('[') && c.endsWith(']')))
    .join('.');
}

const parentPath = (path: string): string | undefined => {
  const i = path.lastIndexOf('.');
  return i > 0 ? path.slice(0, i) : i < 0 ? '' : undefined;
};

function isRename(a: Field, b: Field): boolean {
  const pa = parentPath(a.path);
  const pb = parentPath(b.path);
  return a.nativeType === b.nativeType && pa !== undefined && pa === pb && a.description === b.description;
}

function fieldEvent(
  datasetUrn: string,
  field: Field,
  operation: ChangeOperation,
  semVerChange: SemanticChange,
  description: string,
  modificationCategory: 'OTHER' | 'TYPE_CHANGE' | 'RENAME',
): ChangeEvent {
  const fieldUrn = schemaFieldUrn(datasetUrn, field.path);
  return {
    entityUrn: datasetUrn,
    category: 'TECHNICAL_SCHEMA',
    operation,
    modifier: fieldUrn,
    parameters: { fieldPath: field.path, fieldUrn, nullable: field.nullable, modificationCategory },
    semVerChange,
    description,
  };
}

const removed = (urn: string, f: Field) =>
  fieldEvent(urn, f, 'REMOVE', 'MAJOR', `${INCOMPATIBLE} removal of field: '${downgrade(f.path)}'.`, 'OTHER');
const added = (urn: string, f: Field) => fieldEvent(urn, f, 'ADD', 'MINOR', `${COMPATIBLE}the newly added field '${downgrade(f.path)}'.`, 'OTHER');
const renamed = (urn: string, from: Field, to: Field) =>
  fieldEvent(urn, from, 'MODIFY', 'MINOR', `${COMPATIBLE}renaming of the field '${downgrade(from.path)} to ${downgrade(to.path)}'.`, 'RENAME');
const retyped = (urn: string, from: Field, to: Field) =>
  fieldEvent(
    urn,
    from,
    'MODIFY',
    'MAJOR',
    `${INCOMPATIBLE} native datatype of the field '${downgrade(to.path)}' changed from '${from.nativeType}' to '${to.nativeType}'.`,
    'TYPE_CHANGE',
  );

/** The first field of `others` that `field` was renamed from or to, skipping fields matched already or still to come in its own list. */
function findRename(field: Field, ownRest: readonly Field[], others: readonly Field[], taken: Set<string>): Field | undefined {
  const own = new Set(ownRest.map((f) => f.key));
  return others.find((o) => isRename(field, o) && !taken.has(o.key) && !own.has(o.key));
}

function primaryKeyEvents(datasetUrn: string, before: Record<string, unknown> | undefined, after: Record<string, unknown>): ChangeEvent[] {
  const keys = (v: Record<string, unknown> | undefined) =>
    new Set(Array.isArray(v?.primaryKeys) ? v.primaryKeys.filter((k): k is string => typeof k === 'string') : []);
  const was = keys(before);
  const is = keys(after);
  const event = (path: string, what: string): ChangeEvent => {
    const fieldUrn = schemaFieldUrn(datasetUrn, path);
    return {
      entityUrn: datasetUrn,
      category: 'TECHNICAL_SCHEMA',
      operation: 'MODIFY',
      modifier: fieldUrn,
      parameters: { fieldPath: path, fieldUrn, nullable: false, modificationCategory: 'OTHER' },
      semVerChange: 'MAJOR',
      description: `${INCOMPATIBLE} ${what} of the primary key field '${path}'`,
    };
  };
  return [
    ...[...was]
      .filter((k) => !is.has(k))
      .sort()
      .map((k) => event(k, 'removal')),
    ...[...is]
      .filter((k) => !was.has(k))
      .sort()
      .map((k) => event(k, 'addition')),
  ];
}

/**
 * How DataHub's SchemaMetadataChangeEventGenerator aligns two versions' fields: both lists in path order, walked
 * together; a path in both is the same field, one only before was removed (or renamed, when an added field matches
 * it), one only after was added (or renamed to). Each step in the walk's order.
 */
export type FieldStep =
  | { readonly kind: 'same' | 'renamed'; readonly base: Field; readonly target: Field }
  | { readonly kind: 'removed'; readonly base: Field }
  | { readonly kind: 'added'; readonly target: Field };

export function alignFields(before: Record<string, unknown> | undefined, after: Record<string, unknown>): FieldStep[] {
  const base = fieldsOf(before);
  const target = fieldsOf(after);
  const steps: FieldStep[] = [];
  const taken = new Set<string>();
  let b = 0;
  let t = 0;
  while (b < base.length && t < target.length) {
    const bf = base[b]!;
    const tf = target[t]!;
    if (taken.has(bf.key)) b++;
    else if (taken.has(tf.key)) t++;
    else if (bf.path === tf.path) {
      steps.push({ kind: 'same', base: bf, target: tf });
      b++;
      t++;
    } else if (bf.path < tf.path) {
      const to = findRename(bf, base.slice(b), target.slice(t), taken);
      if (to) {
        steps.push({ kind: 'renamed', base: bf, target: to });
        taken.add(to.key);
      } else steps.push({ kind: 'removed', base: bf });
      b++;
    } else {
      const from = findRename(tf, target.slice(t), base.slice(b), taken);
      if (from) {
        steps.push({ kind: 'renamed', base: from, target: tf });
        taken.add(from.key);
      } else steps.push({ kind: 'added', target: tf });
      t++;
    }
  }
  for (; b < base.length; b++) if (!taken.has(base[b]!.key)) steps.push({ kind: 'removed', base: base[b]! });
  for (; t < target.length; t++) if (!taken.has(target[t]!.key)) steps.push({ kind: 'added', target: target[t]! });
  return steps;
}

/** TECHNICAL_SCHEMA: each field removed, added, renamed or retyped, then the primary key's changes. */
export const schemaChanges: ChangeDiffer = (before, after, datasetUrn) => {
  const events = alignFields(before, after).flatMap((step): ChangeEvent[] => {
    switch (step.kind) {
      case 'same':
        return step.base.nativeType !== step.target.nativeType ? [retyped(datasetUrn, step.base, step.target)] : [];
      case 'renamed':
        return [renamed(datasetUrn, step.base, step.target)];
      case 'removed':
        return [removed(datasetUrn, step.base)];
      case 'added':
        return [added(datasetUrn, step.target)];
    }
  });
  return [...events, ...primaryKeyEvents(datasetUrn, before, after)];
};
