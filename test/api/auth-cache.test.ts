import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { actorWithRole, mintAdminToken } from '../support/actors.ts';
import { backends, execElsewhere, type TestDatabase } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const ME = '/openapi/operations/identity/user/urn';
const UPDATE = 'mutation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,auth.cache,PROD)';

for (const backend of await backends()) {
  describe(`authentication kept per process until something changes: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let tokenReads = 0;
    let grantReads = 0;
    let markReads = 0;

    before(async () => {
      db = await backend.create();
      server = await startTestServer(db, { ALMANAC_RETENTION_SCHEDULE: 'off' });
      // Counted, not replaced: every call still goes to the database.
      const store = server.app.services.store.identity as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      for (const [name, count] of [
        ['findTokenWithActor', () => tokenReads++],
        ['grantBasis', () => grantReads++],
        ['authChangeMark', () => markReads++],
      ] as const) {
        const real = store[name]!;
        store[name] = (...args) => {
          count();
          return real(...args);
        };
      }
      await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal: mcp(DATASET, 'status', { removed: false }) } });
    });
    after(async () => {
      await server?.close();
      await db?.drop();
    });

    /** Requests until a token's record is kept (PostgreSQL keeps nothing until its notification connection listens). */
    const warm = async (auth: string) => {
      for (let i = 0; i < 100; i++) {
        const before = tokenReads;
        assert.equal((await server.request('GET', ME, { auth })).status, 200);
        if (tokenReads === before) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail('the token record was read on every request');
    };
    const update = (auth: string, note: string) =>
      server.request('POST', '/api/graphql', { auth, body: { query: UPDATE, variables: { input: { urn: DATASET, deprecated: true, note } } } });

    it("reads neither a token's record nor its caller's role again while nothing changes, and the change mark once a request", async () => {
      const auth = await actorWithRole(server, 'keeper', 'Editor');
      await warm(auth);
      assert.equal((await update(auth, 'first')).json.data?.updateDeprecation, true);
      const [tokens, grants, marks] = [tokenReads, grantReads, markReads];
      for (let i = 0; i < 5; i++) assert.equal((await update(auth, `again ${i}`)).json.data?.updateDeprecation, true);
      assert.deepEqual([tokenReads - tokens, grantReads - grants], [0, 0]);
      // Authentication and authorization share the mark authentication read: one per request.
      assert.equal(markReads - marks, 5);
    });

    it('refuses a token on the next request after another connection deletes it', async () => {
      const { token, record } = await mintAdminToken(server.app.services, 'deleted elsewhere');
      await warm(`Bearer ${token}`);
      await execElsewhere(db, `DELETE FROM access_tokens WHERE id = '${record.id.replace(/'/g, "''")}'`);
      const res = await server.request('GET', ME, { auth: `Bearer ${token}` });
      assert.equal(res.status, 401, res.text);
      assert.equal(res.json.message, 'Failed to validate DataHub token: Token has been revoked');
    });

    it('applies a role taken away by another connection to the next request', async () => {
      const auth = await actorWithRole(server, 'demoted', 'Editor');
      await warm(auth);
      assert.equal((await update(auth, 'while an editor')).json.data?.updateDeprecation, true);
      await execElsewhere(db, "DELETE FROM role_assignments WHERE actor_urn = 'urn:li:corpuser:demoted'");
      const res = await update(auth, 'after the role is gone');
      assert.deepEqual(res.json.errors?.[0]?.extensions, { code: 403, type: 'UNAUTHORIZED' });
    });

    it("refuses a user's token on the next request after another connection suspends the user", async () => {
      const auth = await actorWithRole(server, 'suspended', 'Reader');
      await warm(auth);
      await execElsewhere(
        db,
        `UPDATE aspects SET metadata = '{"status":"SUSPENDED"}' WHERE urn = 'urn:li:corpuser:suspended' AND aspect = 'corpUserStatus' AND version = 0;
         INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by)
         SELECT 'urn:li:corpuser:suspended', 'corpUserStatus', 0, 'corpuser', '{"status":"SUSPENDED"}', NULL, 0, 'urn:li:corpuser:datahub'
         WHERE NOT EXISTS (SELECT 1 FROM aspects WHERE urn = 'urn:li:corpuser:suspended' AND aspect = 'corpUserStatus' AND version = 0)`,
      );
      const res = await server.request('GET', ME, { auth });
      assert.equal(res.status, 401, res.text);
      assert.match(res.json.message, /is not active/);
    });
  });
}
