import type { z } from 'zod';
import { keyAspectSchemas } from './key-aspects.ts';
import { timeseriesAspectDefs } from './timeseries-aspects.ts';
import * as versioned from './versioned-aspects.ts';

export type AspectKind = 'key' | 'versioned' | 'timeseries';

export interface AspectSpec {
  readonly name: string;
  readonly kind: AspectKind;
  readonly schema: z.ZodType;
  /** for timeseries: fields that are collections exploded into extra index documents in DataHub, e.g. userCounts, fieldCounts */
  readonly collections?: readonly string[];
}

/** Versioned aspects by their DataHub `@Aspect` name. */
const VERSIONED: Record<string, z.ZodType> = {
  status: versioned.status,
  datasetProperties: versioned.datasetProperties,
  schemaMetadata: versioned.schemaMetadata,
  deprecation: versioned.deprecation,
  ownership: versioned.ownership,
  globalTags: versioned.globalTags,
  glossaryTerms: versioned.glossaryTerms,
  corpUserInfo: versioned.corpUserInfo,
  corpGroupInfo: versioned.corpGroupInfo,
  dataPlatformInfo: versioned.dataPlatformInfo,
  chartInfo: versioned.chartInfo,
  dashboardInfo: versioned.dashboardInfo,
  dataFlowInfo: versioned.dataFlowInfo,
  dataJobInfo: versioned.dataJobInfo,
  containerProperties: versioned.containerProperties,
  subTypes: versioned.subTypes,
  container: versioned.container,
  dataPlatformInstance: versioned.dataPlatformInstance,
  browsePathsV2: versioned.browsePathsV2,
};

/**
 * Every aspect, keyed by name. DataHub aspect names are global (one model per
 * name, shared by all entities that accept it), so one table serves all entities.
 */
export const ASPECTS: ReadonlyMap<string, AspectSpec> = new Map<string, AspectSpec>([
  ...Object.entries(keyAspectSchemas).map(([name, schema]): [string, AspectSpec] => [name, { name, kind: 'key', schema }]),
  ...Object.entries(VERSIONED).map(([name, schema]): [string, AspectSpec] => [name, { name, kind: 'versioned', schema }]),
  ...Object.entries(timeseriesAspectDefs).map(([name, def]): [string, AspectSpec] => [
    name,
    { name, kind: 'timeseries', schema: def.schema, collections: def.collections },
  ]),
]);
