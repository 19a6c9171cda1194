import { badRequest } from './errors.ts';
import type { Proposal } from './proposals.ts';
import { DATAHUB_REGISTRY, type RegistryRelationship } from './registry/datahub-registry.ts';
import { entitySpec } from './registry/index.ts';
import { parseUrn } from './urn.ts';
import type { Json, StoredAspect, Parts } from '../storage/store.ts';

/** DataHub's RelatedAspect: an entity whose aspect points at the urn through a relationship. */
export interface RelatedAspect {
  readonly entity: string;
  readonly aspect: string;
  readonly relationship: string;
}

/** DataHub's DeleteReferencesResponse. */
export interface DeleteReferencesResult {
  /** How many (entity, relationship) edges point at the urn. */
  readonly total: number;
  /** The first 10 aspects holding them. */
  readonly relatedAspects: readonly RelatedAspect[];
}

/** What a real run does to one referring aspect. */
type Change =
  | { readonly kind: 'update'; readonly aspect: StoredAspect; readonly value: Json }
  | { readonly kind: 'deleteAspect'; readonly aspect: StoredAspect }
  | { readonly kind: 'deleteEntity'; readonly aspect: StoredAspect };

const SAMPLE = 10;
const PAGE = 500;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every relationship of the registry that can point at entities of this type, by aspect. */
function relationshipsTo(entityType: string): Map<string, RegistryRelationship[]> {
  const out = new Map<string, RegistryRelationship[]>();
  for (const [aspect, spec] of Object.entries(DATAHUB_REGISTRY.aspects)) {
    const rels = (spec.relationships ?? []).filter((r) => r.entityTypes.includes(entityType));
    if (rels.length > 0) out.set(aspect, [...(spec.relationships ?? [])]);
  }
  return out;
}

/** Whether the value holds the urn at the path. */
function holds(value: unknown, segments: readonly string[], urn: string): boolean {
  if (segments.length === 0) return value === urn;
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') return Array.isArray(value) && value.some((v) => holds(v, rest, urn));
  return isObject(value) && holds(value[head], rest, urn);
}

/**
 * DataHub's reference removal (DeleteEntityUtils): at the path's end an
 * optional field is dropped and a required one takes its record with it; an
 * array loses the elements that held the urn; a required field emptied this
 * way empties its parent when it was the parent's only field. Returns null
 * when the whole aspect must go.
 */
function removeAt(value: unknown, segments: readonly string[], optional: readonly boolean[], i: number, urn: string): unknown {
  const segment = segments[i]!;
  const last = i === segments.length - 1;
  if (segment === '*') {
    if (!Array.isArray(value)) return value;
    if (last) return value.filter((v) => v !== urn);
    const kept: unknown[] = [];
    for (const element of value) {
      const result = removeAt(element, segments, optional, i + 1, urn);
      if (result !== null) kept.push(result);
    }
    return kept;
  }
  if (!isObject(value) || !(segment in value)) return value;
  const record = { ...value };
  if (last) {
    if (record[segment] !== urn) return record;
    if (!optional[i]) return null;
    delete record[segment];
    return record;
  }
  const result = removeAt(record[segment], segments, optional, i + 1, urn);
  if (result !== null) record[segment] = result;
  else if (optional[i]) delete record[segment];
  else if (Object.keys(record).length === 1) return null;
  else throw badRequest(`Delete failed! Failed to remove field with name ${segment} from ${segments.join('/')}. The field is required!`);
  return record;
}

/**
 * deleteReferences as DataHub's DeleteEntityService runs it: every entity
 * whose aspect points at the urn through a relationship that may target its
 * type loses that reference (every field of that relationship in the aspect);
 * an aspect left without a required value is deleted, and a key aspect that
 * names the urn (a data job's flow) takes its entity with it. The entity
 * itself is not touched. Without a relationship index, candidates are found by
 * reading the latest rows of the aspects that can refer to the type.
 */
export async function deleteReferences(
  { aspects }: Pick<Parts, 'aspects'>,
  targetUrn: string,
  dryRun: boolean,
  write: (proposals: readonly Proposal[]) => Promise<void>,
): Promise<DeleteReferencesResult> {
  const target = entitySpec(parseUrn(targetUrn).entityType).name;
  const byAspect = relationshipsTo(target);
  const text = JSON.stringify(targetUrn).slice(1, -1);
  const edges = new Set<string>();
  const related: RelatedAspect[] = [];
  const changes: Change[] = [];
  let after: { urn: string; aspect: string } | undefined;
  for (;;) {
    const rows = await aspects.findAspectsMentioning({ aspects: [...byAspect.keys()], text, after, limit: PAGE });
    for (const row of rows) {
      const rels = byAspect.get(row.aspect)!;
      const names = new Set(rels.filter((r) => r.entityTypes.includes(target) && holds(row.value, r.path.split('/'), targetUrn)).map((r) => r.name));
      if (names.size === 0) continue;
      let value: unknown = row.value;
      for (const name of [...names].sort()) {
        edges.add(`${row.urn}\u0000${name}`);
        related.push({ entity: row.urn, aspect: row.aspect, relationship: name });
        for (const r of rels.filter((x) => x.name === name)) if (value !== null) value = removeAt(value, r.path.split('/'), r.optional, 0, targetUrn);
      }
      const isKey = entitySpec(row.entityType).keyAspect === row.aspect;
      if (value === null) changes.push({ kind: isKey ? 'deleteEntity' : 'deleteAspect', aspect: row });
      else if (JSON.stringify(value) !== JSON.stringify(row.value)) changes.push({ kind: 'update', aspect: row, value: value as Json });
    }
    if (rows.length < PAGE) break;
    after = { urn: rows.at(-1)!.urn, aspect: rows.at(-1)!.aspect };
  }
  if (!dryRun) await apply(aspects, changes, write);
  return { total: edges.size, relatedAspects: related.slice(0, SAMPLE) };
}

/** Updates first, in one validated batch (nothing is written if one is invalid), then the deletions. */
async function apply(aspects: Parts['aspects'], changes: readonly Change[], write: (proposals: readonly Proposal[]) => Promise<void>): Promise<void> {
  const updates: Proposal[] = changes.flatMap((c) =>
    c.kind === 'update'
      ? [
          {
            entityType: c.aspect.entityType,
            urn: c.aspect.urn,
            changeType: 'UPSERT',
            aspectName: c.aspect.aspect,
            value: c.value,
            systemMetadata: null,
          },
        ]
      : [],
  );
  if (updates.length > 0) await write(updates);
  for (const c of changes) {
    if (c.kind === 'deleteAspect') await aspects.deleteAspect(c.aspect.urn, c.aspect.aspect);
    if (c.kind === 'deleteEntity') await aspects.deleteEntity(c.aspect.urn);
  }
}
