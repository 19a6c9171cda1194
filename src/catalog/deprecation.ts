import { badRequest, CatalogError } from './errors.ts';
import { aspectSpec, entitySpec, keyAspectValue, validateAspect } from './registry/index.ts';
import { checkBatchSize, ResourceLookup, type ResourceRef } from './resource-refs.ts';
import { parseUrn, schemaFieldUrn, validateUrnForIngest, type Urn } from './urn.ts';
import { MissingEntities, type Json, type Parts, type WriteOp } from '../storage/store.ts';

export type { ResourceRef } from './resource-refs.ts';

const ASPECT = 'deprecation';
const DEFAULT_RUN_ID = 'no-run-id-provided';

export const MAX_HISTORY_LIMIT = 1000;

/** What a caller asks for; the actor is always the caller. */
export interface DeprecationChange {
  readonly deprecated: boolean;
  readonly decommissionTime?: number | null;
  readonly note?: string | null;
  readonly replacement?: string | null;
}

/** The deprecation of an entity as readers see it. */
export interface DeprecationView {
  readonly deprecated: boolean;
  readonly decommissionTime: number | null;
  readonly note: string | null;
  readonly actor: string | null;
  readonly replacement: string | null;
}

/** One stored version, with who wrote it and when. */
export interface DeprecationVersion {
  /** 0 is the current version; among the others, higher is more recent. */
  readonly version: number;
  readonly createdOn: number;
  readonly createdBy: string;
  readonly deprecation: DeprecationView;
}

/** An entity that exists but was never deprecated reports this, never null. */
export const NOT_DEPRECATED: DeprecationView = Object.freeze({
  deprecated: false,
  decommissionTime: null,
  note: null,
  actor: null,
  replacement: null,
});

/** The read view of a stored deprecation aspect value (or of its absence). */
export function deprecationView(value: Json | undefined): DeprecationView {
  if (!value) return NOT_DEPRECATED;
  return {
    deprecated: value.deprecated === true,
    decommissionTime: typeof value.decommissionTime === 'number' ? value.decommissionTime : null,
    note: typeof value.note === 'string' ? value.note : null,
    actor: typeof value.actor === 'string' ? value.actor : null,
    replacement: typeof value.replacement === 'string' ? value.replacement : null,
  };
}

/** Where one deprecation is written: the entity itself or a schemaField entity of a dataset. */
interface Target {
  readonly urn: string;
  readonly entityType: string;
  /** For a field: the schemaField key aspect, written once. */
  readonly key?: { readonly aspect: string; readonly value: Json };
}

const singleMissing = (urn: string) => `Failed to update deprecation for Entity ${urn}. Entity does not exist.`;

/**
 * Deprecation use cases with DataHub's rules and messages. Everything is
 * validated before anything is written, and one call is one transaction, so a
 * failing resource of a batch leaves every resource as it was.
 */
export class Deprecations {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** updateDeprecation: one entity, which must exist, as must the replacement; checked by the write itself (one round trip on PostgreSQL). */
  async update(urn: string, change: DeprecationChange, actor: string): Promise<void> {
    const parsed = parseUrn(urn);
    const replacement = replacementUrn(change.replacement);
    let target: Target;
    try {
      target = entityTarget(parsed);
    } catch (e) {
      // As DataHub, a missing entity is reported before what its type cannot carry.
      if (!(await this.ports.aspects.existing([urn])).has(urn)) throw badRequest(singleMissing(urn));
      throw e;
    }
    try {
      await this.write([target], change, actor, replacement === undefined ? [urn] : [urn, replacement]);
    } catch (e) {
      if (!(e instanceof MissingEntities)) throw e;
      if (e.urns.includes(urn)) throw badRequest(singleMissing(urn));
      throw badRequest(`Failed to update deprecation for Entity ${urn}. Replacement entity ${replacement} does not exist.`);
    }
  }

  /** batchUpdateDeprecation: entities and dataset fields, all or nothing. */
  async batchUpdate(resources: readonly ResourceRef[], change: DeprecationChange, actor: string): Promise<void> {
    checkBatchSize('batchUpdateDeprecation', 'resources', resources.length);
    for (const r of resources) parseUrn(r.resourceUrn);
    const replacement = replacementUrn(change.replacement);
    // Two reads however long the batch: existence of everything, then the schemas fields are checked against.
    const lookup = await ResourceLookup.read(this.ports.aspects, resources, replacement ? [replacement] : []);
    const targets = resources.map((r): Target => {
      const checked = lookup.check(r);
      return checked.field === undefined ? entityTarget(checked.urn) : fieldTarget(checked.urn.raw, checked.field);
    });
    if (replacement !== undefined && !lookup.has(replacement)) {
      throw badRequest(`Failed to batch update deprecation. Replacement entity ${replacement} does not exist.`);
    }
    await this.write(targets, change, actor);
  }

  /** Every stored version of the entity's deprecation, newest first. */
  async history(urn: string, limit: number): Promise<DeprecationVersion[]> {
    parseUrn(urn);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_HISTORY_LIMIT) {
      throw badRequest(`limit must be an integer from 1 to ${MAX_HISTORY_LIMIT}, got ${limit}`);
    }
    const versions = await this.ports.aspects.getAspectHistory(urn, ASPECT, limit);
    return versions.map((v) => ({ version: v.version, createdOn: v.createdOn, createdBy: v.createdBy, deprecation: deprecationView(v.value) }));
  }

  private async write(targets: readonly Target[], change: DeprecationChange, actor: string, requireEntities?: readonly string[]): Promise<void> {
    const now = this.clock();
    // DataHub's rules: a missing note becomes "", a missing time or replacement is cleared, the actor is the caller.
    const value: Json = {
      deprecated: change.deprecated,
      ...(change.decommissionTime != null ? { decommissionTime: change.decommissionTime } : {}),
      note: change.note ?? '',
      actor,
      ...(change.replacement != null ? { replacement: change.replacement } : {}),
    };
    const systemMetadata: Json = { runId: DEFAULT_RUN_ID, lastObserved: now };
    const ops: WriteOp[] = [];
    const seen = new Set<string>();
    for (const t of targets) {
      if (seen.has(t.urn)) continue;
      seen.add(t.urn);
      const checked = validateAspect(t.entityType, ASPECT, value);
      if (t.key)
        ops.push({
          kind: 'aspect',
          entityType: t.entityType,
          urn: t.urn,
          aspect: t.key.aspect,
          value: t.key.value,
          systemMetadata,
          onlyIfAbsent: true,
        });
      ops.push({ kind: 'aspect', entityType: t.entityType, urn: t.urn, aspect: ASPECT, value: checked, systemMetadata });
    }
    if (ops.length > 0) await this.ports.aspects.write({ ops, actor, now, ...(requireEntities ? { requireEntities } : {}) });
  }
}

/** The replacement's urn, checked; a malformed one is named as the replacement, not the entity. */
function replacementUrn(raw: string | null | undefined): string | undefined {
  if (raw == null) return undefined;
  try {
    return parseUrn(raw).raw;
  } catch (e) {
    throw e instanceof CatalogError ? badRequest(`Invalid replacement urn: ${e.message}`) : e;
  }
}

/** The entity itself; its type must carry a deprecation aspect. */
function entityTarget(urn: Urn): Target {
  const spec = entitySpec(urn.entityType);
  aspectSpec(spec.name, ASPECT);
  return { urn: urn.raw, entityType: spec.name };
}

/** A dataset field, stored on its schemaField entity as DataHub does. */
function fieldTarget(datasetUrn: string, fieldPath: string): Target {
  const urn = validateUrnForIngest(schemaFieldUrn(datasetUrn, fieldPath));
  const spec = entitySpec('schemaField');
  const key = validateAspect(spec.name, spec.keyAspect, keyAspectValue(spec.name, urn.parts));
  return { urn: urn.raw, entityType: spec.name, key: { aspect: spec.keyAspect, value: key } };
}
