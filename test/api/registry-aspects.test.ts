import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

// Aspects and entities of DataHub's registry that Almanac stores without interpreting them, as `datahub ingest`
// sends them: lineage, editable properties, tags, the run report and the stateful-ingestion checkpoint.

const enc = encodeURIComponent;
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.registry,PROD)';
const UPSTREAM = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.upstream,PROD)';
const TAG = 'urn:li:tag:pii';
const SOURCE = 'urn:li:dataHubIngestionSource:cli-2f1c0b6e9d3a4c5b8e7f';
const RUN = 'urn:li:dataHubExecutionRequest:file-2026_07_23-10_00_00-ab12cd';
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(datahub,file_registry_pipeline,prod),file_registry_pipeline_stale_entity_removal)';
const T = 1_784_800_000_000;

/** Values with keys in no particular order, nesting, nulls, unicode and fields no schema Almanac has names. */
const lineage = {
  upstreams: [{ type: 'TRANSFORMED', dataset: UPSTREAM, auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, query: 'urn:li:query:q1' }],
  fineGrainedLineages: [
    {
      upstreamType: 'FIELD_SET',
      upstreams: [`urn:li:schemaField:(${UPSTREAM},id)`],
      downstreamType: 'FIELD',
      downstreams: [`urn:li:schemaField:(${DATASET},id)`],
      confidenceScore: 1.0,
      transformOperation: null,
    },
  ],
};
const editable = {
  description: 'Kundendaten — bereinigt',
  created: { time: T, actor: 'urn:li:corpuser:alice' },
  lastModified: { time: T, actor: 'urn:li:corpuser:alice' },
  name: 'registry',
};
const tagProperties = { name: 'pii', description: 'Personal data', colorHex: '#d0021b' };
const sourceInfo = {
  name: '[CLI] file',
  type: 'file',
  platform: 'urn:li:dataPlatform:file',
  config: { recipe: '{"source": {"type": "file"}}', version: '1.7.0.17', executorId: '__datahub_cli_' },
};
const runInput = {
  task: 'RUN_INGEST',
  args: { recipe: '{"source": {"type": "file"}}', version: '1.7.0.17' },
  executorId: '__datahub_cli_',
  requestedAt: T,
  source: { type: 'CLI_INGESTION_SOURCE', ingestionSource: SOURCE },
};
const runResult = {
  status: 'SUCCESS',
  startTimeMs: T,
  durationMs: 1234,
  report: '~~~~ Ingestion Report ~~~~\n{\n  "source": {}\n}\n',
  structuredReport: { type: 'CLI_INGEST', serializedValue: '{"source": {}}', contentType: 'application/json' },
};
const checkpoint = {
  timestampMillis: T,
  pipelineName: 'file_registry_pipeline',
  platformInstanceId: '',
  config: '',
  state: { formatVersion: '1.0', serde: 'base85-bz2-json', payload: 'LRx4!F+o`-Q(4)<4JN' },
  runId: 'file-2026_07_23-10_00_00-ab12cd',
};

for (const backend of await backends()) {
  describe(`registry aspects over the API: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    /** Sends proposals the way the Python REST emitter does, the aspect serialized into a string. */
    const ingest = async (...proposals: Array<ReturnType<typeof mcp>>) => {
      const res = await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals, async: 'false' } });
      assert.equal(res.status, 200, res.text);
    };

    /** Reads version 0 of an aspect and checks it comes back as sent; returns the response text. */
    const assertStoredAsSent = async (urn: string, aspect: string, pegasusClass: string, value: unknown) => {
      const res = await server.request('GET', `/aspects/${enc(urn)}?aspect=${aspect}&version=0`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.aspect, { [pegasusClass]: value });
      return res.text;
    };

    const snapshotOf = async (urn: string) => {
      const res = await server.request('GET', `/entities/${enc(urn)}`);
      assert.equal(res.status, 200, res.text);
      return res;
    };

    it('stores upstreamLineage and editableDatasetProperties of a dataset as sent', async () => {
      await ingest(mcp(DATASET, 'upstreamLineage', lineage), mcp(DATASET, 'editableDatasetProperties', editable));
      await assertStoredAsSent(DATASET, 'upstreamLineage', 'com.linkedin.dataset.UpstreamLineage', lineage);
      await assertStoredAsSent(DATASET, 'editableDatasetProperties', 'com.linkedin.dataset.EditableDatasetProperties', editable);
      const res = await snapshotOf(DATASET);
      assert.deepEqual(res.json.value['com.linkedin.metadata.snapshot.DatasetSnapshot'].aspects, [
        { 'com.linkedin.metadata.key.DatasetKey': { platform: 'urn:li:dataPlatform:hive', name: 'db.registry', origin: 'PROD' } },
        { 'com.linkedin.dataset.EditableDatasetProperties': editable },
        { 'com.linkedin.dataset.UpstreamLineage': lineage },
      ]);
    });

    // PostgreSQL keeps versioned aspects in jsonb, which stores an object's keys in its own order (shorter first).
    const jsonb = backend.name === 'postgres' ? 'PostgreSQL stores versioned aspects as jsonb, which reorders keys' : false;
    it('returns an aspect it does not interpret byte for byte, key order included', { skip: jsonb }, async () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.bytes,PROD)';
      await ingest(mcp(urn, 'upstreamLineage', lineage), mcp(urn, 'editableDatasetProperties', editable));
      const text = await assertStoredAsSent(urn, 'upstreamLineage', 'com.linkedin.dataset.UpstreamLineage', lineage);
      assert.ok(text.includes(`"aspect":{"com.linkedin.dataset.UpstreamLineage":${JSON.stringify(lineage)}}`), text);
      const snapshot = await snapshotOf(urn);
      assert.ok(snapshot.text.includes(`{"com.linkedin.dataset.EditableDatasetProperties":${JSON.stringify(editable)}}`), snapshot.text);
    });

    it('creates a tag entity with its key from the urn', async () => {
      await ingest(mcp(TAG, 'tagProperties', tagProperties, 'tag'));
      await assertStoredAsSent(TAG, 'tagProperties', 'com.linkedin.tag.TagProperties', tagProperties);
      const res = await snapshotOf(TAG);
      assert.deepEqual(res.json.value, {
        'com.linkedin.metadata.snapshot.TagSnapshot': {
          urn: TAG,
          aspects: [{ 'com.linkedin.metadata.key.TagKey': { name: 'pii' } }, { 'com.linkedin.tag.TagProperties': tagProperties }],
        },
      });
    });

    it('stores the run report every datahub ingest sends', async () => {
      await ingest(mcp(SOURCE, 'dataHubIngestionSourceInfo', sourceInfo, 'dataHubIngestionSource'));
      await ingest(mcp(RUN, 'dataHubExecutionRequestInput', runInput, 'dataHubExecutionRequest'));
      await ingest(mcp(RUN, 'dataHubExecutionRequestResult', runResult, 'dataHubExecutionRequest'));
      await assertStoredAsSent(SOURCE, 'dataHubIngestionSourceInfo', 'com.linkedin.ingestion.DataHubIngestionSourceInfo', sourceInfo);
      await assertStoredAsSent(RUN, 'dataHubExecutionRequestInput', 'com.linkedin.execution.ExecutionRequestInput', runInput);
      await assertStoredAsSent(RUN, 'dataHubExecutionRequestResult', 'com.linkedin.execution.ExecutionRequestResult', runResult);
      const res = await snapshotOf(RUN);
      const [snapshot] = Object.values(res.json.value) as Array<{ aspects: unknown[] }>;
      assert.deepEqual(snapshot!.aspects, [
        { 'com.linkedin.execution.ExecutionRequestInput': runInput },
        { 'com.linkedin.metadata.key.ExecutionRequestKey': { id: 'file-2026_07_23-10_00_00-ab12cd' } },
        { 'com.linkedin.execution.ExecutionRequestResult': runResult },
      ]);
    });

    it('stores the stateful-ingestion checkpoint of a dataJob as a timeseries aspect', async () => {
      // The checkpointing provider soft-deletes the job first, then writes the checkpoint.
      const status = { removed: true, lifecycleLastUpdated: { time: T, actor: 'urn:li:corpuser:__datahub_system' } };
      await ingest(mcp(JOB, 'status', status, 'dataJob'), mcp(JOB, 'datahubIngestionCheckpoint', checkpoint, 'dataJob'));
      const res = await server.request('POST', '/aspects?action=getTimeseriesAspectValues', {
        body: { urn: JOB, entity: 'dataJob', aspect: 'datahubIngestionCheckpoint', latestValue: true },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.json.value.values.map((v: { aspect: { value: string } }) => v.aspect.value),
        [JSON.stringify(checkpoint)],
      );
      const sizes = await server.request('POST', '/operations?action=getIndexSizes', { body: {} });
      const index = sizes.json.value.indexSizes.find((s: { indexName: string }) => s.indexName === 'datajob_datahubingestioncheckpointaspect_v1');
      assert.equal(index.rowCount, 1);
    });

    it('refuses what DataHub does not know, naming it, and a value that is not an object', async () => {
      const refused = async (proposal: ReturnType<typeof mcp>, status: number, message: string) => {
        const res = await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal } });
        assert.equal(res.status, status, res.text);
        assert.match(res.json.message, new RegExp(message));
      };
      await refused(mcp(DATASET, 'notAnAspect', {}), 400, 'Unknown aspect notAnAspect for entity dataset');
      await refused(mcp(TAG, 'upstreamLineage', lineage, 'tag'), 400, 'Unknown aspect upstreamLineage for entity tag');
      await refused(
        mcp('urn:li:spaceship:x', 'status', { removed: false }, 'spaceship'),
        400,
        'Failed to find entity with name spaceship in EntityRegistry',
      );
      await refused(
        mcp(DATASET, 'upstreamLineage', ['not', 'an', 'object']),
        422,
        'Aspect upstreamLineage is invalid: expected object, received array',
      );
      await refused(
        mcp(JOB, 'datahubIngestionCheckpoint', { pipelineName: 'p' }, 'dataJob'),
        422,
        'Input timeseries aspect does not contain a timestampMillis field',
      );
    });
  });
}
