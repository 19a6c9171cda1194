import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pkg from '../../package.json' with { type: 'json' };
import { DATAHUB_REGISTRY } from '../../src/catalog/registry/index.ts';
import { backends } from '../support/databases.ts';
import { mcp as baseMcp } from '../support/fixtures.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';
const enc = encodeURIComponent;

/** The Python REST emitter's exact request headers. */
const EMITTER_HEADERS = {
  'X-RestLi-Protocol-Version': '2.0.0',
  'Content-Type': 'application/json',
  'User-Agent': 'DataHub-Client/1.0 (rest; cli/test; 0.14.0)',
  'X-DataHub-Client-Mode': 'CLI',
  'X-DataHub-Py-Cli-Version': '0.14.0',
};

const mcp = (urn: string, aspectName: string, value: unknown, entityType = 'dataset') => ({
  ...baseMcp(urn, aspectName, value, entityType),
  systemMetadata: { lastObserved: 1700000000000, runId: 'no-run-id-provided' },
});

for (const backend of await backends()) {
  describe(`ingestion API: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    const emit = (action: string, body: unknown) => server.request('POST', `/aspects?action=${action}`, { body, headers: EMITTER_HEADERS });
    useServer(backend, (s) => {
      server = s;
    });

    it('answers /config with noCode "true" without a token', async () => {
      const res = await server.request('GET', '/config', { auth: null });
      assert.equal(res.status, 200);
      assert.equal(res.json.noCode, 'true');
      // The DataHub release whose API Almanac implements (the registry's acryl-datahub), and Almanac's own.
      assert.deepEqual(res.json.versions, {
        'acryldata/datahub': { version: `v${DATAHUB_REGISTRY.source.version}`, commit: `almanac-${pkg.version}` },
        almanac: { version: pkg.version },
      });
      assert.deepEqual(res.json.managedIngestion, { enabled: false, defaultCliVersion: DATAHUB_REGISTRY.source.version });
      assert.deepEqual(res.json.datahub, { serverType: 'almanac', serverEnv: 'core' });
      assert.equal(res.json.datasetUrnNameCasing, false);
      assert.deepEqual(res.json.telemetry, { enabledCli: false, enabledIngestion: false });
    });

    it('answers /health without a token', async () => {
      assert.equal((await server.request('GET', '/health', { auth: null })).status, 200);
    });

    it('accepts a profile for an entity that has nothing else yet, which then exists with its key aspect, as in DataHub', async () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.profiled_first,PROD)';
      const res = await emit('ingestProposal', {
        proposal: mcp(urn, 'datasetProfile', { timestampMillis: 1767225600000, rowCount: 5 }),
        async: 'false',
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn } })).json, { value: true });
      const key = await server.request('GET', `/aspects/${enc(urn)}?aspect=datasetKey&version=0`);
      assert.deepEqual(key.json.aspect, {
        'com.linkedin.metadata.key.DatasetKey': { platform: 'urn:li:dataPlatform:hive', name: 'db.profiled_first', origin: 'PROD' },
      });
      const values = await emit('getTimeseriesAspectValues', { urn, entity: 'dataset', aspect: 'datasetProfile' });
      assert.equal(JSON.parse(values.json.value.values[0].aspect.value).rowCount, 5);
    });

    it("accepts the emitter's exact ingestProposal request", async () => {
      const body = {
        proposal: {
          entityType: 'dataset',
          entityUrn: URN,
          changeType: 'UPSERT',
          aspectName: 'status',
          aspect: { value: '{"removed": false}', contentType: 'application/json' },
          systemMetadata: { lastObserved: 1700000000000, runId: 'no-run-id-provided' },
        },
        async: 'false',
      };
      const res = await emit('ingestProposal', body);
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { value: 'success' });
      const exists = await server.request('POST', '/entities?action=exists', { body: { urn: URN } });
      assert.deepEqual(exists.json, { value: true });
    });

    it('returns the snapshot form, including the key aspect created on first write', async () => {
      const res = await server.request('GET', `/entities/${enc(URN)}`);
      assert.equal(res.status, 200);
      const snapshot = res.json.value['com.linkedin.metadata.snapshot.DatasetSnapshot'];
      assert.equal(snapshot.urn, URN);
      assert.deepEqual(snapshot.aspects, [
        { 'com.linkedin.metadata.key.DatasetKey': { platform: 'urn:li:dataPlatform:hive', name: 'db.t', origin: 'PROD' } },
        { 'com.linkedin.common.Status': { removed: false } },
      ]);
    });

    it('reaches the same handlers through /api/gms', async () => {
      const res = await server.request('POST', '/api/gms/entities?action=exists', { body: { urn: URN } });
      assert.deepEqual(res.json, { value: true });
    });

    it('keeps earlier versions and serves them by version number', async () => {
      const props = (description: string) => mcp(URN, 'datasetProperties', { name: 't', description });
      assert.equal((await emit('ingestProposal', { proposal: props('first') })).status, 200);
      assert.equal((await emit('ingestProposal', { proposal: props('second') })).status, 200);
      const latest = await server.request('GET', `/aspects/${enc(URN)}?aspect=datasetProperties&version=0`);
      assert.equal(latest.json.aspect['com.linkedin.dataset.DatasetProperties'].description, 'second');
      assert.equal(latest.json.created.actor, 'urn:li:corpuser:datahub');
      const v1 = await server.request('GET', `/aspects/${enc(URN)}?aspect=datasetProperties&version=1`);
      assert.equal(v1.status, 200);
      assert.equal(v1.json.aspect['com.linkedin.dataset.DatasetProperties'].description, 'first');
      const v2 = await server.request('GET', `/aspects/${enc(URN)}?aspect=datasetProperties&version=2`);
      assert.equal(v2.status, 404);
    });

    it('ingests a batch of timeseries events and reads them newest first, overwriting a re-ingested event', async () => {
      const profiles = [1, 2, 3].map((d) =>
        mcp(URN, 'datasetProfile', { timestampMillis: Date.UTC(2026, 0, d), rowCount: d * 100, messageId: `m${d}` }),
      );
      assert.deepEqual((await emit('ingestProposalBatch', { proposals: profiles, async: 'false' })).json, { value: 'success' });
      const again = mcp(URN, 'datasetProfile', { timestampMillis: Date.UTC(2026, 0, 3), rowCount: 999, messageId: 'm3' });
      assert.equal((await emit('ingestProposal', { proposal: again })).status, 200);

      const res = await emit('getTimeseriesAspectValues', { urn: URN, entity: 'dataset', aspect: 'datasetProfile' });
      assert.equal(res.status, 200);
      const rows = res.json.value.values.map((v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).rowCount);
      assert.deepEqual(rows, [999, 200, 100]);
      assert.equal(res.json.value.values[0].aspect.contentType, 'application/json');

      const ranged = await emit('getTimeseriesAspectValues', {
        urn: URN,
        entity: 'dataset',
        aspect: 'datasetProfile',
        startTimeMillis: Date.UTC(2026, 0, 2),
        endTimeMillis: Date.UTC(2026, 0, 2),
        limit: 5,
      });
      assert.equal(ranged.json.value.values.length, 1);
      const latest = await emit('getTimeseriesAspectValues', { urn: URN, entity: 'dataset', aspect: 'datasetProfile', latestValue: true });
      assert.equal(latest.json.value.values.length, 1);
    });

    it('takes the snapshot form through /entities?action=ingest', async () => {
      const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.snap,PROD)';
      const res = await server.request('POST', '/entities?action=ingest', {
        body: {
          entity: {
            value: {
              'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: other, aspects: [{ 'com.linkedin.common.Status': { removed: false } }] },
            },
          },
          systemMetadata: { runId: 'r1', lastObserved: 1 },
        },
      });
      assert.equal(res.status, 200);
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn: other } })).json, { value: true });
    });

    it('serves the OpenAPI v3 entity endpoints and their document', async () => {
      const other = 'urn:li:dataset:(urn:li:dataPlatform:test,profilesGraphqlDataset0,PROD)';
      const created = await server.request('POST', '/openapi/v3/entity/dataset?async=false', {
        body: [{ urn: other, status: { value: { removed: false }, systemMetadata: null } }],
      });
      assert.equal(created.status, 200);
      assert.deepEqual(created.json[0].status.value, { removed: false });
      const profile = await server.request('POST', `/openapi/v3/entity/dataset/${enc(other)}/datasetProfile?createIfNotExists=false&async=false`, {
        body: { value: { timestampMillis: Date.UTC(2026, 1, 1), rowCount: 300, columnCount: 5, messageId: `${other}-day0` } },
      });
      assert.equal(profile.status, 200);
      const read = await server.request('GET', `/openapi/v3/entity/dataset/${enc(other)}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.json.status.value, { removed: false });
      assert.equal((await server.request('DELETE', `/openapi/v3/entity/dataset/${enc(other)}`)).status, 200);
      assert.equal((await server.request('GET', `/openapi/v3/entity/dataset/${enc(other)}`)).status, 404);
      const doc = await server.request('GET', '/openapi/v3/api-docs', { auth: null });
      assert.equal(doc.json.openapi, '3.0.3');
      assert.ok(doc.json.paths['/openapi/v3/entity/{entityType}/{urn}']);
    });

    it('deletes an entity with its aspects and timeseries rows', async () => {
      const res = await server.request('POST', '/entities?action=delete', { body: { urn: URN } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json.value, { urn: URN, rows: 4, timeseriesRows: 3 });
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn: URN } })).json, { value: false });
      assert.equal((await server.request('GET', `/entities/${enc(URN)}`)).status, 404);
      const values = await emit('getTimeseriesAspectValues', { urn: URN, entity: 'dataset', aspect: 'datasetProfile' });
      assert.deepEqual(values.json.value.values, []);
    });
  });
}
