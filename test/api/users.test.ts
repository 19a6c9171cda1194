import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { gql, gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const WHO_AM_I = '/openapi/operations/identity/user/urn';
const CREATE_INVITE = 'mutation($roleUrn: String) { createInviteToken(input: { roleUrn: $roleUrn }) { inviteToken } }';
const GET_INVITE = 'query($roleUrn: String) { getInviteToken(input: { roleUrn: $roleUrn }) { inviteToken } }';
const LIST_USERS = 'query($input: ListUsersInput!) { listUsers(input: $input) { start count total users { urn username status } } }';
const SET_STATUS = 'mutation($urn: String!, $status: CorpUserStatus!) { updateUserStatus(urn: $urn, status: $status) }';
const REMOVE = 'mutation($urn: String!) { removeUser(urn: $urn) }';
const UNAUTHORIZED = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' };

for (const backend of await backends()) {
  describe(`users, invitations and sign-up: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let editor: string;
    useServer(backend, async (s) => {
      server = s;
      editor = await actorWithRole(server, 'ed', 'Editor');
    });
    const signUp = (body: Record<string, unknown>) => server.request('POST', '/signUp', { auth: null, body });
    const whoAmI = (auth: string) => server.request('GET', WHO_AM_I, { auth });

    it('answers who the caller is, as DataHub does', async () => {
      assert.deepEqual((await server.request('GET', `${WHO_AM_I}?skipCache=true`)).json, { urn: 'urn:li:corpuser:datahub' });
      assert.deepEqual((await whoAmI(editor)).json, { urn: 'urn:li:corpuser:ed' });
      assert.equal((await server.request('GET', WHO_AM_I, { auth: null })).status, 401);
      const unknown = await server.request('GET', `${WHO_AM_I}?cache=no`);
      assert.equal(unknown.status, 400);
      assert.match(unknown.json.message, /'cache'/);
    });

    it('signs up with an invite token: the user gets the invited role, a session and cookies', async () => {
      const { createInviteToken } = await gqlData(server, CREATE_INVITE, { roleUrn: 'urn:li:dataHubRole:Editor' });
      const { getInviteToken } = await gqlData(server, GET_INVITE, { roleUrn: 'urn:li:dataHubRole:Editor' });
      assert.equal(getInviteToken.inviteToken, createInviteToken.inviteToken, 'getInviteToken answers the current token');
      const res = await signUp({
        fullName: 'Frida Example',
        email: 'frida@example.com',
        title: 'Analyst',
        password: 'frida password',
        inviteToken: createInviteToken.inviteToken,
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.actorUrn, 'urn:li:corpuser:frida@example.com');
      assert.ok(res.headers.getSetCookie().some((c) => c.startsWith('PLAY_SESSION=')));
      const bearer = `Bearer ${res.json.accessToken}`;
      assert.deepEqual((await whoAmI(bearer)).json, { urn: 'urn:li:corpuser:frida@example.com' });
      const me = await gqlData(server, '{ me { role corpUser { status properties { fullName email title } } } }', {}, { auth: bearer });
      assert.equal(me.me.role, 'urn:li:dataHubRole:Editor');
      assert.deepEqual(me.me.corpUser, { status: 'ACTIVE', properties: { fullName: 'Frida Example', email: 'frida@example.com', title: 'Analyst' } });
      const login = await server.request('POST', '/logIn', { auth: null, body: { username: 'frida@example.com', password: 'frida password' } });
      assert.equal(login.status, 200, 'the password signs in');
    });

    it('refuses a sign-up with a regenerated, wrong or missing token, a taken email or a short password, naming the field', async () => {
      const old = (await gqlData(server, GET_INVITE, { roleUrn: null })).getInviteToken.inviteToken;
      const fresh = (await gqlData(server, CREATE_INVITE, { roleUrn: null })).createInviteToken.inviteToken;
      assert.notEqual(old, fresh);
      const base = { fullName: 'Gus', email: 'gus@example.com', password: 'gus password' };
      const cases: Array<[Record<string, unknown>, number, RegExp]> = [
        [{ ...base, inviteToken: old }, 400, /'inviteToken'/],
        [{ ...base, inviteToken: 'not-a-token' }, 400, /'inviteToken'/],
        [{ ...base }, 400, /'inviteToken'/],
        [{ ...base, inviteToken: fresh, password: 'short' }, 400, /'password' must be from 8 to 1024/],
        [{ ...base, inviteToken: fresh, email: 'not an email' }, 400, /'email'/],
        [{ ...base, inviteToken: fresh, fullName: '' }, 400, /'fullName'/],
        [{ ...base, inviteToken: fresh, email: 'frida@example.com' }, 409, /already exists/],
      ];
      for (const [body, status, message] of cases) {
        const res = await signUp(body);
        assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`);
        assert.match(res.json.message, message);
      }
      assert.equal((await server.request('POST', '/entities?action=exists', { body: { urn: 'urn:li:corpuser:gus@example.com' } })).json.value, false);
      const ok = await signUp({ ...base, inviteToken: fresh });
      assert.equal(ok.status, 200, ok.text);
      const noRole = await gqlData(server, '{ me { role } }', {}, { auth: `Bearer ${ok.json.accessToken}` });
      assert.equal(noRole.me.role, null);
    });

    it('compares e-mail addresses ignoring case: EVE@ and eve@ are one user, for sign-up and sign-in', async () => {
      const token = (await gqlData(server, CREATE_INVITE, { roleUrn: null })).createInviteToken.inviteToken;
      const eve = { fullName: 'Eve', email: 'eve@example.com', password: 'eve password', inviteToken: token };
      assert.equal((await signUp(eve)).status, 200);
      const again = await signUp({ ...eve, email: 'EVE@example.com' });
      assert.equal(again.status, 409, again.text);
      assert.match(again.json.message, /already exists/);
      assert.equal((await server.request('POST', '/entities?action=exists', { body: { urn: 'urn:li:corpuser:EVE@example.com' } })).json.value, false);
      const login = await server.request('POST', '/logIn', { auth: null, body: { username: 'Eve@Example.com', password: 'eve password' } });
      assert.equal(login.status, 200, login.text);
      assert.equal(login.json.actorUrn, 'urn:li:corpuser:eve@example.com');
      const admin = await signUp({ ...eve, email: 'DataHub' });
      assert.equal(admin.status, 400, 'not an e-mail address');
    });

    it('refuses to sign up as an identity the metadata already names (an owner, a group member), unless an Admin creates it', async () => {
      const token = (await gqlData(server, CREATE_INVITE, { roleUrn: null })).createInviteToken.inviteToken;
      const dataset = 'urn:li:dataset:(urn:li:dataPlatform:hive,signup.owned,PROD)';
      await ingest(
        server,
        mcp(dataset, 'ownership', {
          owners: [{ owner: 'urn:li:corpuser:owner@example.com', type: 'DATAOWNER' }],
          lastModified: { time: 1, actor: 'urn:li:corpuser:datahub' },
        }),
        mcp(
          'urn:li:corpGroup:finance',
          'corpGroupInfo',
          { admins: [], members: ['urn:li:corpuser:member@example.com'], groups: [], email: 'f@example.com' },
          'corpGroup',
        ),
      );
      for (const email of ['owner@example.com', 'Owner@Example.com', 'member@example.com']) {
        const res = await signUp({ fullName: 'Mallory', email, password: 'mallory password', inviteToken: token });
        assert.equal(res.status, 409, `${email}: ${res.text}`);
        assert.match(res.json.message, new RegExp(`Cannot sign up as ${email}: that identity is already named in the catalog's metadata`));
        assert.equal((await server.request('POST', '/entities?action=exists', { body: { urn: `urn:li:corpuser:${email}` } })).json.value, false);
      }
      // Unnamed addresses still sign up.
      assert.equal((await signUp({ fullName: 'Nia', email: 'nia@example.com', password: 'nia password', inviteToken: token })).status, 200);
    });

    it('lets only user managers handle invitations and statuses, and never the built-in administrator', async () => {
      await gqlError(server, CREATE_INVITE, { roleUrn: null }, UNAUTHORIZED, { auth: editor });
      await gqlError(server, GET_INVITE, { roleUrn: null }, UNAUTHORIZED, { auth: editor });
      await gqlError(server, SET_STATUS, { urn: 'urn:li:corpuser:ed', status: 'SUSPENDED' }, UNAUTHORIZED, { auth: editor });
      await gqlError(server, REMOVE, { urn: 'urn:li:corpuser:ed' }, UNAUTHORIZED, { auth: editor });
      await gqlError(
        server,
        SET_STATUS,
        { urn: 'urn:li:corpuser:datahub', status: 'SUSPENDED' },
        { code: 403, type: 'UNAUTHORIZED', message: /built-in administrator/ },
      );
      await gqlError(server, REMOVE, { urn: 'urn:li:corpuser:datahub' }, { code: 403, type: 'UNAUTHORIZED', message: /built-in administrator/ });
      await gqlError(server, CREATE_INVITE, { roleUrn: 'urn:li:dataHubRole:Nobody' }, { code: 400, type: 'BAD_REQUEST', message: /'roleUrn'/ });
      await gqlError(
        server,
        SET_STATUS,
        { urn: 'urn:li:corpuser:ghost', status: 'SUSPENDED' },
        { code: 404, type: 'NOT_FOUND', message: /does not exist/ },
      );
    });

    it('lists users a page at a time, with a total, and by query', async () => {
      const all = (await gqlData(server, LIST_USERS, { input: { start: 0, count: 100 } })).listUsers;
      const urns = all.users.map((u: { urn: string }) => u.urn);
      for (const urn of ['urn:li:corpuser:datahub', 'urn:li:corpuser:ed', 'urn:li:corpuser:frida@example.com']) assert.ok(urns.includes(urn), urn);
      assert.equal(all.total, all.users.length);
      const page = (await gqlData(server, LIST_USERS, { input: { start: 1, count: 1 } })).listUsers;
      assert.deepEqual({ start: page.start, count: page.count, total: page.total }, { start: 1, count: 1, total: all.total });
      assert.equal(page.users[0].urn, urns[1]);
      const found = (await gqlData(server, LIST_USERS, { input: { query: 'frida' } })).listUsers;
      assert.deepEqual(
        found.users.map((u: { username: string }) => u.username),
        ['frida@example.com'],
      );
      const tooMany = await gql(server, LIST_USERS, { input: { count: 5000 } });
      assert.match(tooMany.json.errors[0].message, /'count'/);
    });

    it('suspends a user: their tokens and sessions fail at once, and work again on reactivation', async () => {
      const token = await actorWithRole(server, 'hal', 'Reader', 'hal password');
      const session = `Bearer ${(await server.request('POST', '/logIn', { auth: null, body: { username: 'hal', password: 'hal password' } })).json.accessToken}`;
      assert.equal(
        await gqlData(server, SET_STATUS, { urn: 'urn:li:corpuser:hal', status: 'SUSPENDED' }).then((d) => d.updateUserStatus),
        'urn:li:corpuser:hal',
      );
      for (const auth of [token, session]) {
        const res = await whoAmI(auth);
        assert.equal(res.status, 401);
        assert.match(res.json.message, /is not active \(suspended or soft-deleted\)/);
      }
      const login = await server.request('POST', '/logIn', { auth: null, body: { username: 'hal', password: 'hal password' } });
      assert.equal(login.status, 401);
      assert.match(login.json.message, /is not active/);
      const listed = (await gqlData(server, LIST_USERS, { input: { query: 'hal' } })).listUsers.users;
      assert.deepEqual(
        listed.map((u: { status: string }) => u.status),
        ['SUSPENDED'],
      );
      await gqlData(server, SET_STATUS, { urn: 'urn:li:corpuser:hal', status: 'ACTIVE' });
      for (const auth of [token, session]) assert.equal((await whoAmI(auth)).status, 200);
    });

    it('lets no Editor suspend or soft-delete a user by ingestion, and no one the built-in administrator', async () => {
      const write = (auth: string | undefined, urn: string, aspect: string, value: unknown) =>
        server.request('POST', '/aspects?action=ingestProposal', {
          ...(auth ? { auth } : {}),
          body: { proposal: mcp(urn, aspect, value, 'corpuser') },
        });
      for (const [aspect, value] of [
        ['corpUserStatus', { status: 'SUSPENDED' }],
        ['status', { removed: true }],
      ] as const) {
        const byEditor = await write(editor, 'urn:li:corpuser:frida@example.com', aspect, value);
        assert.equal(byEditor.status, 403, byEditor.text);
        const onAdmin = await write(undefined, 'urn:li:corpuser:datahub', aspect, value);
        assert.equal(onAdmin.status, 403, onAdmin.text);
        assert.match(onAdmin.json.message, /cannot be suspended or soft-deleted/);
      }
      assert.equal((await whoAmI(editor)).status, 200);
      assert.equal((await server.request('GET', WHO_AM_I)).status, 200);
      const info = await write(editor, 'urn:li:corpuser:frida@example.com', 'corpUserEditableInfo', { aboutMe: 'hi' });
      assert.equal(info.status, 200, 'other user aspects stay EDIT_ENTITY');
    });

    it("refuses a soft-deleted user's token, as DataHub refuses an inactive actor, until the user is restored", async () => {
      const token = await actorWithRole(server, 'jo', 'Reader');
      await ingest(server, mcp('urn:li:corpuser:jo', 'status', { removed: true }, 'corpuser'));
      const res = await whoAmI(token);
      assert.equal(res.status, 401);
      assert.match(res.json.message, /is not active/);
      await ingest(server, mcp('urn:li:corpuser:jo', 'status', { removed: false }, 'corpuser'));
      assert.equal((await whoAmI(token)).status, 200);
    });

    it('removes a user: their tokens fail, what they owned stays (without them as owner), and re-creating them revives nothing', async () => {
      const token = await actorWithRole(server, 'ida', 'Editor', 'ida password');
      const dataset = 'urn:li:dataset:(urn:li:dataPlatform:hive,users.owned,PROD)';
      const audit = { time: 1, actor: 'urn:li:corpuser:ida' };
      await ingest(
        server,
        mcp(dataset, 'ownership', {
          owners: [
            { owner: 'urn:li:corpuser:ida', type: 'DATAOWNER' },
            { owner: 'urn:li:corpuser:ed', type: 'DATAOWNER' },
          ],
          lastModified: audit,
        }),
      );
      assert.equal((await gqlData(server, REMOVE, { urn: 'urn:li:corpuser:ida' })).removeUser, true);
      assert.equal((await whoAmI(token)).status, 401);
      const ownership = await server.request('GET', `/aspects/${encodeURIComponent(dataset)}?aspect=ownership&version=0`);
      assert.equal(ownership.status, 200, ownership.text);
      const owners = ownership.json.aspect['com.linkedin.common.Ownership'].owners;
      assert.deepEqual(
        owners.map((o: { owner: string }) => o.owner),
        ['urn:li:corpuser:ed'],
      );
      await ingest(server, mcp('urn:li:corpuser:ida', 'corpUserInfo', { active: true }, 'corpuser'));
      assert.equal((await whoAmI(token)).status, 401, 'the re-created user has no token');
      const login = await server.request('POST', '/logIn', { auth: null, body: { username: 'ida', password: 'ida password' } });
      assert.equal(login.status, 401, 'nor a password');
    });
  });
}
