import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const PATH = '/openapi/openlineage/api/v1/lineage';
const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/client/python';
const enc = encodeURIComponent;

const pg = (table: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,${table},PROD)`;

/** A run event of job `etl.<job>` in namespace `warehouse`, reading two postgres tables and writing one. */
function runEvent(job: string, runId: string, eventType: string, extra: Record<string, unknown> = {}) {
  return {
    eventType,
    eventTime: new Date().toISOString(),
    producer: PRODUCER,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId, facets: {} },
    job: { namespace: 'warehouse', name: `etl.${job}`, facets: { documentation: { description: 'joins orders and users' } } },
    inputs: [
      {
        namespace: 'postgres://db:5432',
        name: `${job}.orders`,
        facets: {
          schema: {
            fields: [
              { name: 'id', type: 'int' },
              { name: 'user_id', type: 'int' },
            ],
          },
        },
      },
      {
        namespace: 'postgres://db:5432',
        name: `${job}.users`,
        facets: {
          schema: {
            fields: [
              { name: 'id', type: 'int' },
              { name: 'name', type: 'string' },
            ],
          },
        },
      },
    ],
    outputs: [
      {
        namespace: 'postgres://db:5432',
        name: `${job}.report`,
        facets: {
          schema: {
            fields: [
              { name: 'order_id', type: 'long' },
              { name: 'user_name', type: 'string' },
            ],
          },
          columnLineage: {
            fields: {
              order_id: { inputFields: [{ namespace: 'postgres://db:5432', name: `${job}.orders`, field: 'id' }] },
              user_name: {
                inputFields: [
                  {
                    namespace: 'postgres://db:5432',
                    name: `${job}.users`,
                    field: 'name',
                    transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }],
                  },
                ],
              },
            },
          },
        },
      },
    ],
    ...extra,
  };
}

for (const backend of await backends()) {
  describe(`OpenLineage endpoint: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    const aspect = async (urn: string, name: string) => {
      const res = await server.request('GET', `/aspects/${enc(urn)}?aspect=${name}&version=0`);
      return res.status === 200 ? (Object.values(res.json.aspect)[0] as Record<string, any>) : undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const exists = async (urn: string) => (await server.request('POST', '/entities?action=exists', { body: { urn } })).json.value as boolean;
    const runEvents = async (urn: string) => {
      const res = await server.request('POST', '/aspects?action=getTimeseriesAspectValues', {
        body: { urn, entity: 'dataProcessInstance', aspect: 'dataProcessInstanceRunEvent' },
      });
      return (res.json.value.values as { aspect: { value: string } }[]).map((v) => JSON.parse(v.aspect.value));
    };

    it('maps a run event to a data flow, a data job with its inputs and outputs, the datasets and the run', async () => {
      const runId = randomUUID();
      const start = await server.request('POST', PATH, { body: runEvent('mapped', runId, 'START') });
      assert.equal(start.status, 202, start.text);
      assert.equal(start.text, '');
      assert.match(start.headers.get('traceparent') ?? '', /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const complete = runEvent('mapped', runId, 'COMPLETE');
      assert.equal((await server.request('POST', PATH, { body: complete })).status, 202);

      const flow = 'urn:li:dataFlow:(python,etl,warehouse)';
      const job = `urn:li:dataJob:(${flow},etl.mapped)`;
      assert.deepEqual(await aspect(flow, 'dataFlowInfo'), { name: 'etl', customProperties: {}, description: 'joins orders and users' });
      const info = await aspect(job, 'dataJobInfo');
      assert.equal(info?.name, 'mapped');
      assert.equal(info?.flowUrn, flow);
      assert.deepEqual(info?.type, { string: 'python' });
      const io = await aspect(job, 'dataJobInputOutput');
      assert.deepEqual(
        io?.inputDatasetEdges.map((e: { destinationUrn: string }) => e.destinationUrn),
        [pg('mapped.orders'), pg('mapped.users')],
      );
      assert.deepEqual(
        io?.outputDatasetEdges.map((e: { destinationUrn: string }) => e.destinationUrn),
        [pg('mapped.report')],
      );
      assert.equal(io?.outputDatasetEdges[0].lastModified.time, Date.parse(complete.eventTime));
      assert.deepEqual(io?.fineGrainedLineages, [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [`urn:li:schemaField:(${pg('mapped.orders')},id)`],
          downstreamType: 'FIELD_SET',
          downstreams: [`urn:li:schemaField:(${pg('mapped.report')},order_id)`],
          transformOperation: '',
          confidenceScore: 0.5,
        },
        {
          upstreamType: 'FIELD_SET',
          upstreams: [`urn:li:schemaField:(${pg('mapped.users')},name)`],
          downstreamType: 'FIELD_SET',
          downstreams: [`urn:li:schemaField:(${pg('mapped.report')},user_name)`],
          transformOperation: 'DIRECT:IDENTITY',
          confidenceScore: 0.5,
        },
      ]);

      const schema = await aspect(pg('mapped.report'), 'schemaMetadata');
      assert.equal(schema?.platform, 'urn:li:dataPlatform:postgres');
      assert.deepEqual(
        schema?.fields.map((f: { fieldPath: string; nativeDataType: string; type: unknown }) => [f.fieldPath, f.nativeDataType, f.type]),
        [
          ['order_id', 'long', { type: { 'com.linkedin.schema.NumberType': {} } }],
          ['user_name', 'string', { type: { 'com.linkedin.schema.StringType': {} } }],
        ],
      );
      assert.deepEqual(await aspect(pg('mapped.orders'), 'status'), { removed: false });

      const dpi = `urn:li:dataProcessInstance:${runId}`;
      assert.deepEqual(await aspect(dpi, 'dataProcessInstanceRelationships'), { parentTemplate: job, upstreamInstances: [] });
      assert.equal((await aspect(dpi, 'dataProcessInstanceProperties'))?.name, runId);
      assert.deepEqual((await aspect(dpi, 'dataProcessInstanceInput'))?.inputs, [pg('mapped.orders'), pg('mapped.users')]);
      assert.deepEqual((await aspect(dpi, 'dataProcessInstanceOutput'))?.outputs, [pg('mapped.report')]);
      assert.deepEqual(
        (await runEvents(dpi)).map((e) => [e.status, e.result?.type]),
        [
          ['COMPLETE', 'SUCCESS'],
          ['STARTED', undefined],
        ],
      );
    });

    it("records FAIL and ABORT as a completed run with DataHub's FAILURE result, at /api/v1/lineage too", async () => {
      const failed = randomUUID();
      const aborted = randomUUID();
      assert.equal((await server.request('POST', '/api/v1/lineage', { body: runEvent('failing', failed, 'FAIL') })).status, 202);
      assert.equal((await server.request('POST', PATH, { body: runEvent('failing', aborted, 'ABORT') })).status, 202);
      assert.deepEqual(
        (await runEvents(`urn:li:dataProcessInstance:${failed}`)).map((e) => [e.status, e.result]),
        [['COMPLETE', { type: 'FAILURE', nativeResultType: 'FAIL' }]],
      );
      assert.deepEqual(
        (await runEvents(`urn:li:dataProcessInstance:${aborted}`)).map((e) => [e.status, e.result]),
        [['COMPLETE', { type: 'FAILURE', nativeResultType: 'ABORT' }]],
      );
    });

    it('takes the orchestrator from a processing_engine facet and file-system paths as DataHub names them', async () => {
      const runId = randomUUID();
      const event = {
        ...runEvent('fs', runId, 'RUNNING'),
        run: { runId, facets: { processing_engine: { name: 'Spark', version: '3.5.1' } } },
        inputs: [{ namespace: 's3a://lake', name: '/raw/events/' }],
        outputs: [{ namespace: 'file', name: '/tmp/out.csv' }],
      };
      assert.equal((await server.request('POST', PATH, { body: event })).status, 202);
      const job = 'urn:li:dataJob:(urn:li:dataFlow:(spark,etl,warehouse),etl.fs)';
      assert.deepEqual((await aspect(job, 'dataJobInfo'))?.customProperties, { processingEngine: 'Spark', processingEngineVersion: '3.5.1' });
      assert.deepEqual(await aspect(`urn:li:dataProcessInstance:${runId}`, 'dataProcessInstanceInput'), {
        inputs: ['urn:li:dataset:(urn:li:dataPlatform:s3,lake/raw/events,PROD)'],
      });
      assert.ok(await exists('urn:li:dataset:(urn:li:dataPlatform:file,/tmp/out.csv,PROD)'));
    });

    it('maps a job event to the flow and job without a run, and a dataset event to the dataset', async () => {
      const { run: _run, eventType: _type, ...jobEvent } = runEvent('jobonly', randomUUID(), 'START');
      assert.equal((await server.request('POST', PATH, { body: jobEvent })).status, 202);
      const job = 'urn:li:dataJob:(urn:li:dataFlow:(python,etl,warehouse),etl.jobonly)';
      assert.equal((await aspect(job, 'dataJobInputOutput'))?.outputDatasetEdges[0].destinationUrn, pg('jobonly.report'));

      const datasetEvent = {
        eventTime: new Date().toISOString(),
        producer: PRODUCER,
        schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
        dataset: {
          namespace: 'bigquery',
          name: 'proj.ds.catalogued',
          facets: { schema: { fields: [{ name: 'a', type: 'timestamp' }] }, documentation: { description: 'catalogued without a run' } },
        },
      };
      assert.equal((await server.request('POST', PATH, { body: datasetEvent })).status, 202);
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:bigquery,proj.ds.catalogued,PROD)';
      assert.equal((await aspect(urn, 'datasetProperties'))?.description, 'catalogued without a run');
      assert.deepEqual((await aspect(urn, 'schemaMetadata'))?.fields[0].type, { type: { 'com.linkedin.schema.TimeType': {} } });
    });

    const refusals: [string, (e: Record<string, unknown>) => unknown, RegExp][] = [
      ['a missing eventTime', ({ eventTime: _t, ...e }) => e, /'eventTime' is required/],
      ['an eventTime that is no date-time', (e) => ({ ...e, eventTime: 'yesterday' }), /'eventTime' must be an ISO 8601 date-time/],
      ['an unknown eventType', (e) => ({ ...e, eventType: 'FINISHED' }), /'eventType' must be one of START, RUNNING, COMPLETE, FAIL, ABORT, OTHER/],
      ['a runId that is not a UUID', (e) => ({ ...e, run: { runId: 'run-1' } }), /'run.runId' must be a UUID/],
      ['a job without a namespace', (e) => ({ ...e, job: { name: 'etl.bad' } }), /'job.namespace' is required/],
      ['a job without a name', (e) => ({ ...e, job: { namespace: 'warehouse' } }), /'job.name' is required/],
      ['inputs that are not an array', (e) => ({ ...e, inputs: { namespace: 'x', name: 'y' } }), /'inputs' must be an array/],
      [
        'a schema field type that is not a string',
        (e) => ({ ...e, outputs: [{ namespace: 'hive', name: 'x', facets: { schema: { fields: [{ name: 'a', type: 5 }] } } }] }),
        /'outputs\[0\].facets.schema.fields\[0\].type' must be a string/,
      ],
      ['a producer that is not a string', (e) => ({ ...e, producer: 42 }), /'producer' must be a string/],
    ];
    for (const [what, change, message] of refusals) {
      it(`refuses ${what} with 400 naming the field, and writes nothing`, async () => {
        const runId = randomUUID();
        const res = await server.request('POST', PATH, { body: change(runEvent('refused', runId, 'START')) });
        assert.equal(res.status, 400, res.text);
        assert.match(res.text, message);
        assert.equal(await exists('urn:li:dataJob:(urn:li:dataFlow:(python,etl,warehouse),etl.refused)'), false);
        assert.equal(await exists(pg('refused.orders')), false);
      });
    }

    it('refuses a query parameter, which it would otherwise ignore, with 400', async () => {
      const res = await server.request('POST', `${PATH}?async=false`, { body: runEvent('queried', randomUUID(), 'START') });
      assert.equal(res.status, 400);
      assert.match(res.json.message, /Unknown query parameter 'async'/);
      assert.equal(await exists(pg('queried.report')), false);
    });

    it('refuses malformed JSON with 400', async () => {
      const res = await server.request('POST', PATH, { rawBody: '{"eventType": "START",', headers: { 'Content-Type': 'application/json' } });
      assert.equal(res.status, 400);
      assert.match(res.text, /not valid JSON/);
    });

    it('refuses a writer without EDIT_ENTITY with 403, and writes nothing', async () => {
      const reader = await actorWithRole(server, 'ol-reader', 'Reader');
      const res = await server.request('POST', PATH, { body: runEvent('forbidden', randomUUID(), 'START'), auth: reader });
      assert.equal(res.status, 403, res.text);
      assert.equal(await exists(pg('forbidden.report')), false);
      assert.equal((await server.request('POST', PATH, { body: runEvent('forbidden', randomUUID(), 'START'), auth: null })).status, 401);
    });
  });

  describe(`OpenLineage endpoint body limit: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(
      backend,
      (s) => {
        server = s;
      },
      { ALMANAC_MAX_BODY_BYTES: '4096' },
    );

    it('refuses a body over ALMANAC_MAX_BODY_BYTES with 413, and writes nothing', async () => {
      const event = runEvent('huge', randomUUID(), 'START', { padding: 'x'.repeat(5000) });
      const res = await server.request('POST', PATH, { body: event });
      assert.equal(res.status, 413, res.text);
      const exists = await server.request('POST', '/entities?action=exists', { body: { urn: pg('huge.report') } });
      assert.deepEqual(exists.json, { value: false });
    });
  });
}
