import type { z } from 'zod';
import { DATAHUB_REGISTRY, type AspectKind } from './datahub-registry.ts';
import { keyAspectSchema } from './key-aspects.ts';
import * as timeseries from './timeseries-aspects.ts';
import * as versioned from './versioned-aspects.ts';

export type { AspectKind };

export interface AspectSpec {
  readonly name: string;
  readonly kind: AspectKind;
  /** the Pegasus class, as the snapshot and Rest.li aspect forms name the aspect */
  readonly pegasusClass: string;
  /**
   * Almanac's schema for an aspect it interprets (its values come back parsed, defaults applied). Absent for
   * every other aspect: any JSON object is stored and returned as sent (a timeseries one must also satisfy
   * TimeseriesAspectBase, see validateAspect).
   */
  readonly schema?: z.ZodType;
  /** for timeseries: fields that are collections exploded into extra index documents in DataHub, e.g. userCounts, fieldCounts */
  readonly collections?: readonly string[];
}

/** The versioned aspects Almanac reads, by their DataHub `@Aspect` name. Key aspects are all interpreted. */
const VERSIONED: Readonly<Record<string, z.ZodType>> = {
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

/** The timeseries aspects Almanac reads. */
const TIMESERIES: Readonly<Record<string, z.ZodType>> = {
  datasetProfile: timeseries.datasetProfile,
  datasetUsageStatistics: timeseries.datasetUsageStatistics,
  operation: timeseries.operation,
  chartUsageStatistics: timeseries.chartUsageStatistics,
  dashboardUsageStatistics: timeseries.dashboardUsageStatistics,
};

const keyFieldsByAspect = new Map(Object.values(DATAHUB_REGISTRY.entities).map((e) => [e.keyAspect, e.keyFields]));

function build(name: string): AspectSpec {
  const { kind, class: pegasusClass, collections } = DATAHUB_REGISTRY.aspects[name]!;
  const keyFields = kind === 'key' ? keyFieldsByAspect.get(name) : undefined;
  const schema = keyFields ? keyAspectSchema(keyFields) : (kind === 'timeseries' ? TIMESERIES : VERSIONED)[name];
  return Object.freeze({ name, kind, pegasusClass, ...(schema ? { schema } : {}), ...(collections ? { collections } : {}) });
}

/**
 * Every aspect of DataHub's registry, keyed by name. DataHub aspect names are
 * global (one model per name, shared by all entities that accept it), so one
 * table serves all entities.
 */
export const ASPECTS: ReadonlyMap<string, AspectSpec> = new Map(Object.keys(DATAHUB_REGISTRY.aspects).map((name) => [name, build(name)]));

// Fail at import time, not at request time, if a hand-written schema names an aspect the registry lacks or
// calls timeseries what the registry does not.
for (const [table, kind] of [
  [VERSIONED, 'versioned'],
  [TIMESERIES, 'timeseries'],
] as const) {
  for (const name of Object.keys(table)) {
    if (ASPECTS.get(name)?.kind !== kind) throw new Error(`aspect ${name} is not a ${kind} aspect of DataHub's registry`);
  }
}
