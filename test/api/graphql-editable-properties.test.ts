import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const UNAUTHORIZED = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' };
const CHART = 'urn:li:chart:(looker,editable_chart)';
const DASHBOARD = 'urn:li:dashboard:(looker,editable_dash)';
const FLOW = 'urn:li:dataFlow:(airflow,editable_flow,prod)';
const JOB = `urn:li:dataJob:(${FLOW},load)`;
const stamps = { created: { time: 0, actor: 'urn:li:corpuser:datahub' }, lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' } };
const CASES = [
  ['Chart', 'chart', CHART, 'editableChartProperties'],
  ['Dashboard', 'dashboard', DASHBOARD, 'editableDashboardProperties'],
  ['DataFlow', 'dataFlow', FLOW, 'editableDataFlowProperties'],
  ['DataJob', 'dataJob', JOB, 'editableDataJobProperties'],
] as const;
const mutation = (type: string) =>
  `mutation u($urn: String!, $input: ${type}UpdateInput!) { update${type}(urn: $urn, input: $input) { urn editableProperties { description } } }`;

for (const backend of await backends()) {
  describe(`updateChart, updateDashboard, updateDataFlow, updateDataJob: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        server,
        mcp(CHART, 'chartInfo', { title: 'Orders', description: '', lastModified: stamps }, 'chart'),
        mcp(DASHBOARD, 'dashboardInfo', { title: 'Sales', description: '', lastModified: stamps }, 'dashboard'),
        mcp(FLOW, 'dataFlowInfo', { name: 'editable_flow' }, 'dataFlow'),
        mcp(JOB, 'dataJobInfo', { name: 'load', type: 'COMMAND' }, 'dataJob'),
      );
    });

    it('sets the editable description, answers the entity, and keeps it as a version read through Rest.li', async () => {
      for (const [type, field, urn, aspect] of CASES) {
        const data = await gqlData(server, mutation(type), { urn, input: { editableProperties: { description: `About the ${field}` } } });
        assert.deepEqual(data[`update${type}`], { urn, editableProperties: { description: `About the ${field}` } }, type);
        assert.equal((await restliAspect(server, urn, aspect))?.description, `About the ${field}`, type);
      }
    });

    it("refuses a Reader with DataHub's message and writes nothing", async () => {
      const reader = await actorWithRole(server, `editable-reader-${backend.name}`, 'Reader');
      await gqlError(server, mutation('Chart'), { urn: CHART, input: { editableProperties: { description: 'refused' } } }, UNAUTHORIZED, {
        auth: reader,
      });
      assert.notEqual((await restliAspect(server, CHART, 'editableChartProperties'))?.description, 'refused');
    });

    it('refuses a missing entity and an urn of another type, naming it', async () => {
      const missing = 'urn:li:chart:(looker,nothing)';
      await gqlError(
        server,
        mutation('Chart'),
        { urn: missing, input: { editableProperties: { description: 'x' } } },
        {
          code: 400,
          type: 'BAD_REQUEST',
          message: `Failed to update ${missing}. ${missing} does not exist.`,
        },
      );
      await gqlError(
        server,
        mutation('Chart'),
        { urn: DASHBOARD, input: { editableProperties: { description: 'x' } } },
        {
          code: 400,
          type: 'BAD_REQUEST',
          message: `urn ${DASHBOARD} is not a chart urn`,
        },
      );
      assert.equal(await restliAspect(server, missing, 'editableChartProperties'), undefined);
    });
  });
}
