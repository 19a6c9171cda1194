import type { Json, StoredAspect } from './store.ts';

/** The aspects row as both adapters read it; `J` is how the driver hands back a JSON column (text, or parsed). */
export interface AspectRow<J> {
  urn: string;
  entity_type: string;
  aspect: string;
  version: number;
  metadata: J;
  system_metadata: J | null;
  created_on: number;
  created_by: string;
}

export const toStoredAspect = <J>(r: AspectRow<J>, json: (column: J) => Json): StoredAspect => ({
  urn: r.urn,
  entityType: r.entity_type,
  aspect: r.aspect,
  version: r.version,
  value: json(r.metadata),
  systemMetadata: r.system_metadata === null ? null : json(r.system_metadata),
  createdOn: r.created_on,
  createdBy: r.created_by,
});
