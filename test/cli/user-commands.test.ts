import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { actorWithRole } from '../support/actors.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { ROOT, childEnv } from '../support/process.ts';
import type { TestServer } from '../support/server.ts';

const run = promisify(execFile);
const BIN = path.join(ROOT, 'bin/almanac.mjs');
const WHO_AM_I = '/openapi/operations/identity/user/urn';

for (const backend of await backends()) {
  describe(`almanac user list|suspend|reactivate|remove|invite: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let db: TestDatabase;
    let token: string;
    useServer(backend, async (s, d) => {
      server = s;
      db = d;
      token = await actorWithRole(server, 'cli-kim', 'Reader');
    });

    /** The real binary against the server's database, as an operator runs it on the server's host. */
    const almanac = async (...args: string[]) => {
      try {
        const { stdout, stderr } = await run(BIN, args, { cwd: ROOT, env: childEnv({ ALMANAC_DATABASE_URL: db.url }) });
        return { code: 0, stdout, stderr };
      } catch (e) {
        const err = e as { code: number; stdout: string; stderr: string };
        return { code: err.code, stdout: err.stdout, stderr: err.stderr };
      }
    };
    const status = async () => (await server.request('GET', WHO_AM_I, { auth: token })).status;

    it('lists users with their status and role', async () => {
      const res = await almanac('user', 'list', '--query', 'cli-kim');
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, 'urn:li:corpuser:cli-kim\t-\turn:li:dataHubRole:Reader\n');
      const json = await almanac('user', 'list', '--json', '--count', '1');
      assert.equal(JSON.parse(json.stdout).count, 1);
    });

    it("suspends and reactivates a user: the user's token fails, then works", async () => {
      assert.equal((await almanac('user', 'suspend', 'cli-kim')).stdout, 'urn:li:corpuser:cli-kim SUSPENDED\n');
      assert.equal(await status(), 401);
      assert.match((await almanac('user', 'list', '--query', 'cli-kim')).stdout, /\tSUSPENDED\t/);
      assert.equal((await almanac('user', 'reactivate', 'urn:li:corpuser:cli-kim')).code, 0);
      assert.equal(await status(), 200);
    });

    it('prints an invite token that signs up a user with the role', async () => {
      const invite = await almanac('user', 'invite', '--role', 'Editor');
      assert.equal(invite.code, 0, invite.stderr);
      const res = await server.request('POST', '/signUp', {
        auth: null,
        body: { fullName: 'Lee', email: 'lee@example.com', password: 'lee password', inviteToken: invite.stdout.trim() },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal((await almanac('user', 'invite', '--role', 'Editor')).stdout, invite.stdout, 'the same token until regenerated');
      assert.notEqual((await almanac('user', 'invite', '--role', 'Editor', '--regenerate')).stdout, invite.stdout);
    });

    it('removes a user, and refuses the built-in administrator', async () => {
      assert.equal((await almanac('user', 'remove', 'cli-kim')).code, 0);
      assert.equal(await status(), 401);
      const admin = await almanac('user', 'remove', 'datahub');
      assert.notEqual(admin.code, 0);
      assert.match(admin.stderr, /built-in administrator/);
    });
  });
}
