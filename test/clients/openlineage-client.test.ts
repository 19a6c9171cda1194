import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';

const dataset = (table: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.${table},PROD)`;
const field = (table: string, column: string) => `urn:li:schemaField:(${dataset(table)},${column})`;
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(python,reports,nightly),reports.order_report)';

for (const backend of await clientBackends()) {
  describe(`OpenLineage's Python client over its HTTP transport: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'openlineage_client.py', () => ({}));

    it('the job reads the two datasets and writes the third, with its column lineage, read back through DataHubGraph', () => {
      assert.deepEqual(run.result.inputs, [dataset('orders'), dataset('users')]);
      assert.deepEqual(run.result.outputs, [dataset('order_report')]);
      assert.deepEqual(run.result.columns, [
        [[field('orders', 'id')], [field('order_report', 'order_id')], 'DIRECT:IDENTITY'],
        [[field('users', 'name')], [field('order_report', 'user_name')], 'DIRECT:IDENTITY'],
      ]);
      assert.deepEqual(run.result.schema, [
        ['order_id', 'long'],
        ['user_name', 'string'],
      ]);
    });

    it('the output dataset has the job and both inputs upstream in GraphQL lineage search', () => {
      const urns = run.result.upstream.map((r: [string, string, number]) => [r[0], r[1]]);
      assert.deepEqual(urns, [
        [JOB, 'DATA_JOB'],
        [dataset('orders'), 'DATASET'],
        [dataset('users'), 'DATASET'],
      ]);
    });

    it('the first run started then completed with success, the second started then failed', () => {
      assert.deepEqual(run.result.succeeded, [
        ['STARTED', null],
        ['COMPLETE', 'SUCCESS'],
      ]);
      assert.deepEqual(run.result.failed, [
        ['STARTED', null],
        ['COMPLETE', 'FAILURE'],
      ]);
    });

    it('GraphQL lists both runs of the job, each named by its run id and pointing at the job', () => {
      const { succeeded, failed } = run.result.runIds;
      assert.equal(run.result.jobName, 'order_report');
      assert.deepEqual(
        run.result.runs,
        [
          [`urn:li:dataProcessInstance:${failed}`, failed, JOB],
          [`urn:li:dataProcessInstance:${succeeded}`, succeeded, JOB],
        ].sort(),
      );
    });
  });
}
