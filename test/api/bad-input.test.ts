import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, type TestDatabase } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.bad,PROD)';

const mcp = (over: Record<string, unknown> = {}, value: unknown = { removed: false }) => ({
  entityType: 'dataset',
  entityUrn: URN,
  changeType: 'UPSERT',
  aspectName: 'status',
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  ...over,
});

interface Case {
  readonly name: string;
  readonly path?: string;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly status: number;
  /** A substring the message must contain (it names the offending field). */
  readonly message: string;
}

const CASES: Case[] = [
  { name: 'malformed JSON', rawBody: '{"proposal": ', status: 400, message: 'not valid JSON' },
  { name: 'a body that is not an object', body: [1, 2], status: 400, message: 'JSON object' },
  { name: 'no proposal', body: {}, status: 400, message: "Parameter 'proposal' is required" },
  { name: 'an unknown action', path: '/aspects?action=frobnicate', body: { proposal: mcp() }, status: 400, message: "Unknown action 'frobnicate'" },
  { name: 'no action', path: '/aspects', body: { proposal: mcp() }, status: 400, message: "Missing 'action'" },
  { name: 'no entityType', body: { proposal: mcp({ entityType: undefined }) }, status: 400, message: "'proposal.entityType' is required" },
  {
    name: 'an unknown entity type',
    body: { proposal: mcp({ entityType: 'spaceship' }) },
    status: 400,
    message: 'Failed to find entity with name spaceship in EntityRegistry',
  },
  {
    name: 'a urn without urn:',
    body: { proposal: mcp({ entityUrn: 'li:dataset:x' }) },
    status: 400,
    message: "Urn doesn't start with 'urn:'. Urn: li:dataset:x",
  },
  {
    name: 'a dataset urn with two parts',
    body: { proposal: mcp({ entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.bad)' }) },
    status: 400,
    message: 'Invalid number of keys',
  },
  {
    name: 'an unknown fabric',
    body: { proposal: mcp({ entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.bad,prod)' }) },
    status: 400,
    message: 'FabricType.prod',
  },
  {
    name: 'a urn with trailing whitespace',
    body: { proposal: mcp({ entityType: 'corpuser', entityUrn: 'urn:li:corpuser:bob ', aspectName: 'status' }) },
    status: 400,
    message: 'leading or trailing whitespace',
  },
  {
    name: 'a urn over 512 bytes',
    body: { proposal: mcp({ entityType: 'corpuser', entityUrn: `urn:li:corpuser:${'x'.repeat(600)}` }) },
    status: 400,
    message: 'longer than 512 bytes',
  },
  {
    name: 'a urn of another entity type',
    body: { proposal: mcp({ entityUrn: 'urn:li:corpuser:bob' }) },
    status: 400,
    message: 'is not a dataset urn',
  },
  {
    name: 'an unknown aspect',
    body: { proposal: mcp({ aspectName: 'flavour' }) },
    status: 400,
    message: 'Unknown aspect flavour for entity dataset',
  },
  {
    name: 'an aspect value that is not JSON',
    body: { proposal: mcp({ aspect: { value: '{nope', contentType: 'application/json' } }) },
    status: 400,
    message: "'proposal.aspect.value' is not valid JSON",
  },
  {
    name: 'a PATCH whose value is not a JSON Patch',
    body: { proposal: mcp({ changeType: 'PATCH' }) },
    status: 400,
    message: 'aspect.value must be a JSON Patch array',
  },
  {
    name: 'a PATCH of a timeseries aspect',
    body: { proposal: mcp({ changeType: 'PATCH', aspectName: 'datasetProfile' }, [{ op: 'add', path: '/rowCount', value: 1 }]) },
    status: 400,
    message: 'PATCH is not supported for timeseries aspect datasetProfile',
  },
  {
    name: 'a DELETE change',
    body: { proposal: mcp({ changeType: 'DELETE' }) },
    status: 400,
    message: "'proposal.changeType' DELETE is not supported",
  },
  { name: 'a wrong field type', body: { proposal: mcp({}, { removed: 'yes' }) }, status: 422, message: 'removed' },
  { name: 'a missing required field', body: { proposal: mcp({ aspectName: 'deprecation' }, { deprecated: true }) }, status: 422, message: 'note' },
  {
    name: 'a timeseries event without timestampMillis',
    body: { proposal: mcp({ aspectName: 'datasetProfile' }, { rowCount: 1 }) },
    status: 422,
    message: 'timestampMillis',
  },
  {
    name: 'a batch with one bad item (names the item)',
    path: '/aspects?action=ingestProposalBatch',
    body: { proposals: [mcp(), mcp({ aspectName: 'datasetProperties' }, { name: 7 })] },
    status: 422,
    message: 'proposals[1]: Aspect datasetProperties is invalid',
  },
  {
    name: 'a batch that is not an array',
    path: '/aspects?action=ingestProposalBatch',
    body: { proposals: {} },
    status: 400,
    message: "'proposals' must be an array",
  },
  { name: 'an exists without urn', path: '/entities?action=exists', body: {}, status: 400, message: "Parameter 'urn' is required" },
  {
    name: 'a snapshot with an unknown aspect class',
    path: '/entities?action=ingest',
    body: { entity: { value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: URN, aspects: [{ 'com.example.Nope': {} }] } } } },
    status: 400,
    message: 'Unknown aspect class com.example.Nope',
  },
  {
    name: 'a timeseries event dated in microseconds',
    body: { proposal: mcp({ aspectName: 'datasetProfile' }, { timestampMillis: 1767225600000000, rowCount: 1 }) },
    status: 400,
    message: "Field 'timestampMillis' 1767225600000000 is outside 1970-01-01T00:00:00.000Z to a day from now",
  },
  {
    name: 'a timeseries event before 1970',
    body: { proposal: mcp({ aspectName: 'datasetProfile' }, { timestampMillis: -86400000, rowCount: 1 }) },
    status: 400,
    message: "Field 'timestampMillis' -86400000 is outside",
  },
  {
    name: 'a batch of events on more than 1,000 distinct days (1,000 new tables)',
    path: '/aspects?action=ingestProposalBatch',
    body: {
      proposals: Array.from({ length: 1001 }, (_, d) =>
        mcp({ aspectName: 'datasetProfile' }, { timestampMillis: Date.UTC(2020, 0, 1) + d * 86400000, rowCount: 1 }),
      ),
    },
    status: 400,
    message: 'at most 1000 distinct days per index; this one touches 1001',
  },
  {
    name: 'a negative timeseries limit',
    path: '/aspects?action=getTimeseriesAspectValues',
    body: { urn: URN, entity: 'dataset', aspect: 'datasetProfile', limit: -1 },
    status: 400,
    message: "'limit' must be at least 1",
  },
];

for (const backend of await backends()) {
  describe(`bad input is refused and stores nothing: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let small: TestServer;

    before(async () => {
      db = await backend.create();
      server = await startTestServer(db);
      small = await startTestServer(db, { ALMANAC_MAX_BODY_BYTES: '2048' });
    });
    after(async () => {
      await small?.close();
      await server?.close();
      await db?.drop();
    });

    const assertNothingStored = async () => {
      const exists = await server.request('POST', '/entities?action=exists', { body: { urn: URN } });
      assert.deepEqual(exists.json, { value: false });
      const bob = await server.request('POST', '/entities?action=exists', { body: { urn: 'urn:li:corpuser:bob' } });
      assert.deepEqual(bob.json, { value: false });
    };

    for (const c of CASES) {
      it(`refuses ${c.name} with ${c.status}`, async () => {
        const res = await server.request('POST', c.path ?? '/aspects?action=ingestProposal', {
          body: c.body,
          rawBody: c.rawBody,
          headers: c.rawBody ? { 'Content-Type': 'application/json' } : {},
        });
        assert.equal(res.status, c.status, res.text);
        assert.equal(res.headers.get('x-restli-error-response'), 'true');
        assert.equal(res.json.status, c.status);
        assert.equal(res.json.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException');
        assert.ok(res.json.message.includes(c.message), `"${res.json.message}" should contain "${c.message}"`);
        assert.ok(!('stackTrace' in res.json));
        await assertNothingStored();
      });
    }

    it('refuses a body over the limit with 413', async () => {
      const res = await small.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: mcp({}, { removed: false, pad: 'x'.repeat(4096) }) },
      });
      assert.equal(res.status, 413);
      assert.equal(res.json.status, 413);
      await assertNothingStored();
    });

    it('answers 404 in the Rest.li shape for an unknown route', async () => {
      const res = await server.request('GET', '/nowhere');
      assert.equal(res.status, 404);
      assert.equal(res.headers.get('x-restli-error-response'), 'true');
    });

    it('answers 404 for a missing entity', async () => {
      const res = await server.request('GET', `/entities/${encodeURIComponent(URN)}`);
      assert.equal(res.status, 404);
      assert.ok(res.json.message.includes(URN));
    });
  });
}
