import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { POSTGRES_ADMIN_URL, backends, type TestDatabase } from '../support/databases.ts';
import { gql, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';
import { datasetUrn } from '../support/truncation.ts';

/** Runs one statement as the administrator of the test cluster. */
async function asAdmin(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Cuts every connection to the database and refuses new ones, as a failover or an outage does; `restore` undoes it. */
async function cutDatabase(db: TestDatabase): Promise<{ restore(): Promise<void> }> {
  const name = new URL(db.url).pathname.slice(1);
  await asAdmin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  await asAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
  return { restore: () => asAdmin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`) };
}

const postgres = (await backends()).find((b) => b.name === 'postgres')!;

describe('a PostgreSQL server that goes away is answered 503, not a masked 500', { skip: postgres.skip }, () => {
  let server: TestServer;
  let db: TestDatabase;
  const urn = datasetUrn('unavailable.orders');
  const system = { DATAHUB_SYSTEM_CLIENT_ID: '__datahub_system', DATAHUB_SYSTEM_CLIENT_SECRET: 'unavailable-test-secret' };
  useServer(
    postgres,
    async (s, d) => {
      server = s;
      db = d;
      await ingest(server, mcp(urn, 'status', { removed: false }));
    },
    system,
  );

  it('answers Rest.li, OpenAPI and GraphQL with 503 and Retry-After while the database refuses connections, and recovers', async () => {
    const cut = await cutDatabase(db);
    try {
      for (const path of [`/entities/${encodeURIComponent(urn)}`, `/openapi/v3/entity/dataset/${encodeURIComponent(urn)}`]) {
        const res = await server.request('GET', path);
        assert.equal(res.status, 503, `${path}: ${res.text}`);
        assert.equal(res.headers.get('retry-after'), '5');
        assert.equal(res.json.message, 'The database is unavailable; retry shortly');
      }
      const res = await gql(server, 'query($urn: String!) { dataset(urn: $urn) { urn } }', { urn });
      assert.equal(res.status, 503, res.text);
      assert.equal(res.json.errors[0].extensions.code, 503);
      // The system client is checked without the database, so the failure happens inside the resolver.
      const basic = `Basic ${system.DATAHUB_SYSTEM_CLIENT_ID}:${system.DATAHUB_SYSTEM_CLIENT_SECRET}`;
      const inside = await server.request('POST', '/api/graphql', { auth: basic, body: { query: `{ dataset(urn: "${urn}") { urn } }` } });
      assert.equal(inside.json.errors[0].extensions.code, 503, inside.text);
      assert.equal(inside.json.errors[0].message, 'The database is unavailable; retry shortly');
      assert.equal((await server.request('GET', '/ready', { auth: null })).status, 503);
      assert.equal((await server.request('GET', '/health', { auth: null })).status, 200);
    } finally {
      await cut.restore();
    }
    const back = await server.request('GET', `/entities/${encodeURIComponent(urn)}`);
    assert.equal(back.status, 200, back.text);
  });
});
