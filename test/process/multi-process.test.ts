import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { mintAdminToken } from '../support/actors.ts';
import { createPostgresDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { startServerProcess, type ServerProcess } from '../support/process.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const skip = await postgresSkipReason();

describe('two Almanac processes sharing one PostgreSQL', { skip }, () => {
  let db: TestDatabase;
  let first: TestServer;
  let second: ServerProcess;

  before(async () => {
    db = await createPostgresDatabase();
    first = await startTestServer(db);
    second = await startServerProcess(db.env);
  });
  after(async () => {
    await second?.stop();
    await first?.close();
    await db?.drop();
  });

  const exists = (auth: string) =>
    fetch(`${second.address}/entities?action=exists`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ urn: 'urn:li:corpuser:datahub' }),
    });

  it('accepts in one process a token minted by the other (shared signing key)', async () => {
    assert.equal((await exists(`Bearer ${first.adminToken}`)).status, 200);
  });

  it('refuses a token in the second process on its very next request after the first revokes it', async () => {
    const { token, record } = await first.app.services.tokens.mint({
      actorUrn: 'urn:li:corpuser:datahub',
      ownerUrn: 'urn:li:corpuser:datahub',
      duration: 'ONE_DAY',
      name: 'shared',
    });
    assert.equal((await exists(`Bearer ${token}`)).status, 200);
    const revoked = await first.request('POST', '/api/graphql', {
      body: { query: 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }', variables: { id: record.id } },
    });
    assert.deepEqual(revoked.json.data, { revokeAccessToken: true });
    const res = await exists(`Bearer ${token}`);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { message: string }).message, 'Failed to validate DataHub token: Token has been revoked');
  });

  /** The processes' notification connections (src/storage/postgres/auth-listener.ts) to this database. */
  const listeners = async (terminate = false): Promise<number> => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const r = await client.query<{ n: number }>(
        `WITH l AS MATERIALIZED (
           SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'almanac-auth-listener')
         SELECT count(*)::int AS n FROM l WHERE NOT $1 OR pg_terminate_backend(pid, 5000)`,
        [terminate],
      );
      return r.rows[0]!.n;
    } finally {
      await client.end();
    }
  };
  const untilListening = async () => {
    for (let i = 0; i < 100 && (await listeners()) < 2; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await listeners(), 2, 'both processes listen');
  };
  const revokedAfterUse = async (between: () => Promise<void>) => {
    const { token, record } = await mintAdminToken(first.app.services, 'kept');
    for (let i = 0; i < 3; i++) assert.equal((await exists(`Bearer ${token}`)).status, 200);
    await between();
    const revoked = await first.request('POST', '/api/graphql', {
      body: { query: 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }', variables: { id: record.id } },
    });
    assert.deepEqual(revoked.json.data, { revokeAccessToken: true });
    assert.equal((await exists(`Bearer ${token}`)).status, 401);
  };

  it('refuses a revoked token on the next request when the notification connections were killed just before', async () => {
    await untilListening();
    await revokedAfterUse(async () => assert.equal(await listeners(true), 2));
    // They come back, and notifications reach the other process again.
    await untilListening();
    await revokedAfterUse(async () => undefined);
  });
});
