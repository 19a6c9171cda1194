import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { buildRegistry, locateSchemas, OUTPUT, serialize } from '../../scripts/generate-registry.ts';
import { DATAHUB_REGISTRY } from '../../src/catalog/registry/datahub-registry.ts';

describe('the generated DataHub registry', () => {
  const located = locateSchemas();
  const unavailable = 'reason' in located ? located.reason : undefined;
  // In CI the package must be there (a missing one fails the test); on a laptop without it, one line says why not.
  const skip =
    unavailable !== undefined && !process.env.CI
      ? `DataHub's schemas are not available (${unavailable}); build .venv-datahub or set ALMANAC_DATAHUB_SCHEMAS`
      : false;

  it('is what the generator writes from the pinned acryl-datahub package', { skip }, () => {
    if ('reason' in located) return assert.fail(located.reason);
    assert.equal(located.version, DATAHUB_REGISTRY.source.version, 'the installed package is another release: regenerate');
    assert.equal(fs.readFileSync(OUTPUT, 'utf8'), serialize(buildRegistry(located)), 'run npm run registry:generate');
  });

  it('names the release it came from', () => {
    assert.equal(DATAHUB_REGISTRY.source.package, 'acryl-datahub');
    assert.match(DATAHUB_REGISTRY.source.version, /^\d+\.\d+\.\d+/);
  });

  it('holds the entities and aspects real ingestion sends', () => {
    const { entities, aspects } = DATAHUB_REGISTRY;
    const accepts = (entity: string, ...names: string[]) => {
      for (const a of names) assert.ok(entities[entity]?.aspects.includes(a), `${entity} accepts ${a}`);
    };
    accepts('dataset', 'upstreamLineage', 'editableDatasetProperties', 'viewProperties', 'domains', 'embed');
    accepts('dataJob', 'container', 'dataJobInputOutput', 'datahubIngestionCheckpoint');
    accepts('tag', 'tagProperties');
    accepts('dataHubExecutionRequest', 'dataHubExecutionRequestInput', 'dataHubExecutionRequestResult');
    assert.equal(aspects['datahubIngestionCheckpoint']?.kind, 'timeseries');
    assert.equal(aspects['upstreamLineage']?.kind, 'versioned');
    assert.equal(entities['tag']?.keyAspect, 'tagKey');
    assert.equal(aspects['tagKey']?.kind, 'key');
  });

  it('keeps every key aspect, its urn-ordered fields and the relationships of each aspect', () => {
    for (const [name, e] of Object.entries(DATAHUB_REGISTRY.entities)) {
      assert.ok(e.keyFields.length > 0, name);
      assert.equal(DATAHUB_REGISTRY.aspects[e.keyAspect]?.kind, 'key', name);
      for (const a of e.aspects) assert.ok(DATAHUB_REGISTRY.aspects[a], `${name}: ${a}`);
    }
    assert.deepEqual(
      DATAHUB_REGISTRY.entities['dataset']!.keyFields.map((f) => [f.name, f.type]),
      [
        ['platform', 'urn'],
        ['name', 'string'],
        ['origin', 'enum'],
      ],
    );
    assert.equal(DATAHUB_REGISTRY.entities['dataset']!.snapshotClass, 'com.linkedin.metadata.snapshot.DatasetSnapshot');
    assert.equal(DATAHUB_REGISTRY.aspects['upstreamLineage']!.class, 'com.linkedin.dataset.UpstreamLineage');
    assert.deepEqual(
      DATAHUB_REGISTRY.aspects['upstreamLineage']!.relationships?.find((r) => r.path === 'upstreams/*/dataset'),
      {
        path: 'upstreams/*/dataset',
        name: 'DownstreamOf',
        entityTypes: ['dataset'],
        isLineage: true,
        optional: [false, false, false],
        via: 'upstreams/*/query',
      },
    );
    const outputs = DATAHUB_REGISTRY.aspects['dataJobInputOutput']!.relationships?.find((r) => r.path === 'outputDatasets/*');
    assert.deepEqual([outputs?.name, outputs?.isUpstream], ['Produces', false]);
    // An annotation on the outer field (GlobalTags.tags: "/*/tag") reaches into the record it holds.
    assert.ok(DATAHUB_REGISTRY.aspects['schemaMetadata']!.relationships?.some((r) => r.path === 'fields/*/globalTags/tags/*/tag'));
    assert.deepEqual(DATAHUB_REGISTRY.aspects['queryUsageStatistics']!.collections, ['userCounts']);
    // Optional fields along a path are what DataHub's reference removal may drop.
    assert.deepEqual(
      DATAHUB_REGISTRY.aspects['dataProcessInstanceRelationships']!.relationships?.find((r) => r.path === 'parentTemplate')?.optional,
      [true],
    );
  });

  it("keeps each aspect's search index fields, named as DataHub's @Searchable annotations name them", () => {
    const fields = (aspect: string) => Object.fromEntries((DATAHUB_REGISTRY.aspects[aspect]!.searchable ?? []).map((s) => [s.path, s.name]));
    assert.equal(fields('status')['removed'], 'removed');
    assert.deepEqual([fields('datasetKey')['platform'], fields('datasetKey')['origin'], fields('datasetKey')['name']], ['platform', 'origin', 'id']);
    assert.equal(fields('dataProcessInstanceProperties')['created/time'], 'created');
    assert.equal(fields('queryProperties')['lastModified/time'], 'lastModifiedAt');
    assert.equal(fields('dataHubExecutionRequestInput')['requestedAt'], 'requestTimeMs');
    // A nested field's own name wins over an outer annotation that only tunes it (v3 settings).
    assert.equal(fields('editableSchemaMetadata')['editableSchemaFieldInfo/*/description'], 'editedFieldDescriptions');
  });
});
