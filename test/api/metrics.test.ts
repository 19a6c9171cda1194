import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { throughPooler } from '../../src/storage/open-store.ts';
import { backends, createSqliteDatabase } from '../support/databases.ts';
import { gqlData, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { DAY, T0, datasetUrn, ended, startTruncation, waitForTask } from '../support/truncation.ts';

/** The value of one sample of a Prometheus text scrape, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const [series, value] = line.split(/ (?=[^ ]+$)/);
    const rest = series!.slice(name.length);
    if (rest !== '' && !rest.startsWith('{')) continue;
    if (wanted.every((w) => rest.includes(w))) return Number(value);
  }
  return 0;
}

for (const backend of await backends()) {
  describe(`metrics and readiness: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    /** PostgreSQL with no pooler in front: searches have a pool of their own. */
    let direct = false;
    useServer(backend, (s, db) => {
      server = s;
      direct = db.config.kind === 'postgres' && !throughPooler(db.config);
    });
    const scrape = async () => {
      const res = await server.request('GET', '/metrics', { auth: null });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      return res.text;
    };

    it('counts requests by route, method and status, and 401s by reason', async () => {
      const before = await scrape();
      const exists = { route: '/entities', method: 'POST', status: '200' };
      for (let i = 0; i < 3; i++) await server.request('POST', '/entities?action=exists', { body: { urn: 'urn:li:corpuser:datahub' } });
      await server.request('POST', '/entities?action=exists', { body: { urn: 'urn:li:corpuser:datahub' }, auth: null });
      await server.request('POST', '/entities?action=exists', { body: { urn: 'urn:li:corpuser:datahub' }, auth: 'Bearer nope' });
      const after = await scrape();
      assert.equal(
        sample(after, 'almanac_http_request_duration_seconds_count', exists) - sample(before, 'almanac_http_request_duration_seconds_count', exists),
        3,
      );
      assert.equal(
        sample(after, 'almanac_auth_failures_total', { reason: 'missing_header' }) -
          sample(before, 'almanac_auth_failures_total', { reason: 'missing_header' }),
        1,
      );
      assert.equal(
        sample(after, 'almanac_auth_failures_total', { reason: 'invalid_token' }) -
          sample(before, 'almanac_auth_failures_total', { reason: 'invalid_token' }),
        1,
      );
      assert.ok(sample(after, 'almanac_process_resident_memory_bytes') > 0);
    });

    it('counts ingested proposals and GraphQL operations by name', async () => {
      const urn = datasetUrn('metrics.ingest');
      await ingest(
        server,
        mcp(urn, 'status', { removed: false }),
        mcp(urn, 'datasetProperties', { name: 'm' }),
        mcp(urn, 'datasetProfile', { timestampMillis: T0, rowCount: 1 }),
      );
      await gqlData(server, 'query readDataset($urn: String!) { dataset(urn: $urn) { urn } }', { urn }, { operationName: 'readDataset' });
      const text = await scrape();
      assert.equal(sample(text, 'almanac_ingested_proposals_total', { route: 'ingestProposalBatch' }), 3);
      assert.equal(sample(text, 'almanac_graphql_operations_total', { operation: 'readDataset', outcome: 'ok' }), 1);
    });

    it('reports truncation tasks from their records after a real truncation', async () => {
      const urn = datasetUrn('metrics.truncate');
      await ingest(
        server,
        mcp(urn, 'status', { removed: false }),
        ...[0, 1, 2].map((d) => mcp(urn, 'operation', { timestampMillis: T0 + d * DAY, lastUpdatedTimestamp: T0, operationType: 'INSERT' })),
      );
      const id = await startTruncation(server.request, { entityType: 'dataset', aspect: 'operation', endTimeMillis: T0 + 2 * DAY, dryRun: false });
      assert.equal((await waitForTask(server.request, id, ended)).state, 'completed');
      const text = await scrape();
      assert.equal(sample(text, 'almanac_truncation_tasks', { state: 'completed' }), 1);
      assert.equal(sample(text, 'almanac_truncation_rows_deleted'), 2);
    });

    it("reports the database's own gauges: the pool on PostgreSQL, the write-ahead log on SQLite", async () => {
      await ingest(server, mcp(datasetUrn('metrics.gauges'), 'status', { removed: false }));
      const search = 'query s($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total } }';
      assert.equal(
        (await gqlData(server, search, { input: { types: ['DATASET'], query: 'gauges', start: 0, count: 10 } })).searchAcrossEntities.total,
        1,
      );
      const text = await scrape();
      if (backend.name === 'postgres') {
        assert.ok(sample(text, 'almanac_db_pool_connections', { state: 'total' }) >= 1, 'a request has opened a connection');
        assert.match(text, /almanac_db_pool_connections\{state="waiting"\} \d+/);
        if (direct) assert.ok(sample(text, 'almanac_db_search_pool_connections', { state: 'total' }) >= 1, 'a search has opened one');
        else assert.doesNotMatch(text, /^almanac_db_search_pool_connections\{/m);
        assert.equal(sample(text, 'almanac_sqlite_wal_bytes'), 0);
      } else {
        assert.ok(sample(text, 'almanac_sqlite_wal_bytes') > 0, 'a write has gone to the write-ahead log');
        assert.doesNotMatch(text, /^almanac_db_pool_connections\{/m);
        assert.doesNotMatch(text, /^almanac_db_search_pool_connections\{/m);
      }
    });

    it('answers /ready while the database answers', async () => {
      const res = await server.request('GET', '/ready', { auth: null });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { status: 'ready' });
    });
  });
}

describe('metrics behind a token', () => {
  let server: TestServer;
  useServer(
    { name: 'sqlite', skip: undefined, create: createSqliteDatabase },
    (s) => {
      server = s;
    },
    { ALMANAC_METRICS_AUTH: 'true' },
  );

  it('needs a token when ALMANAC_METRICS_AUTH is true', async () => {
    assert.equal((await server.request('GET', '/metrics', { auth: null })).status, 401);
    assert.equal((await server.request('GET', '/metrics')).status, 200);
  });
});

describe('metrics turned off', () => {
  let server: TestServer;
  useServer(
    { name: 'sqlite', skip: undefined, create: createSqliteDatabase },
    (s) => {
      server = s;
    },
    { ALMANAC_METRICS: 'false' },
  );

  it('serves no /metrics when ALMANAC_METRICS is false, and the rest of the API as before', async () => {
    assert.equal((await server.request('GET', '/metrics', { auth: null })).status, 401);
    assert.equal((await server.request('GET', '/metrics')).status, 404);
    assert.equal((await server.request('GET', '/health', { auth: null })).status, 200);
    assert.equal((await server.request('GET', '/api/gms/aspects/urn%3Ali%3Acorpuser%3Adatahub?aspect=corpUserKey&version=0')).status, 200);
  });
});
