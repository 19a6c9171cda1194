import { ASPECTS } from './aspects.ts';
import { keyFieldsOf, type KeyAspectName } from './key-aspects.ts';

export interface EntitySpec {
  readonly name: string;
  readonly keyAspect: string;
  /** includes key, versioned and timeseries names */
  readonly aspects: readonly string[];
  /** e.g. com.linkedin.metadata.snapshot.DatasetSnapshot; absent for entities without a Snapshot model */
  readonly snapshotClass?: string;
  /** the key aspect fields in urn tuple order, e.g. ['platform','name','origin'] */
  readonly keyFields: readonly string[];
}

const SNAPSHOT = 'com.linkedin.metadata.snapshot.';

/**
 * Aspects most ingestion sources emit for every "asset" entity (DataHub's
 * entity-registry.yml lists them for chart, dashboard, dataJob, dataFlow).
 */
const ASSET_COMMON = [
  'status', 'ownership', 'globalTags', 'glossaryTerms', 'deprecation', 'subTypes', 'dataPlatformInstance', 'browsePathsV2',
];

interface EntityDef {
  name: string;
  keyAspect: KeyAspectName;
  aspects: string[];
  snapshot?: string;
}

/** A subset of DataHub's `metadata-models/src/main/resources/entity-registry.yml`. */
const DEFS: EntityDef[] = [
  {
    name: 'dataset',
    keyAspect: 'datasetKey',
    aspects: [
      'datasetProperties', 'schemaMetadata', 'container', ...ASSET_COMMON,
      'datasetProfile', 'datasetUsageStatistics', 'operation',
    ],
    snapshot: 'DatasetSnapshot',
  },
  { name: 'dataPlatform', keyAspect: 'dataPlatformKey', aspects: ['dataPlatformInfo', 'status'], snapshot: 'DataPlatformSnapshot' },
  { name: 'corpuser', keyAspect: 'corpUserKey', aspects: ['corpUserInfo', 'status', 'globalTags'], snapshot: 'CorpUserSnapshot' },
  {
    name: 'corpGroup',
    keyAspect: 'corpGroupKey',
    aspects: ['corpGroupInfo', 'globalTags', 'ownership', 'status'],
    snapshot: 'CorpGroupSnapshot',
  },
  {
    name: 'chart',
    keyAspect: 'chartKey',
    aspects: ['chartInfo', 'container', ...ASSET_COMMON, 'chartUsageStatistics'],
    snapshot: 'ChartSnapshot',
  },
  {
    name: 'dashboard',
    keyAspect: 'dashboardKey',
    aspects: ['dashboardInfo', 'container', ...ASSET_COMMON, 'dashboardUsageStatistics'],
    snapshot: 'DashboardSnapshot',
  },
  { name: 'dataJob', keyAspect: 'dataJobKey', aspects: ['dataJobInfo', ...ASSET_COMMON], snapshot: 'DataJobSnapshot' },
  { name: 'dataFlow', keyAspect: 'dataFlowKey', aspects: ['dataFlowInfo', ...ASSET_COMMON], snapshot: 'DataFlowSnapshot' },
  {
    name: 'container',
    keyAspect: 'containerKey',
    aspects: ['containerProperties', 'container', ...ASSET_COMMON.filter((a) => a !== 'deprecation')],
  },
  {
    name: 'schemaField',
    keyAspect: 'schemaFieldKey',
    aspects: ['deprecation', 'status', 'globalTags'],
    snapshot: 'SchemaFieldSnapshot',
  },
];

function build(def: EntityDef): EntitySpec {
  const aspects = [def.keyAspect, ...new Set(def.aspects)];
  // Fail at import time, not at request time, if a name has no schema.
  for (const a of aspects) if (!ASPECTS.has(a)) throw new Error(`entity ${def.name}: aspect ${a} has no schema`);
  return Object.freeze({
    name: def.name,
    keyAspect: def.keyAspect,
    aspects: Object.freeze(aspects),
    keyFields: Object.freeze(keyFieldsOf(def.keyAspect)),
    ...(def.snapshot ? { snapshotClass: SNAPSHOT + def.snapshot } : {}),
  });
}

export const ENTITIES: readonly EntitySpec[] = Object.freeze(DEFS.map(build));
