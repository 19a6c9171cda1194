import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogError } from '../../src/catalog/errors.ts';
import {
  allEntitySpecs,
  aspectClassOf,
  aspectNamesOfKind,
  aspectOfClass,
  aspectSpec,
  entitySpec,
  findEntitySpec,
  findTimeseriesAspectCaseInsensitive,
  keyAspectValue,
  timeseriesAspectPairs,
  validateAspect,
} from '../../src/catalog/registry/index.ts';

/** Asserts fn throws a CatalogError with the code and a message containing every fragment. */
function assertCatalogError(fn: () => unknown, code: string, ...fragments: string[]): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof CatalogError, `expected CatalogError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    for (const f of fragments) assert.ok(e.message.includes(f), `"${e.message}" should include "${f}"`);
    return true;
  });
}

const invalid = (entity: string, aspect: string, value: unknown, ...fragments: string[]) =>
  assertCatalogError(() => validateAspect(entity, aspect, value), 'VALIDATION_FAILED', ...fragments);

const TS = 1_700_000_000_000;
const PLATFORM = 'urn:li:dataPlatform:hive';

describe('registry lookups', () => {
  it('knows the core entities with their key aspects and snapshot classes', () => {
    const ds = entitySpec('dataset');
    assert.equal(ds.keyAspect, 'datasetKey');
    assert.deepEqual(ds.keyFields, ['platform', 'name', 'origin']);
    assert.equal(ds.snapshotClass, 'com.linkedin.metadata.snapshot.DatasetSnapshot');
    for (const a of ['datasetKey', 'status', 'schemaMetadata', 'datasetProfile', 'operation']) assert.ok(ds.aspects.includes(a), a);
    const names = allEntitySpecs().map((e) => e.name);
    for (const n of ['dataset', 'dataPlatform', 'corpuser', 'corpGroup', 'chart', 'dashboard', 'dataJob', 'dataFlow', 'container', 'schemaField']) {
      assert.ok(names.includes(n), n);
    }
    assert.equal(entitySpec('container').snapshotClass, undefined);
    assert.equal(entitySpec('schemaField').aspects[0], 'schemaFieldKey');
    for (const a of ['deprecation', 'status', 'globalTags']) assert.ok(entitySpec('schemaField').aspects.includes(a), a);
  });

  it('classifies aspects by kind and exposes timeseries collections', () => {
    assert.deepEqual(aspectNamesOfKind('dataset', 'timeseries'), ['datasetProfile', 'datasetUsageStatistics', 'operation']);
    assert.deepEqual(aspectNamesOfKind('dataset', 'key'), ['datasetKey']);
    assert.ok(aspectNamesOfKind('dataset', 'versioned').includes('status'));
    assert.deepEqual(aspectSpec('dataset', 'datasetUsageStatistics').collections, ['userCounts', 'fieldCounts']);
    assert.equal(aspectSpec('dataset', 'status').kind, 'versioned');
    // Every timeseries aspect of the registry, by entity then aspect name.
    assert.deepEqual(timeseriesAspectPairs(), [
      { entityType: 'assertion', aspect: 'assertionRunEvent' },
      { entityType: 'chart', aspect: 'chartUsageStatistics' },
      { entityType: 'dashboard', aspect: 'dashboardUsageStatistics' },
      { entityType: 'dataJob', aspect: 'datahubIngestionCheckpoint' },
      { entityType: 'dataJob', aspect: 'datahubIngestionRunSummary' },
      { entityType: 'dataProcessInstance', aspect: 'dataProcessInstanceRunEvent' },
      { entityType: 'dataset', aspect: 'datasetProfile' },
      { entityType: 'dataset', aspect: 'datasetUsageStatistics' },
      { entityType: 'dataset', aspect: 'operation' },
      { entityType: 'document', aspect: 'documentUsageStatistics' },
      { entityType: 'query', aspect: 'queryUsageStatistics' },
    ]);
  });

  it('finds timeseries aspects case-insensitively and returns canonical names', () => {
    const want = { entityType: 'dataset', aspect: 'datasetProfile' };
    assert.deepEqual(findTimeseriesAspectCaseInsensitive('DATASET', 'DatasetProfile'), want);
    assert.deepEqual(findTimeseriesAspectCaseInsensitive('dataset', 'datasetprofile'), want);
    assert.deepEqual(findTimeseriesAspectCaseInsensitive('Dashboard', 'DASHBOARDUSAGESTATISTICS'), {
      entityType: 'dashboard',
      aspect: 'dashboardUsageStatistics',
    });
    assert.equal(findTimeseriesAspectCaseInsensitive('dataset', 'status'), undefined);
    assert.equal(findTimeseriesAspectCaseInsensitive('chart', 'datasetProfile'), undefined);
    assert.equal(findTimeseriesAspectCaseInsensitive('nope', 'datasetProfile'), undefined);
  });

  it('rejects unknown entities and aspects with DataHub messages (400)', () => {
    assertCatalogError(() => entitySpec('notAnEntity'), 'BAD_REQUEST', 'Failed to find entity with name notAnEntity in EntityRegistry');
    assert.equal(findEntitySpec('notAnEntity'), undefined);
    // DataHub's registry lower-cases entity names on lookup.
    assert.equal(findEntitySpec('DataSet')?.name, 'dataset');
    assertCatalogError(() => aspectSpec('dataset', 'bogus'), 'BAD_REQUEST', 'Unknown aspect bogus for entity dataset');
    // A real aspect on an entity that does not accept it.
    assertCatalogError(() => aspectSpec('corpuser', 'datasetProfile'), 'BAD_REQUEST', 'Unknown aspect datasetProfile for entity corpuser');
    assertCatalogError(() => validateAspect('dataset', 'Status', {}), 'BAD_REQUEST', 'Unknown aspect Status for entity dataset');
    assertCatalogError(() => validateAspect('widget', 'status', {}), 'BAD_REQUEST', 'Failed to find entity with name widget');
  });
});

describe('validateAspect: valid payloads', () => {
  it('applies defaults (status {} -> removed:false)', () => {
    assert.deepEqual(validateAspect('dataset', 'status', {}), { removed: false });
    assert.deepEqual(validateAspect('dataset', 'status', { removed: true }), { removed: true });
  });

  it('keeps unknown extra fields, top-level and nested', () => {
    // lifecycleStage is an urn field since 1.7: it must name an entity type of the registry (see urn-fields.ts).
    const out = validateAspect('dataset', 'status', { removed: false, lifecycleStage: 'urn:li:lifecycleStageType:y' });
    assert.equal(out['lifecycleStage'], 'urn:li:lifecycleStageType:y');
    const profile = validateAspect('dataset', 'datasetProfile', {
      timestampMillis: TS,
      futureField: { a: 1 },
      fieldProfiles: [{ fieldPath: 'id', newStat: 3 }],
    });
    assert.deepEqual(profile['futureField'], { a: 1 });
    assert.deepEqual(profile['fieldProfiles'], [{ fieldPath: 'id', newStat: 3 }]);
  });

  it('accepts a realistic datasetProfile with fieldProfiles', () => {
    const value = {
      timestampMillis: TS,
      eventGranularity: { unit: 'DAY', multiple: 1 },
      partitionSpec: { type: 'FULL_TABLE', partition: 'FULL_TABLE_SNAPSHOT' },
      rowCount: 1000,
      columnCount: 2,
      sizeInBytes: 123456,
      fieldProfiles: [
        {
          fieldPath: 'id',
          uniqueCount: 1000,
          uniqueProportion: 1,
          nullCount: 0,
          nullProportion: 0,
          min: '1',
          max: '1000',
          mean: '500.5',
          median: '500',
          stdev: '288.8',
          sampleValues: ['1', '2'],
        },
        { fieldPath: 'name', nullCount: 3, nullProportion: 0.003, distinctValueFrequencies: [{ value: 'a', frequency: 10 }] },
      ],
    };
    assert.deepEqual(validateAspect('dataset', 'datasetProfile', value), value);
  });

  it('accepts usage statistics with userCounts and fieldCounts, defaulting eventGranularity.multiple', () => {
    const out = validateAspect('dataset', 'datasetUsageStatistics', {
      timestampMillis: TS,
      eventGranularity: { unit: 'DAY' },
      partitionSpec: { partition: 'FULL_TABLE_SNAPSHOT' },
      uniqueUserCount: 2,
      totalSqlQueries: 5,
      topSqlQueries: ['select 1'],
      userCounts: [
        { user: 'urn:li:corpuser:alice', count: 3, userEmail: 'alice@example.com' },
        { user: 'urn:li:corpuser:bob', count: 2 },
      ],
      fieldCounts: [{ fieldPath: 'id', count: 5 }],
    });
    assert.deepEqual(out['eventGranularity'], { unit: 'DAY', multiple: 1 });
    assert.equal((out['userCounts'] as unknown[]).length, 2);
  });

  it('accepts operation, chart and dashboard usage', () => {
    validateAspect('dataset', 'operation', {
      timestampMillis: TS,
      lastUpdatedTimestamp: TS - 1000,
      operationType: 'INSERT',
      actor: 'urn:li:corpuser:etl',
      numAffectedRows: 42,
      affectedDatasets: ['urn:li:dataset:(urn:li:dataPlatform:hive,db.other,PROD)'],
      customProperties: { job: 'nightly' },
    });
    validateAspect('chart', 'chartUsageStatistics', {
      timestampMillis: TS,
      viewsCount: 9,
      userCounts: [{ user: 'urn:li:corpuser:a', viewsCount: 9 }],
    });
    validateAspect('dashboard', 'dashboardUsageStatistics', {
      timestampMillis: TS,
      viewsCount: 10,
      executionsCount: 2,
      favoritesCount: 1,
      lastViewedAt: TS,
      userCounts: [{ user: 'urn:li:corpuser:a', viewsCount: 4, executionsCount: 1, usageCount: 5, userEmail: 'a@x.io' }],
    });
  });

  it('accepts realistic versioned aspects', () => {
    validateAspect('dataset', 'datasetProperties', {
      name: 't',
      description: 'd',
      customProperties: { owner: 'x' },
      tags: [],
      created: { time: TS },
      lastModified: { time: TS, actor: 'urn:li:corpuser:a' },
    });
    validateAspect('dataset', 'schemaMetadata', {
      schemaName: 'db.t',
      platform: PLATFORM,
      version: 0,
      created: { time: 0, actor: 'urn:li:corpuser:unknown' },
      lastModified: { time: 0, actor: 'urn:li:corpuser:unknown' },
      hash: '',
      platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
      fields: [
        {
          fieldPath: 'id',
          nullable: false,
          type: { type: { 'com.linkedin.schema.NumberType': {} } },
          nativeDataType: 'bigint',
          recursive: false,
          isPartOfKey: true,
        },
        {
          fieldPath: 'name',
          type: { type: { 'com.linkedin.schema.StringType': {} } },
          nativeDataType: 'varchar',
          globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
        },
      ],
    });
    validateAspect('dataset', 'deprecation', { deprecated: true, note: 'use v2', actor: 'urn:li:corpuser:a', decommissionTime: TS });
    validateAspect('dataset', 'ownership', {
      owners: [
        { owner: 'urn:li:corpuser:a', type: 'DATAOWNER' },
        { owner: 'urn:li:corpGroup:g', typeUrn: 'urn:li:ownershipType:__system__technical_owner' },
      ],
      lastModified: { time: 0, actor: 'urn:li:corpuser:unknown' },
    });
    validateAspect('dataset', 'globalTags', { tags: [{ tag: 'urn:li:tag:gold' }] });
    validateAspect('corpuser', 'corpUserInfo', { active: true, displayName: 'Alice', email: 'a@x.io', fullName: 'Alice A' });
    validateAspect('dataPlatform', 'dataPlatformInfo', { name: 'hive', type: 'FILE_SYSTEM', datasetNameDelimiter: '.', displayName: 'Hive' });
    validateAspect('schemaField', 'deprecation', { deprecated: false, note: '', actor: 'urn:li:corpuser:a' });
    validateAspect('dataJob', 'dataJobInfo', { name: 'task', type: { string: 'COMMAND' } });
  });

  it('validates key aspects', () => {
    validateAspect('dataset', 'datasetKey', { platform: PLATFORM, name: 'db.t', origin: 'PROD' });
    invalid('dataset', 'datasetKey', { platform: PLATFORM, name: 'db.t', origin: 'prod' }, 'field "origin"');
    invalid('dataset', 'datasetKey', { platform: 'hive', name: 'db.t', origin: 'PROD' }, 'field "platform"', 'urn');
  });
});

describe('validateAspect: invalid payloads (422 naming the field)', () => {
  it('wrong type', () => {
    invalid(
      'dataset',
      'datasetProfile',
      { timestampMillis: TS, rowCount: 'many' },
      'Aspect datasetProfile is invalid',
      'field "rowCount" expected number, received string',
    );
    invalid('dataset', 'status', { removed: 'yes' }, 'field "removed"', 'boolean');
    invalid('dataset', 'datasetProperties', { customProperties: { a: 1 } }, 'field "customProperties.a"');
    invalid('dataset', 'status', 'not an object', 'Aspect status is invalid', 'expected object');
  });

  it('non-integer long', () => {
    invalid('dataset', 'datasetProfile', { timestampMillis: TS, rowCount: 1.5 }, 'field "rowCount"', 'integer');
    invalid('dataset', 'datasetProfile', { timestampMillis: 1.5 }, 'field "timestampMillis"');
  });

  it('missing required fields', () => {
    invalid('dataset', 'deprecation', { deprecated: true }, 'field "note" is required', 'field "actor" is required');
    invalid('dataset', 'operation', { timestampMillis: TS }, 'field "operationType" is required', 'field "lastUpdatedTimestamp" is required');
    invalid('corpuser', 'corpUserInfo', { displayName: 'x' }, 'field "active" is required');
    invalid('dataPlatform', 'dataPlatformInfo', { name: 'hive' }, 'field "type" is required', 'field "datasetNameDelimiter" is required');
  });

  it('bad enum values', () => {
    invalid('dataset', 'operation', { timestampMillis: TS, lastUpdatedTimestamp: TS, operationType: 'MERGE' }, 'field "operationType"', 'INSERT');
    invalid('dataset', 'datasetProfile', { timestampMillis: TS, eventGranularity: { unit: 'FORTNIGHT' } }, 'field "eventGranularity.unit"');
  });

  it('nested array elements, listing every offending field', () => {
    let message = '';
    try {
      validateAspect('dataset', 'datasetProfile', {
        timestampMillis: TS,
        rowCount: 'x',
        fieldProfiles: [{ fieldPath: 'ok' }, { nullCount: 'lots' }, 7],
      });
    } catch (e) {
      message = (e as Error).message;
    }
    const parts = message.replace(/^Aspect datasetProfile is invalid: /, '').split('; ');
    assert.deepEqual(parts, [
      'field "rowCount" expected number, received string',
      'field "fieldProfiles[1].fieldPath" is required',
      'field "fieldProfiles[1].nullCount" expected number, received string',
      'field "fieldProfiles[2]" expected object, received number',
    ]);
    invalid(
      'dataset',
      'datasetUsageStatistics',
      { timestampMillis: TS, userCounts: [{ user: 'urn:li:corpuser:a' }] },
      'field "userCounts[0].count" is required',
    );
    invalid(
      'dataset',
      'schemaMetadata',
      {
        schemaName: 's',
        platform: PLATFORM,
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields: [{ fieldPath: 'a', type: { type: { 'com.linkedin.schema.StringType': {} } } }],
      },
      'field "fields[0].nativeDataType" is required',
    );
    invalid('dataset', 'ownership', { owners: [{ type: 'DATAOWNER' }] }, 'field "owners[0].owner" is required');
  });

  it('timeseries value without timestampMillis', () => {
    invalid('dataset', 'datasetProfile', { rowCount: 1 }, 'Input timeseries aspect does not contain a timestampMillis field');
    invalid('chart', 'chartUsageStatistics', { timestampMillis: null }, 'Input timeseries aspect does not contain a timestampMillis field');
  });
});

describe('partitionSpec rules (400, as DataHub IllegalArgumentException)', () => {
  const profile = (partitionSpec: unknown) => () => validateAspect('dataset', 'datasetProfile', { timestampMillis: TS, partitionSpec });
  const timePartition = { startTimeMillis: TS, length: { unit: 'DAY', multiple: 1 } };

  it('accepts exactly one of partition / timePartition', () => {
    profile({ partition: 'ds=2024-01-01' })();
    const out = validateAspect('dataset', 'datasetProfile', {
      timestampMillis: TS,
      partitionSpec: { type: 'PARTITION', timePartition: { startTimeMillis: TS, length: { unit: 'HOUR' } } },
    });
    assert.deepEqual(out['partitionSpec'], { type: 'PARTITION', timePartition: { startTimeMillis: TS, length: { unit: 'HOUR', multiple: 1 } } });
  });

  it('rejects both set', () => {
    assertCatalogError(
      profile({ partition: 'p', timePartition }),
      'BAD_REQUEST',
      'Both partition and timePartition cannot be specified in partitionSpec!',
    );
  });

  it('rejects both null or absent', () => {
    const msg = 'Both partition and timePartition cannot be null in partitionSpec.';
    assertCatalogError(profile({ type: 'FULL_TABLE' }), 'BAD_REQUEST', msg);
    assertCatalogError(profile({ partition: null, timePartition: null }), 'BAD_REQUEST', msg);
  });

  it('still type-checks partitionSpec fields (422)', () => {
    assertCatalogError(profile({ partition: 5 }), 'VALIDATION_FAILED', 'field "partitionSpec.partition"');
    assertCatalogError(
      profile({ timePartition: { startTimeMillis: TS } }),
      'VALIDATION_FAILED',
      'field "partitionSpec.timePartition.length" is required',
    );
  });
});

describe('keyAspectValue', () => {
  it('binds urn parts to key fields by position', () => {
    assert.deepEqual(keyAspectValue('dataset', [PLATFORM, 'db.t', 'PROD']), { platform: PLATFORM, name: 'db.t', origin: 'PROD' });
    assert.deepEqual(keyAspectValue('corpuser', ['alice']), { username: 'alice' });
    const parent = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';
    assert.deepEqual(keyAspectValue('schemaField', [parent, 'id']), { parent, fieldPath: 'id' });
    assert.deepEqual(keyAspectValue('dataFlow', ['airflow', 'dag', 'prod']), { orchestrator: 'airflow', flowId: 'dag', cluster: 'prod' });
  });

  it('produces a value the key aspect schema accepts', () => {
    const key = keyAspectValue('dataset', [PLATFORM, 'db.t', 'PROD']);
    assert.deepEqual(validateAspect('dataset', 'datasetKey', key), key);
  });

  it('rejects a wrong number of parts (400) and unknown entities', () => {
    assertCatalogError(() => keyAspectValue('dataset', [PLATFORM, 'db.t']), 'BAD_REQUEST', 'urns parts and key fields do not have same length');
    assertCatalogError(() => keyAspectValue('nope', ['x']), 'BAD_REQUEST', 'Failed to find entity with name nope in EntityRegistry');
  });
});

describe('registry lookups: the whole DataHub registry', () => {
  it('holds the entities and aspects real ingestion sends', () => {
    const accepts = (entity: string, ...aspects: string[]) => {
      for (const a of aspects) assert.ok(entitySpec(entity).aspects.includes(a), `${entity} accepts ${a}`);
    };
    accepts('dataset', 'upstreamLineage', 'editableDatasetProperties', 'viewProperties', 'domains', 'embed', 'container');
    accepts('dataJob', 'container', 'dataJobInputOutput', 'dataTransformLogic', 'datahubIngestionCheckpoint', 'datahubIngestionRunSummary');
    accepts('dataFlow', 'container');
    accepts('chart', 'inputFields', 'embed');
    accepts('tag', 'tagProperties');
    accepts('query', 'queryProperties', 'querySubjects', 'queryUsageStatistics');
    accepts('platformResource', 'platformResourceInfo');
    accepts('dataHubIngestionSource', 'dataHubIngestionSourceInfo');
    accepts('dataHubExecutionRequest', 'dataHubExecutionRequestInput', 'dataHubExecutionRequestResult');
    assert.equal(aspectSpec('dataJob', 'datahubIngestionCheckpoint').kind, 'timeseries');
    assert.equal(aspectSpec('dataset', 'upstreamLineage').kind, 'versioned');
    assert.equal(aspectSpec('tag', 'tagKey').kind, 'key');
    assert.deepEqual(entitySpec('dataHubRetention').keyFields, ['entityName', 'aspectName']);
    assert.equal(entitySpec('tag').snapshotClass, 'com.linkedin.metadata.snapshot.TagSnapshot');
  });

  it('names aspects by their Pegasus classes both ways', () => {
    assert.equal(aspectClassOf('upstreamLineage'), 'com.linkedin.dataset.UpstreamLineage');
    assert.equal(aspectClassOf('datasetKey'), 'com.linkedin.metadata.key.DatasetKey');
    assert.equal(aspectOfClass('com.linkedin.tag.TagProperties'), 'tagProperties');
    assert.equal(aspectOfClass('com.linkedin.Nope'), undefined);
  });
});

describe('validateAspect: aspects Almanac does not interpret', () => {
  it('returns any JSON object exactly as sent', () => {
    const lineage = {
      upstreams: [
        { dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.up,PROD)', type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } },
      ],
      extra: [1, null],
    };
    assert.equal(validateAspect('dataset', 'upstreamLineage', lineage), lineage);
    assert.deepEqual(validateAspect('tag', 'tagProperties', {}), {});
    // Opaque means opaque: no field is checked, not even ones an interpreted aspect would refuse.
    const odd = { name: 5, removed: 'yes' };
    assert.equal(validateAspect('dataHubExecutionRequest', 'dataHubExecutionRequestResult', odd), odd);
  });

  it('refuses a value that is not an object (422 naming the aspect)', () => {
    invalid('dataset', 'upstreamLineage', 'upstreams', 'Aspect upstreamLineage is invalid: expected object, received string');
    invalid('dataset', 'editableDatasetProperties', [], 'Aspect editableDatasetProperties is invalid: expected object, received array');
    invalid('tag', 'tagProperties', null, 'Aspect tagProperties is invalid: expected object, received null');
  });

  it('still refuses an aspect its entity does not accept, and an unknown entity', () => {
    assertCatalogError(() => validateAspect('tag', 'upstreamLineage', {}), 'BAD_REQUEST', 'Unknown aspect upstreamLineage for entity tag');
    assertCatalogError(() => validateAspect('dataset', 'notAnAspect', {}), 'BAD_REQUEST', 'Unknown aspect notAnAspect for entity dataset');
    assertCatalogError(() => validateAspect('spaceship', 'status', {}), 'BAD_REQUEST', 'Failed to find entity with name spaceship in EntityRegistry');
  });

  it('checks a timeseries one against TimeseriesAspectBase and returns it as sent', () => {
    const checkpoint = {
      timestampMillis: TS,
      pipelineName: 'p',
      platformInstanceId: 'i',
      config: '',
      state: { formatVersion: '1.0', serde: 'base85-bz2-json' },
      runId: 'r',
      eventGranularity: { unit: 'DAY' },
    };
    assert.equal(validateAspect('dataJob', 'datahubIngestionCheckpoint', checkpoint), checkpoint);
    assert.deepEqual(checkpoint.eventGranularity, { unit: 'DAY' }, 'no default is filled in');
    invalid('dataJob', 'datahubIngestionCheckpoint', { pipelineName: 'p' }, 'Input timeseries aspect does not contain a timestampMillis field');
    invalid('query', 'queryUsageStatistics', { timestampMillis: 'today' }, 'Aspect queryUsageStatistics is invalid', 'field "timestampMillis"');
    invalid('query', 'queryUsageStatistics', { timestampMillis: TS, eventGranularity: { unit: 'FORTNIGHT' } }, 'field "eventGranularity.unit"');
    invalid('query', 'queryUsageStatistics', 7, 'Aspect queryUsageStatistics is invalid: expected object, received number');
    assertCatalogError(
      () => validateAspect('dataJob', 'datahubIngestionRunSummary', { timestampMillis: TS, partitionSpec: { type: 'FULL_TABLE' } }),
      'BAD_REQUEST',
      'Both partition and timePartition cannot be null in partitionSpec.',
    );
  });

  it('builds and checks the key aspects of every entity from urn parts', () => {
    assert.deepEqual(keyAspectValue('tag', ['pii']), { name: 'pii' });
    assert.deepEqual(validateAspect('tag', 'tagKey', { name: 'pii' }), { name: 'pii' });
    const model = keyAspectValue('mlModel', [PLATFORM, 'churn', 'PROD']);
    assert.deepEqual(validateAspect('mlModel', 'mlModelKey', model), { platform: PLATFORM, name: 'churn', origin: 'PROD' });
    invalid('mlModel', 'mlModelKey', { ...model, origin: 'prod' }, 'field "origin"');
    invalid('dataJob', 'dataJobKey', { flow: 'not-an-urn', jobId: 'j' }, 'field "flow"', 'urn');
    assert.deepEqual(validateAspect('container', 'containerKey', {}), {}, 'ContainerKey.guid is optional in the PDL');
    assertCatalogError(() => keyAspectValue('dataHubRetention', ['dataset']), 'BAD_REQUEST', 'urns parts and key fields do not have same length');
  });
});
