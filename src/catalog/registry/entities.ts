import { DATAHUB_REGISTRY, type RegistryEntity } from './datahub-registry.ts';

export interface EntitySpec {
  readonly name: string;
  readonly keyAspect: string;
  /** the key aspect first, then every versioned and timeseries aspect the entity accepts */
  readonly aspects: readonly string[];
  /** e.g. com.linkedin.metadata.snapshot.DatasetSnapshot; absent for entities without a Snapshot model */
  readonly snapshotClass?: string;
  /** the key aspect fields in urn tuple order, e.g. ['platform','name','origin'] */
  readonly keyFields: readonly string[];
}

function build(name: string, e: RegistryEntity): EntitySpec {
  return Object.freeze({
    name,
    keyAspect: e.keyAspect,
    aspects: Object.freeze([e.keyAspect, ...e.aspects]),
    keyFields: Object.freeze(e.keyFields.map((f) => f.name)),
    ...(e.snapshotClass ? { snapshotClass: e.snapshotClass } : {}),
  });
}

/** Every entity of DataHub's registry at the pinned release (generated/datahub-registry.json), by name. */
export const ENTITIES: readonly EntitySpec[] = Object.freeze(Object.entries(DATAHUB_REGISTRY.entities).map(([name, e]) => build(name, e)));
