import { DATAHUB_REGISTRY } from '../registry/datahub-registry.ts';
import { entitySpec, keyAspectValue } from '../registry/index.ts';
import type { Json, SearchDocument } from '../../storage/store.ts';
import { deprecationView } from '../deprecation.ts';
import { deprecationState } from '../deprecation-lifecycle.ts';

/**
 * The search document of an entity (the port's SearchDocument) as DataHub's search index would hold it: every
 * `@Searchable` field of its aspects (the registry records them), keyed by index field name, plus `urn`.
 */
export type { SearchDocument } from '../../storage/store.ts';

interface FieldPath {
  readonly aspect: string;
  readonly segments: readonly string[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Per entity type: each index field name, and where its values are. Built on first use. */
const fieldsByEntity = new Map<string, ReadonlyMap<string, readonly FieldPath[]>>();

function searchableFields(entityType: string): ReadonlyMap<string, readonly FieldPath[]> {
  let fields = fieldsByEntity.get(entityType);
  if (!fields) {
    const map = new Map<string, FieldPath[]>();
    for (const aspect of entitySpec(entityType).aspects) {
      for (const s of DATAHUB_REGISTRY.aspects[aspect]?.searchable ?? []) {
        const list = map.get(s.name) ?? [];
        list.push({ aspect, segments: s.path.split('/') });
        map.set(s.name, list);
      }
    }
    fields = map;
    fieldsByEntity.set(entityType, fields);
  }
  return fields;
}

/**
 * Fields Almanac derives from an aspect beside DataHub's @Searchable ones, computed when the document is built (there
 * is no index to go stale): the deprecation lifecycle, whose OVERDUE depends on the time of the search.
 */
const DERIVED_FIELDS: ReadonlyMap<string, { readonly aspect: string; readonly values: (value: Json | undefined, now: number) => unknown[] }> =
  new Map([['deprecationState', { aspect: 'deprecation', values: (value, now) => [deprecationState(deprecationView(value), now)] }]]);

const derivedFor = (entityType: string, name: string) => {
  const derived = DERIVED_FIELDS.get(name);
  return derived && entitySpec(entityType).aspects.includes(derived.aspect) ? derived : undefined;
};

/** `platform.keyword` and `platform` are one field here: there are no analyzed subfields. */
export const baseFieldName = (field: string): string => (field.endsWith('.keyword') ? field.slice(0, -'.keyword'.length) : field);

/**
 * The aspects a document needs for these fields (all searchable aspects when
 * `fields` is undefined: a full-text query reads every field). The key aspect
 * is never read: it is built from the urn.
 */
export function aspectsForFields(entityType: string, fields: Iterable<string> | undefined): string[] {
  const spec = entitySpec(entityType);
  const all = searchableFields(spec.name);
  const wanted = fields === undefined ? [...all.keys()] : [...fields].map(baseFieldName);
  const aspects = new Set<string>();
  for (const name of wanted) for (const f of all.get(name) ?? []) if (f.aspect !== spec.keyAspect) aspects.add(f.aspect);
  for (const name of fields === undefined ? DERIVED_FIELDS.keys() : wanted) {
    const derived = derivedFor(spec.name, name);
    if (derived) aspects.add(derived.aspect);
  }
  return [...aspects].sort();
}

/** The values at a path: `*` is every array element or map entry (a map entry indexes as `key=value`, as DataHub's do). */
function valuesAt(value: unknown, segments: readonly string[], out: unknown[]): void {
  if (segments.length === 0) {
    if (value !== undefined && value !== null) out.push(value);
    return;
  }
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    if (Array.isArray(value)) for (const v of value) valuesAt(v, rest, out);
    else if (isObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (rest.length === 0 && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) out.push(`${k}=${String(v)}`);
        else valuesAt(v, rest, out);
      }
    } else valuesAt(value, rest, out); // an annotation over a single value (`parentTemplate: {"/*": ...}`)
    return;
  }
  if (head.startsWith('$')) return; // map keys ($key): not indexed here
  if (isObject(value)) valuesAt(value[head], rest, out);
}

/** The document of one entity, from its urn key parts and the latest values of (at least) the aspects the fields need. */
export function searchDocument(
  entityType: string,
  urn: string,
  parts: readonly string[],
  aspects: ReadonlyMap<string, Json>,
  fields?: Iterable<string>,
): SearchDocument {
  const spec = entitySpec(entityType);
  const all = searchableFields(spec.name);
  const doc = new Map<string, unknown[]>([['urn', [urn]]]);
  const names = fields === undefined ? [...all.keys(), ...DERIVED_FIELDS.keys()] : [...new Set([...fields].map(baseFieldName))];
  let key: Json | undefined;
  const now = Date.now();
  for (const name of names) {
    const derived = derivedFor(spec.name, name);
    if (derived) {
      doc.set(name, derived.values(aspects.get(derived.aspect), now));
      continue;
    }
    const values: unknown[] = [];
    for (const path of all.get(name) ?? []) {
      const value = path.aspect === spec.keyAspect ? (key ??= keyAspectValue(spec.name, parts)) : aspects.get(path.aspect);
      valuesAt(value, path.segments, values);
    }
    if (values.length > 0) doc.set(name, values);
  }
  return doc;
}
