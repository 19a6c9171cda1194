import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientBackends, storedAspect, useClientScript } from '../support/datahub-client.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { DAY, datasetUrn, ended, storedStamps, waitForTask } from '../support/truncation.ts';

const URNS = { soft: datasetUrn('sdk.soft'), restored: datasetUrn('sdk.restored'), hard: datasetUrn('sdk.hard'), window: datasetUrn('sdk.window') };
/** Profiles of the window dataset, hours apart; the SDK deletes those from the second to the fourth, both ends included. */
const WINDOW_STAMPS = [0, 1, 2, 3, 4].map((h) => Date.UTC(2026, 0, 5, h));
const OPS = datasetUrn('sdk.operations');
const NOW = Date.now();
/** days ago: the gc job truncates operations older than 30 days. */
const OPERATION_AGES = [40, 35, 20, 1];
const KEPT = [20, 1].map((days) => NOW - days * DAY);
const operation = (days: number) =>
  mcp(OPS, 'operation', { timestampMillis: NOW - days * DAY, lastUpdatedTimestamp: NOW - days * DAY, operationType: 'INSERT' });

for (const backend of await clientBackends()) {
  describe(`DataHub Python SDK deletes: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_delete.py', async (server) => {
      await ingest(
        server,
        ...Object.values(URNS).flatMap((urn) => [mcp(urn, 'status', { removed: false }), mcp(urn, 'datasetProperties', { name: urn })]),
        mcp(URNS.hard, 'datasetProfile', { timestampMillis: NOW, rowCount: 1 }),
        ...WINDOW_STAMPS.map((t) => mcp(URNS.window, 'datasetProfile', { timestampMillis: t, rowCount: 1 })),
        mcp(URNS.window, 'datasetUsageStatistics', { timestampMillis: WINDOW_STAMPS[2]!, uniqueUserCount: 1 }),
        mcp(OPS, 'status', { removed: false }),
        ...OPERATION_AGES.map(operation),
        mcp(OPS, 'datasetProfile', { timestampMillis: NOW - 40 * DAY, rowCount: 1 }),
      );
      return { ...URNS, start: WINDOW_STAMPS[1], end: WINDOW_STAMPS[3] };
    });

    it('soft-deletes with soft_delete_entity: status.removed reads back true and the entity still exists', async () => {
      assert.deepEqual(run.result.soft, { removed: true, exists: true });
      assert.deepEqual(await storedAspect(run.server, URNS.soft, 'status'), { removed: true });
      assert.equal((await storedAspect(run.server, URNS.soft, 'datasetProperties'))?.name, URNS.soft);
    });

    it('undoes a soft delete with set_soft_delete_status(delete=False)', async () => {
      assert.deepEqual(run.result.restored, { removed: false });
      assert.deepEqual(await storedAspect(run.server, URNS.restored, 'status'), { removed: false });
    });

    it('hard-deletes with hard_delete_entity: every aspect and timeseries row is gone, and the SDK reads the counts', async () => {
      // status, datasetKey, datasetProperties; one profile.
      assert.deepEqual(run.result.hard, { exists: false, properties: null, counts: [3, 1] });
      assert.equal((await run.server.request('GET', `/entities/${encodeURIComponent(URNS.hard)}`)).status, 404);
      assert.deepEqual((await run.server.request('POST', '/entities?action=exists', { body: { urn: URNS.hard } })).json, { value: false });
      assert.deepEqual(await storedStamps(run.server.request, URNS.hard), []);
    });

    it('deletes only a window of one timeseries aspect with hard_delete_timeseries_aspect, and the SDK reads the count', async () => {
      assert.deepEqual(run.result.window, { rows: 3, exists: true });
      assert.deepEqual(await storedStamps(run.server.request, URNS.window), [WINDOW_STAMPS[0], WINDOW_STAMPS[4]]);
      assert.deepEqual(await storedStamps(run.server.request, URNS.window, 'datasetUsageStatistics'), [WINDOW_STAMPS[2]]);
      assert.equal((await storedAspect(run.server, URNS.window, 'datasetProperties'))?.name, URNS.window);
    });

    it("truncates the operation index as datahub-gc does: DataHub's dry-run message, then a task that keeps the last 30 days", async () => {
      assert.deepEqual(run.result.truncation.dryRun, {
        value:
          'Delete 2 out of 4 rows (50.00%). Reindexing the aspect without the deleted records. This was a dry run. Run with dryRun = false to execute.',
      });
      const task = await waitForTask(run.server.request, run.result.truncation.realRun.value, ended);
      assert.equal(task.state, 'completed');
      assert.deepEqual(await storedStamps(run.server.request, OPS, 'operation'), KEPT);
      assert.deepEqual(await storedStamps(run.server.request, OPS), [NOW - 40 * DAY], 'another index is untouched');
    });
  });
}
