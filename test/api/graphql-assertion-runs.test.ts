import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { gql, gqlData, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,shop.public.orders,PROD)';
const ASSERTION = 'urn:li:assertion:orders-rows';
const T0 = 1767225600000;
const HOUR = 3_600_000;

const run = (hours: number, type: string, extra: Record<string, unknown> = {}) =>
  mcp(
    ASSERTION,
    'assertionRunEvent',
    {
      timestampMillis: T0 + hours * HOUR,
      runId: `run-${hours}`,
      assertionUrn: ASSERTION,
      asserteeUrn: DATASET,
      status: 'COMPLETE',
      result: { type, ...extra },
    },
    'assertion',
  );

const RUN_EVENTS = `query runs($urn: String!, $start: Long, $end: Long, $limit: Int, $filter: FilterInput) {
  assertion(urn: $urn) {
    runEvents(status: COMPLETE, startTimeMillis: $start, endTimeMillis: $end, limit: $limit, filter: $filter) {
      total failed succeeded errored
      runEvents {
        timestampMillis lastObservedMillis assertionUrn asserteeUrn runId status
        partitionSpec { type partition }
        batchSpec { nativeBatchId limit }
        runtimeContext { key value }
        result { type rowCount unexpectedCount actualAggValue externalUrl nativeResults { key value } severity }
      }
    }
  }
}`;

for (const backend of await backends()) {
  describe(`Assertion run events over ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        s,
        mcp(ASSERTION, 'assertionInfo', { type: 'VOLUME', description: 'orders has rows' }, 'assertion'),
        run(0, 'SUCCESS', { rowCount: 10, actualAggValue: 10 }),
        run(1, 'FAILURE', { rowCount: 0, unexpectedCount: 3, nativeResults: { observed: '0' }, severity: 'HIGH', externalUrl: 'https://dq/runs/1' }),
        mcp(
          ASSERTION,
          'assertionRunEvent',
          {
            timestampMillis: T0 + 2 * HOUR,
            runId: 'run-2',
            assertionUrn: ASSERTION,
            asserteeUrn: DATASET,
            status: 'COMPLETE',
            partitionSpec: { type: 'PARTITION', partition: 'day=1' },
            batchSpec: { nativeBatchId: 'b-2', limit: 100 },
            runtimeContext: { trigger: 'schedule' },
            result: { type: 'ERROR', error: { type: 'SOURCE_QUERY_FAILED' } },
          },
          'assertion',
        ),
        run(3, 'SUCCESS', { rowCount: 12 }),
      );
    });

    it('reads the run events back newest first, with their results and DataHub’s counts', async () => {
      const data = await gqlData(server, RUN_EVENTS, { urn: ASSERTION });
      const result = data.assertion.runEvents;
      assert.deepEqual(
        { total: result.total, failed: result.failed, succeeded: result.succeeded, errored: result.errored },
        { total: 4, failed: 1, succeeded: 2, errored: 1 },
      );
      assert.deepEqual(
        result.runEvents.map((r: { runId: string; result: { type: string } }) => [r.runId, r.result.type]),
        [
          ['run-3', 'SUCCESS'],
          ['run-2', 'ERROR'],
          ['run-1', 'FAILURE'],
          ['run-0', 'SUCCESS'],
        ],
      );
      const [, errored, failed] = result.runEvents;
      assert.equal(failed.timestampMillis, T0 + HOUR);
      assert.equal(typeof failed.lastObservedMillis, 'number');
      assert.equal(failed.assertionUrn, ASSERTION);
      assert.equal(failed.asserteeUrn, DATASET);
      assert.equal(failed.status, 'COMPLETE');
      assert.deepEqual(failed.result, {
        type: 'FAILURE',
        rowCount: 0,
        unexpectedCount: 3,
        actualAggValue: null,
        externalUrl: 'https://dq/runs/1',
        nativeResults: [{ key: 'observed', value: '0' }],
        severity: 'HIGH',
      });
      assert.deepEqual(errored.partitionSpec, { type: 'PARTITION', partition: 'day=1' });
      assert.deepEqual(errored.batchSpec, { nativeBatchId: 'b-2', limit: 100 });
      assert.deepEqual(errored.runtimeContext, [{ key: 'trigger', value: 'schedule' }]);
    });

    it('counts only the events inside the time window, the limit and the filter, as DataHub does', async () => {
      const windowed = await gqlData(server, RUN_EVENTS, { urn: ASSERTION, start: T0 + HOUR, end: T0 + 2 * HOUR });
      assert.deepEqual(
        windowed.assertion.runEvents.runEvents.map((r: { runId: string }) => r.runId),
        ['run-2', 'run-1'],
      );
      assert.equal(windowed.assertion.runEvents.failed, 1);

      const latest = await gqlData(server, RUN_EVENTS, { urn: ASSERTION, limit: 1 });
      assert.deepEqual(
        { total: latest.assertion.runEvents.total, succeeded: latest.assertion.runEvents.succeeded, failed: latest.assertion.runEvents.failed },
        { total: 1, succeeded: 1, failed: 0 },
      );

      const failures = await gqlData(server, RUN_EVENTS, { urn: ASSERTION, filter: { and: [{ field: 'result.type', values: ['FAILURE'] }] } });
      assert.deepEqual(
        failures.assertion.runEvents.runEvents.map((r: { runId: string }) => r.runId),
        ['run-1'],
      );
    });

    it('answers an assertion without runs with an empty result, a missing one with null, and a bad limit with an error naming it', async () => {
      await ingest(server, mcp('urn:li:assertion:never-ran', 'assertionInfo', { type: 'VOLUME' }, 'assertion'));
      const none = await gqlData(server, RUN_EVENTS, { urn: 'urn:li:assertion:never-ran' });
      assert.equal((await gqlData(server, RUN_EVENTS, { urn: 'urn:li:assertion:missing' })).assertion, null);
      assert.deepEqual(none.assertion.runEvents, { total: 0, failed: 0, succeeded: 0, errored: 0, runEvents: [] });
      const bad = await gql(server, RUN_EVENTS, { urn: ASSERTION, limit: 0 });
      assert.match(bad.json.errors?.[0]?.message ?? '', /limit must be from 1/);
    });
  });
}
