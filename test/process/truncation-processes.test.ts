import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it } from 'node:test';
import { openStore } from '../../src/storage/open-store.ts';
import { formatTaskId } from '../../src/catalog/task-id.ts';
import { INTERRUPTED_MESSAGE } from '../../src/tasks/task-runner.ts';
import { backends } from '../support/databases.ts';
import { startServerProcess } from '../support/process.ts';
import { newTruncationTask } from '../../src/tasks/truncation/truncation-record.ts';
import { startTestServer } from '../support/server.ts';
import {
  DAY,
  T0,
  createDataset,
  datasetUrn,
  dryRunCounts,
  ended,
  hourly,
  httpRequester,
  ingestEvents,
  startTruncation,
  storedStamps,
  waitForTask,
} from '../support/truncation.ts';

for (const backend of await backends()) {
  describe(`a truncation run by another process: ${backend.name}`, { skip: backend.skip }, () => {
    it('is found by the next process and marked failed, with the data consistent and the truncation able to run again', async () => {
      const db = await backend.create();
      const urn = datasetUrn('crash');
      const stamps = hourly(4, 10);
      const cutoff = T0 + 3 * DAY;
      try {
        const setup = await startTestServer(db);
        const token = setup.adminToken;
        await createDataset(setup.request, urn);
        await ingestEvents(setup.request, urn, stamps);
        await setup.close();

        const doomed = await startServerProcess(db.env);
        const exited = new Promise((resolve) => doomed.child.once('exit', resolve));
        const remote = httpRequester(doomed.address, token);
        // Ten rows a second: one day partition per second, so the kill lands mid-task.
        const id = await startTruncation(remote, { endTimeMillis: cutoff, requestsPerSecond: 10 });
        await waitForTask(remote, id, (t) => t.rowsDeleted > 0);
        doomed.child.kill('SIGKILL');
        await exited;

        const server = await startTestServer(db);
        try {
          const task = await waitForTask(server.request, id, ended);
          assert.equal(task.state, 'failed');
          assert.equal(task.error, INTERRUPTED_MESSAGE);
          const left = await storedStamps(server.request, urn);
          assert.deepEqual(left, stamps.slice(stamps.length - left.length));
          assert.ok(left.length > 10 && left.length < 40, `${left.length} rows left`);
          // Counted in the same transaction as each deletion, so the kill cannot leave the count behind.
          assert.equal(task.rowsDeleted, stamps.length - left.length);
          assert.deepEqual(await dryRunCounts(server.request, 'datasetProfile', T0 + 100 * DAY), [left.length, left.length]);

          const again = await startTruncation(server.request, { endTimeMillis: cutoff });
          assert.equal((await waitForTask(server.request, again, ended)).state, 'completed');
          assert.deepEqual(
            await storedStamps(server.request, urn),
            stamps.filter((t) => t >= cutoff),
          );
        } finally {
          await server.close();
        }
      } finally {
        await db.drop();
      }
    });

    it('fails a task left running by a predecessor that had this very pid, as a restarted container does', async () => {
      const db = await backend.create();
      try {
        const store = await openStore(db.config);
        const now = Date.now();
        const created = await store.tasks.createTask(
          newTruncationTask(
            { nodeId: 'previous-boot', ownerPid: process.pid, ownerHost: os.hostname() },
            'urn:li:corpuser:datahub',
            {
              entityType: 'dataset',
              aspect: 'datasetProfile',
              cutoffMillis: T0,
              strategy: 'rebuild',
              batchSize: 10_000,
              timeoutSeconds: null,
              requestsPerSecond: null,
              totalRows: 0,
              rowsToDelete: 0,
            },
            now,
          ),
        );
        await store.database.close();
        assert.ok('created' in created);
        // Its heartbeat is fresh, so only the pid tells that its process is gone.
        const server = await startTestServer(db);
        try {
          const task = await waitForTask(server.request, formatTaskId(created.created), ended);
          assert.deepEqual([task.state, task.error], ['failed', INTERRUPTED_MESSAGE]);
        } finally {
          await server.close();
        }
      } finally {
        await db.drop();
      }
    });

    it('stops a task when another process asks to cancel it', async () => {
      const db = await backend.create();
      const urn = datasetUrn('cancel-elsewhere');
      try {
        const server = await startTestServer(db);
        try {
          await createDataset(server.request, urn);
          await ingestEvents(server.request, urn, hourly(4, 10));
          const owner = await startServerProcess(db.env);
          try {
            const remote = httpRequester(owner.address, server.adminToken);
            const id = await startTruncation(remote, { endTimeMillis: T0 + 3 * DAY, requestsPerSecond: 5 });
            await waitForTask(remote, id, (t) => t.rowsDeleted > 0);
            const cancel = await server.request('POST', `/api/tasks/${id}/cancel`);
            assert.equal(cancel.json.cancelRequested, true);
            const task = await waitForTask(server.request, id, ended);
            assert.equal(task.state, 'cancelled');
            assert.ok(task.rowsDeleted < 30);
            assert.deepEqual(await dryRunCounts(server.request, 'datasetProfile', T0 + 100 * DAY), [40 - task.rowsDeleted, 40 - task.rowsDeleted]);
          } finally {
            assert.equal(await owner.stop(), 0);
          }
        } finally {
          await server.close();
        }
      } finally {
        await db.drop();
      }
    });
  });
}
