import { z } from 'zod';
import { fabricType, urn } from './common.ts';

/**
 * Key aspects (`metadata-models/.../metadata/key/*Key.pdl`). The field order of
 * each object is the urn tuple order: `keyAspectValue` in index.ts relies on it,
 * mirroring DataHub's EntityKeyUtils which binds urn parts to key fields by
 * position.
 */
export const keyAspectSchemas = {
  datasetKey: z.looseObject({ platform: urn(), name: z.string(), origin: fabricType() }),
  dataPlatformKey: z.looseObject({ platformName: z.string() }),
  corpUserKey: z.looseObject({ username: z.string() }),
  corpGroupKey: z.looseObject({ name: z.string() }),
  chartKey: z.looseObject({ dashboardTool: z.string(), chartId: z.string() }),
  dashboardKey: z.looseObject({ dashboardTool: z.string(), dashboardId: z.string() }),
  dataJobKey: z.looseObject({ flow: urn(), jobId: z.string() }),
  dataFlowKey: z.looseObject({ orchestrator: z.string(), flowId: z.string(), cluster: z.string() }),
  // guid is optional in ContainerKey.pdl, but it is the urn's only part.
  containerKey: z.looseObject({ guid: z.string().optional() }),
  schemaFieldKey: z.looseObject({ parent: urn(), fieldPath: z.string() }),
} as const;

export type KeyAspectName = keyof typeof keyAspectSchemas;

/** Field names of a key aspect, in urn tuple order. */
export const keyFieldsOf = (name: KeyAspectName): string[] => Object.keys(keyAspectSchemas[name].shape);
