import { ASPECTS } from '../registry/aspects.ts';
import { DATAHUB_REGISTRY, type RegistryRelationship } from '../registry/datahub-registry.ts';
import { parseUrn, schemaFieldUrn, urnTooLong } from '../urn.ts';
import type { Json, RelationshipEdge } from '../../storage/store.ts';

const DOWNSTREAM_OF = 'DownstreamOf';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The values at the end of a registry path (`upstreams/*\/dataset`): `*` is every
 * element of an array or value of a map. An element that lacks the rest of the
 * path yields `undefined`, so two paths under the same wildcard line up by index.
 */
function leaves(value: unknown, segments: readonly string[]): unknown[] {
  if (segments.length === 0) return [value];
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    const items = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
    return items.flatMap((item) => leaves(item, rest));
  }
  return leaves(isObject(value) ? value[head] : undefined, rest);
}

/**
 * The entity type of a urn, or undefined when it is not one (DataHub logs and skips such values)
 * or is longer than any urn Almanac stores (it could name no stored entity, and would not fit the index).
 */
function entityTypeOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || urnTooLong(value)) return undefined;
  try {
    return parseUrn(value).entityType;
  } catch {
    return undefined;
  }
}

function edge(source: string, relationshipType: string, destination: unknown, via: unknown): RelationshipEdge | undefined {
  const sourceType = entityTypeOf(source);
  const destinationType = entityTypeOf(destination);
  if (sourceType === undefined || destinationType === undefined) return undefined;
  return {
    source,
    sourceType,
    relationshipType,
    destination: destination as string,
    destinationType,
    via: entityTypeOf(via) !== undefined ? (via as string) : null,
  };
}

/** The edges one `@Relationship` annotation declares: from the entity to each urn at its path. */
function annotated(urn: string, value: Json, rel: RegistryRelationship): RelationshipEdge[] {
  const targets = leaves(value, rel.path.split('/'));
  const vias = rel.via ? leaves(value, rel.via.split('/')) : [];
  const aligned = vias.length === targets.length;
  return targets.flatMap((target, i) => edge(urn, rel.name, target, aligned ? vias[i] : undefined) ?? []);
}

/**
 * Column-level lineage, which no annotation expresses: each downstream field is
 * DownstreamOf each upstream field, through the lineage's query (a dataset's
 * upstreamLineage) or the job itself (dataJobInputOutput), as DataHub's
 * GraphIndexUtils adds them. An entry without both sides is skipped (DataHub
 * stops at it, losing the entries after it).
 */
function fineGrained(urn: string, value: Json, viaIsEntity: boolean): RelationshipEdge[] {
  const lineages = value.fineGrainedLineages;
  if (!Array.isArray(lineages)) return [];
  return lineages.flatMap((fgl: unknown) => {
    if (!isObject(fgl) || !Array.isArray(fgl.downstreams) || !Array.isArray(fgl.upstreams)) return [];
    const via = viaIsEntity ? urn : fgl.query;
    const upstreams = fgl.upstreams as unknown[];
    return (fgl.downstreams as unknown[]).flatMap((down) =>
      typeof down === 'string' ? upstreams.flatMap((up) => edge(down, DOWNSTREAM_OF, up, via) ?? []) : [],
    );
  });
}

/** A chart's or dashboard's input fields: its own field (by path) is DownstreamOf the dataset field it reads. */
function inputFieldEdges(urn: string, value: Json): RelationshipEdge[] {
  const fields = value.fields;
  if (!Array.isArray(fields)) return [];
  return fields.flatMap((f: unknown) => {
    if (!isObject(f) || !isObject(f.schemaField) || typeof f.schemaField.fieldPath !== 'string') return [];
    return edge(schemaFieldUrn(urn, f.schemaField.fieldPath), DOWNSTREAM_OF, f.schemaFieldUrn, undefined) ?? [];
  });
}

const SPECIAL: Readonly<Record<string, (urn: string, value: Json) => RelationshipEdge[]>> = {
  upstreamLineage: (urn, value) => fineGrained(urn, value, false),
  dataJobInputOutput: (urn, value) => fineGrained(urn, value, true),
  inputFields: inputFieldEdges,
};

/** Aspects that declare relationships, with their annotations. */
const ANNOTATIONS: ReadonlyMap<string, readonly RegistryRelationship[]> = new Map(
  [...ASPECTS.keys()].flatMap((name) => {
    const rels = DATAHUB_REGISTRY.aspects[name]?.relationships;
    return rels && rels.length > 0 ? [[name, rels] as const] : [];
  }),
);

/** Every aspect whose value can declare a relationship. */
export const RELATIONSHIP_ASPECTS: ReadonlySet<string> = new Set([...ANNOTATIONS.keys(), ...Object.keys(SPECIAL)]);

/**
 * The relationships an aspect value declares, each once per (source, type,
 * destination), the first occurrence kept: DataHub's graph edges of the aspect.
 */
export function relationshipsOf(urn: string, aspect: string, value: Json): RelationshipEdge[] {
  const found = [...(SPECIAL[aspect]?.(urn, value) ?? []), ...(ANNOTATIONS.get(aspect) ?? []).flatMap((rel) => annotated(urn, value, rel))];
  const seen = new Set<string>();
  return found.filter((e) => {
    const key = `${e.source}\u0000${e.relationshipType}\u0000${e.destination}`;
    return !seen.has(key) && !!seen.add(key);
  });
}
