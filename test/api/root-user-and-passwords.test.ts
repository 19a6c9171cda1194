import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore } from '../../src/storage/open-store.ts';
import { backends } from '../support/databases.ts';
import { gqlData, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const ROOT = 'urn:li:corpuser:datahub';
const enc = encodeURIComponent;
/** bootstrap_mcps/root-user.yaml in DataHub's repository. */
const DATAHUB_ROOT_INFO = { active: true, displayName: 'DataHub', title: 'DataHub Root User', system: true };
const CREATE_INVITE = 'mutation { createInviteToken(input: {}) { inviteToken } }';

const rootInfo = async (server: TestServer) => {
  const res = await server.request('GET', `/aspects/${enc(ROOT)}?aspect=corpUserInfo&version=0`);
  assert.equal(res.status, 200, res.text);
  return res.json.aspect['com.linkedin.identity.CorpUserInfo'] as Record<string, unknown>;
};

for (const backend of await backends()) {
  describe(`the root user: ${backend.name}`, { skip: backend.skip }, () => {
    it("carries DataHub's root-user info from the first start, and keeps an operator's edit across restarts", async () => {
      const db = await backend.create();
      try {
        const first = await startTestServer(db);
        assert.deepEqual(await rootInfo(first), DATAHUB_ROOT_INFO);
        await ingest(first, mcp(ROOT, 'corpUserInfo', { active: true, displayName: 'Operations', system: true }, 'corpuser'));
        await first.close();
        const second = await startTestServer(db);
        try {
          assert.deepEqual(await rootInfo(second), { active: true, displayName: 'Operations', system: true });
        } finally {
          await second.close();
        }
      } finally {
        await db.drop();
      }
    });

    it('replaces the info earlier Almanac versions wrote, which nobody chose, at the next start', async () => {
      const db = await backend.create();
      try {
        await (await startTestServer(db)).close();
        const store = await openStore(db.config);
        await store.aspects.write({
          ops: [
            {
              kind: 'aspect',
              entityType: 'corpuser',
              urn: ROOT,
              aspect: 'corpUserInfo',
              value: { active: true, displayName: 'datahub' },
              systemMetadata: null,
            },
          ],
          actor: ROOT,
          now: Date.now(),
        });
        await store.database.close();
        const server = await startTestServer(db);
        try {
          assert.deepEqual(await rootInfo(server), DATAHUB_ROOT_INFO);
        } finally {
          await server.close();
        }
      } finally {
        await db.drop();
      }
    });
  });

  describe(`ALMANAC_PASSWORD_MIN_LENGTH=4: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => void (server = s), { ALMANAC_PASSWORD_MIN_LENGTH: '4' });

    it('signs up with a 4-character password (what DataHub smoke tests use) and refuses 3, naming the limit', async () => {
      const { createInviteToken } = await gqlData(server, CREATE_INVITE, {});
      const signUp = (email: string, password: string) =>
        server.request('POST', '/signUp', { auth: null, body: { fullName: 'Short', email, password, inviteToken: createInviteToken.inviteToken } });
      const short = await signUp('three@example.com', 'abc');
      assert.equal(short.status, 400);
      assert.match(short.json.message, /Field 'password' must be from 4 to 1024 characters/);
      assert.equal((await signUp('four@example.com', 'user')).status, 200);
      const login = await server.request('POST', '/logIn', { auth: null, body: { username: 'four@example.com', password: 'user' } });
      assert.equal(login.status, 200);
    });
  });
}
