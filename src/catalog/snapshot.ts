import { badRequest } from './errors.ts';
import { aspectClassOf, aspectOfClass, entitySpec, findEntitySpec } from './registry/index.ts';
import { parseUrn } from './urn.ts';
import type { StoredAspect } from '../storage/store.ts';

/** The Pegasus class of an aspect, as the snapshot and versioned-aspect forms name it. */
export { aspectClassOf };

export interface SnapshotAspect {
  readonly aspect: string;
  readonly value: unknown;
}

export interface ParsedSnapshot {
  readonly entityType: string;
  readonly urn: string;
  readonly aspects: readonly SnapshotAspect[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads `{"value":{"<SnapshotClass>":{"urn","aspects":[{"<AspectClass>":{...}}]}}}`. */
export function parseSnapshot(entity: unknown): ParsedSnapshot {
  const union = isObject(entity) ? entity.value : undefined;
  if (!isObject(union) || Object.keys(union).length !== 1) {
    throw badRequest('Parameter \'entity\' must be {"value": {"<snapshot class>": {"urn": ..., "aspects": [...]}}}');
  }
  const [snapshotClass, body] = Object.entries(union)[0]!;
  if (!isObject(body) || typeof body.urn !== 'string' || !Array.isArray(body.aspects)) {
    throw badRequest(`Parameter 'entity.value.${snapshotClass}' must have a string 'urn' and an 'aspects' array`);
  }
  const urn = parseUrn(body.urn);
  const spec = findEntitySpec(urn.entityType);
  if (!spec || spec.snapshotClass !== snapshotClass) {
    throw badRequest(`Snapshot class ${snapshotClass} does not match urn ${body.urn}`);
  }
  const aspects = body.aspects.map((item: unknown, i: number) => {
    if (!isObject(item) || Object.keys(item).length !== 1) {
      throw badRequest(`Parameter 'entity.value.${snapshotClass}.aspects[${i}]' must be {"<aspect class>": {...}}`);
    }
    const [cls, value] = Object.entries(item)[0]!;
    const aspect = aspectOfClass(cls);
    if (!aspect) throw badRequest(`Unknown aspect class ${cls} at entity.value.${snapshotClass}.aspects[${i}]`);
    return { aspect, value };
  });
  return { entityType: spec.name, urn: body.urn, aspects };
}

/** The snapshot form of an entity's latest aspects, as `GET /entities/{urn}` returns it. */
export function toSnapshot(urn: string, aspects: readonly StoredAspect[]): Record<string, unknown> {
  const spec = entitySpec(parseUrn(urn).entityType);
  const snapshotClass = spec.snapshotClass ?? `com.linkedin.metadata.snapshot.${spec.name[0]!.toUpperCase()}${spec.name.slice(1)}Snapshot`;
  return {
    [snapshotClass]: {
      urn,
      aspects: aspects.map((a) => ({ [aspectClassOf(a.aspect)]: a.value })),
    },
  };
}
