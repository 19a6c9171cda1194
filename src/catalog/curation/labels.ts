import type { Json } from '../../storage/store.ts';

/** Tags and glossary terms: the two kinds of label DataHub's LabelUtils attaches to entities and dataset fields. */
export type LabelKind = 'tag' | 'term';

interface LabelShape {
  /** The entity type a label's urn must name. */
  readonly entityType: string;
  /** The entity's aspect, and the property of an editable schema field, that holds the labels. */
  readonly aspect: 'globalTags' | 'glossaryTerms';
  /** The list inside it and the urn property of each association. */
  readonly list: 'tags' | 'terms';
  readonly urnKey: 'tag' | 'urn';
}

export const LABELS: Readonly<Record<LabelKind, LabelShape>> = {
  tag: { entityType: 'tag', aspect: 'globalTags', list: 'tags', urnKey: 'tag' },
  term: { entityType: 'glossaryTerm', aspect: 'glossaryTerms', list: 'terms', urnKey: 'urn' },
};

const objects = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]).filter((x) => typeof x === 'object' && x !== null) : []);

/**
 * The label container (a globalTags or glossaryTerms value) with the labels added or removed, as DataHub does it:
 * an added label already present is left as it is (its context kept), new ones go last in the order given, and
 * glossary terms get the caller's audit stamp.
 */
export function changeLabels(kind: LabelKind, current: Json | undefined, change: 'add' | 'remove', urns: readonly string[], stamp: Json): Json {
  const shape = LABELS[kind];
  const list = objects(current?.[shape.list]);
  let next: Json[];
  if (change === 'add') {
    const present = new Set(list.map((a) => a[shape.urnKey]));
    const added = [...new Set(urns)].filter((u) => !present.has(u)).map((u) => ({ [shape.urnKey]: u }));
    next = [...list, ...added];
  } else {
    const gone = new Set(urns);
    next = list.filter((a) => !gone.has(a[shape.urnKey] as string));
  }
  return { ...current, [shape.list]: next, ...(kind === 'term' ? { auditStamp: stamp } : {}) };
}

/**
 * editableSchemaMetadata with one field's editable info changed: the entry for the field path, created (last) when
 * the dataset has none yet, as DataHub's MutationUtils.getFieldInfoFromSchema does.
 */
export function changeEditableField(current: Json | undefined, fieldPath: string, change: (info: Json) => Json): Json {
  const infos = objects(current?.editableSchemaFieldInfo);
  const at = infos.findIndex((f) => f.fieldPath === fieldPath);
  const next = at >= 0 ? infos.map((f, i) => (i === at ? change(f) : f)) : [...infos, change({ fieldPath })];
  return { ...current, editableSchemaFieldInfo: next };
}
