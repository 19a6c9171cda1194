import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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
    second = await startServerProcess({ ALMANAC_DATABASE_URL: db.url });
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
});
