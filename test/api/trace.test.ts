import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const urnOf = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:test,${name},PROD)`;
/** What DataHub's smoke tests and the SDK's ASYNC_WAIT mode send. */
const DETAILED = '?onlyIncludeErrors=false&detailed=true';

const state = (writeStatus: string) => ({ success: true, primaryStorage: { writeStatus }, searchStorage: { writeStatus } });

/** The trace id of a write, from its `traceparent` header (W3C: version, trace id, span id, flags). */
function traceOf(res: HttpResult): string {
  const header = res.headers.get('traceparent') ?? '';
  assert.match(header, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/, `traceparent: ${header}`);
  return header.split('-')[1]!;
}

for (const backend of await backends()) {
  describe(`write tracing: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    const write = (urn: string, aspect: string, value: unknown) =>
      server.request('POST', '/openapi/v3/entity/dataset?async=true&systemMetadata=true', { body: [{ urn, [aspect]: { value } }] });
    const trace = async (traceId: string, body: unknown, query = DETAILED) => {
      const res = await server.request('POST', `/openapi/v1/trace/write/${traceId}${query}`, { body });
      assert.equal(res.status, 200, res.text);
      return res.json;
    };

    it("answers a write with a traceparent header whose trace id is in the aspect's system metadata, and traces it to ACTIVE_STATE", async () => {
      const urn = urnOf('happy');
      const res = await write(urn, 'status', { removed: false });
      assert.equal(res.status, 200, res.text);
      const traceId = traceOf(res);
      assert.equal(res.json[0].status.systemMetadata.properties.telemetryTraceId, traceId);
      assert.deepEqual(await trace(traceId, { [urn]: ['status'] }), { [urn]: { status: state('ACTIVE_STATE') } });
      // The whole header is accepted in place of the id, as DataHub's controller reads it.
      const header = res.headers.get('traceparent')!;
      assert.deepEqual(await trace(header, { [urn]: ['status'] }), { [urn]: { status: state('ACTIVE_STATE') } });
    });

    it('says HISTORIC_STATE once a later write has replaced the traced value', async () => {
      const urn = urnOf('overwritten');
      const original = traceOf(await write(urn, 'datasetProperties', { name: 'original', customProperties: {}, tags: [] }));
      assert.deepEqual(await trace(original, { [urn]: ['datasetProperties'] }), { [urn]: { datasetProperties: state('ACTIVE_STATE') } });
      const second = traceOf(await write(urn, 'datasetProperties', { name: 'updated', customProperties: {}, tags: [] }));
      assert.deepEqual(await trace(second, { [urn]: ['datasetProperties'] }), { [urn]: { datasetProperties: state('ACTIVE_STATE') } });
      assert.deepEqual(await trace(original, { [urn]: ['datasetProperties'] }), { [urn]: { datasetProperties: state('HISTORIC_STATE') } });
    });

    it('says NO_OP for a write that found the same value already stored', async () => {
      const urn = urnOf('noop');
      const first = traceOf(await write(urn, 'status', { removed: false }));
      assert.deepEqual(await trace(first, { [urn]: ['status'] }), { [urn]: { status: state('ACTIVE_STATE') } });
      await new Promise((r) => setTimeout(r, 5)); // the second write's trace id must be dated after the first write
      const again = traceOf(await write(urn, 'status', { removed: false }));
      assert.deepEqual(await trace(again, { [urn]: ['status'] }), { [urn]: { status: state('NO_OP') } });
    });

    it('answers a timeseries aspect as DataHub does: NO_OP, search TRACE_NOT_IMPLEMENTED', async () => {
      const urn = urnOf('timeseries');
      const event = { timestampMillis: Date.now(), messageId: 'test timeseries', rowCount: 1 };
      const res = await write(urn, 'datasetProfile', event);
      assert.equal(res.status, 200, res.text);
      // The answer shows the event written, with the trace id in its system metadata, as DataHub's trace smoke test reads it.
      assert.deepEqual(res.json[0].datasetProfile.value, event);
      assert.equal(res.json[0].datasetProfile.systemMetadata.properties.telemetryTraceId, traceOf(res));
      assert.deepEqual(await trace(traceOf(res), { [urn]: ['datasetProfile'] }), {
        [urn]: {
          datasetProfile: { success: true, primaryStorage: { writeStatus: 'NO_OP' }, searchStorage: { writeStatus: 'TRACE_NOT_IMPLEMENTED' } },
        },
      });
    });

    it('traces a refused write to ERROR with the reason, and the search index as never reached', async () => {
      const urn = urnOf('refused');
      const res = await server.request('POST', `/openapi/v3/entity/dataset/${encodeURIComponent(urn)}/status?async=true&systemMetadata=true`, {
        body: { value: { removed: 'yes' } },
      });
      assert.equal(res.status, 422, res.text);
      const traceId = traceOf(res);
      const answer = await trace(traceId, { [urn]: ['status'] });
      assert.equal(answer[urn].status.success, false);
      assert.equal(answer[urn].status.primaryStorage.writeStatus, 'ERROR');
      assert.match(answer[urn].status.primaryStorage.writeExceptions[0].message, /removed/);
      assert.deepEqual(answer[urn].status.searchStorage, { writeStatus: 'ERROR', writeMessage: 'Primary storage write failed.' });
      // Without `detailed`, DataHub leaves the exceptions out; by default only errors are listed.
      const brief = await trace(traceId, { [urn]: ['status'] }, '');
      assert.deepEqual(brief[urn].status.primaryStorage, { writeStatus: 'ERROR' });
    });

    it('lists only failures by default, and says UNKNOWN for a trace id no stored version carries', async () => {
      const urn = urnOf('defaults');
      const traceId = traceOf(await write(urn, 'status', { removed: false }));
      assert.deepEqual(await trace(traceId, { [urn]: ['status'] }, ''), {});
      const stranger = '0'.repeat(16) + 'abcdef0123456789';
      const answer = await trace(stranger, { [urn]: ['status'] });
      assert.equal(answer[urn].status.success, false);
      assert.equal(answer[urn].status.primaryStorage.writeStatus, 'UNKNOWN');
      assert.equal(answer[urn].status.searchStorage.writeStatus, 'UNKNOWN');
    });

    it('traces the aspects an OpenLineage event wrote', async () => {
      const runId = randomUUID();
      const res = await server.request('POST', '/openapi/openlineage/api/v1/lineage', {
        body: {
          eventType: 'START',
          eventTime: new Date().toISOString(),
          producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/client/python',
          run: { runId },
          job: { namespace: 'traced', name: 'flow.task' },
        },
      });
      assert.equal(res.status, 202, res.text);
      const job = 'urn:li:dataJob:(urn:li:dataFlow:(python,flow,traced),flow.task)';
      const dpi = `urn:li:dataProcessInstance:${runId}`;
      assert.deepEqual(await trace(traceOf(res), { [job]: ['dataJobInfo'], [dpi]: ['dataProcessInstanceProperties'] }), {
        [job]: { dataJobInfo: state('ACTIVE_STATE') },
        [dpi]: { dataProcessInstanceProperties: state('ACTIVE_STATE') },
      });
    });

    const bad: [string, string, unknown, RegExp][] = [
      [
        'a trace id that is neither a header nor 32 hex digits',
        'nothex',
        { [urnOf('x')]: ['status'] },
        /neither a traceparent header nor a 32-digit hex trace id/,
      ],
      ['a body that is not an object', '0'.repeat(32), ['status'], /must be \{"<urn>": \["<aspect name>", \.\.\.\]\}/],
      ['aspects that are not a list of names', '0'.repeat(32), { [urnOf('x')]: 'status' }, /must be a list of aspect names/],
      ['an unknown aspect', '0'.repeat(32), { [urnOf('x')]: ['nosuchaspect'] }, /Unknown aspect nosuchaspect/],
      ['a malformed urn', '0'.repeat(32), { 'not-an-urn': ['status'] }, /urn/i],
    ];
    for (const [what, traceId, body, message] of bad) {
      it(`refuses ${what} with 400`, async () => {
        const res = await server.request('POST', `/openapi/v1/trace/write/${traceId}`, { body });
        assert.equal(res.status, 400, res.text);
        assert.match(res.json.message, message);
      });
    }

    it('refuses an unknown query parameter and malformed JSON with 400', async () => {
      const unknown = await server.request('POST', `/openapi/v1/trace/write/${'0'.repeat(32)}?verbose=true`, { body: {} });
      assert.equal(unknown.status, 400);
      assert.match(unknown.text, /Unknown query parameter 'verbose'/);
      const malformed = await server.request('POST', `/openapi/v1/trace/write/${'0'.repeat(32)}`, {
        rawBody: '{"urn',
        headers: { 'Content-Type': 'application/json' },
      });
      assert.equal(malformed.status, 400);
      assert.equal((await server.request('POST', `/openapi/v1/trace/write/${'0'.repeat(32)}`, { body: {}, auth: null })).status, 401);
    });
  });
}
