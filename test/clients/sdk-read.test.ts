import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, storedAspect, useClientScript } from '../support/datahub-client.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { DAY, datasetUrn } from '../support/truncation.ts';

const URN = datasetUrn('sdk.customers');
const MISSING = datasetUrn('sdk.nowhere');
const ADMIN = 'urn:li:corpuser:datahub';
const NOW = Date.now();
const DECOMMISSION = NOW + 30 * DAY;

for (const backend of await clientBackends()) {
  describe(`DataHub Python SDK reads: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_read.py', async (server) => {
      await ingest(server, mcp(URN, 'datasetProperties', { name: 'first' }), mcp(URN, 'status', { removed: false }));
      await ingest(
        server,
        mcp(URN, 'datasetProperties', { name: 'second', description: 'Customers' }),
        mcp(URN, 'ownership', { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'TECHNICAL_OWNER' }], lastModified: { time: NOW, actor: ADMIN } }),
        mcp(URN, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
        ...[3, 1, 2].map((days) => mcp(URN, 'datasetProfile', { timestampMillis: NOW - days * DAY, rowCount: days })),
        // An older profile of one partition: the partition filter must find it behind the newer full-table ones.
        mcp(URN, 'datasetProfile', { timestampMillis: NOW - 10 * DAY, rowCount: 99, partitionSpec: { partition: '2026-01-01', type: 'PARTITION' } }),
      );
      return { urn: URN, missing: MISSING, decommissionTime: DECOMMISSION };
    });

    it('reads the latest version with get_aspect, and version 1 as the oldest', () => {
      assert.deepEqual(run.result.latest, { customProperties: {}, name: 'second', description: 'Customers', tags: [] });
      assert.deepEqual(run.result.oldest, { customProperties: {}, name: 'first', tags: [] });
    });

    it('answers get_aspect with None for an aspect never written and for a missing entity', () => {
      assert.equal(run.result.neverWritten, null);
      assert.equal(run.result.missingEntity, null);
    });

    it('reads ownership and tags with get_ownership and get_tags', () => {
      assert.deepEqual(run.result.ownership.owners, [{ owner: 'urn:li:corpuser:jdoe', type: 'TECHNICAL_OWNER' }]);
      assert.deepEqual(run.result.ownership.lastModified, { time: NOW, actor: ADMIN });
      assert.deepEqual(run.result.tags, { tags: [{ tag: 'urn:li:tag:pii' }] });
    });

    it('tells an existing entity from a missing one with exists', () => {
      assert.deepEqual(run.result.exists, [true, false]);
    });

    it('reads timeseries values newest first, within the limit, and the latest value alone', () => {
      assert.deepEqual(run.result.profiles, [1, 2]);
      assert.equal(run.result.latestProfile.rowCount, 1);
      assert.equal(run.result.latestProfile.timestampMillis, NOW - DAY);
      assert.deepEqual(run.result.noProfiles, []);
    });

    it('reads the run.server config through get_config', () => {
      assert.deepEqual(run.result.config, { noCode: 'true' });
    });

    it('deprecates a dataset with execute_graphql, and the run.server stores who and when', async () => {
      assert.deepEqual(run.result.deprecationBefore, {
        dataset: { deprecation: { deprecated: false, note: null, decommissionTime: null, actor: null } },
      });
      assert.deepEqual(run.result.update, { updateDeprecation: true });
      const after = { deprecated: true, note: 'Use orders_v2', decommissionTime: DECOMMISSION, actor: ADMIN };
      assert.deepEqual(run.result.deprecationAfter, { dataset: { deprecation: after } });
      assert.deepEqual(await storedAspect(run.server, URN, 'deprecation'), after);
    });

    it('reads the whole entity with get_entity_semityped (GET /entitiesV2), key aspect included', () => {
      const aspects = run.result.semityped;
      assert.deepEqual(Object.keys(aspects).sort(), ['datasetKey', 'datasetProperties', 'deprecation', 'globalTags', 'ownership', 'status']);
      assert.deepEqual(aspects.datasetKey, { platform: 'urn:li:dataPlatform:hive', name: 'sdk.customers', origin: 'PROD' });
      assert.deepEqual(aspects.globalTags, { tags: [{ tag: 'urn:li:tag:pii' }] });
      // As DataHub: a never-written entity answers its key aspect alone.
      assert.deepEqual(run.result.semitypedMissing, ['datasetKey']);
    });

    it('reads named aspects with get_aspects_for_entity, None for one never written', () => {
      assert.deepEqual(run.result.aspectsForEntity, {
        status: { removed: false },
        globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
        schemaMetadata: null,
      });
    });

    it("reads one partition's latest profile with get_latest_timeseries_value and a partition filter", () => {
      assert.equal(run.result.partitionLatest.rowCount, 99);
      assert.equal(run.result.partitionLatest.partitionSpec.partition, '2026-01-01');
    });

    it("raises GraphError with the run.server's message for a deprecation of a missing entity", () => {
      assert.match(
        run.result.updateMissing,
        /Failed to update deprecation for Entity urn:li:dataset:\(urn:li:dataPlatform:hive,sdk\.nowhere,PROD\)\. Entity does not exist\./,
      );
    });
  });
}
