import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { gqlData, gqlError } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const CREATE = `mutation create($input: CreateAccessTokenInput!) {
  createAccessToken(input: $input) { accessToken metadata { urn id name description actorUrn ownerUrn createdAt expiresAt } }
}`;
const LIST = `query list($input: ListAccessTokenInput!) { listAccessTokens(input: $input) { start count total tokens { id name actorUrn ownerUrn expiresAt } } }`;
const REVOKE = `mutation revoke($id: String!) { revokeAccessToken(tokenId: $id) }`;
const ASSIGN = `mutation assign($input: BatchAssignRoleInput!) { batchAssignRole(input: $input) }`;

for (const backend of await backends()) {
  describe(`access tokens and roles over GraphQL: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let bob: string;
    useServer(backend, async (s) => {
      server = s;
      bob = await actorWithRole(server, 'bob', 'Reader');
    });

    it("follows DataHub's token flow: create, list, use, revoke, list again", async () => {
      const before = (await gqlData(server, LIST, { input: { start: 0, count: 20 } }, { auth: bob })).listAccessTokens;
      assert.equal(before.total, 1);
      const created = (
        await gqlData(
          server,
          CREATE,
          { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:bob', duration: 'ONE_HOUR', name: 'my token', description: 'for a script' } },
          { auth: bob },
        )
      ).createAccessToken;
      assert.ok(created.accessToken);
      assert.equal(created.metadata.urn, `urn:li:dataHubAccessToken:${created.metadata.id}`);
      assert.equal(created.metadata.ownerUrn, 'urn:li:corpuser:bob');
      assert.ok(Math.abs(created.metadata.expiresAt - created.metadata.createdAt - 3_600_000) < 1000);

      const listed = (await gqlData(server, LIST, { input: { start: 0, count: 20 } }, { auth: bob })).listAccessTokens;
      assert.equal(listed.total, 2);
      assert.ok(listed.tokens.some((t: { id: string }) => t.id === created.metadata.id));

      const me = await gqlData(server, '{ me { corpUser { urn } } }', {}, { auth: `Bearer ${created.accessToken}` });
      assert.equal(me.me.corpUser.urn, 'urn:li:corpuser:bob');

      assert.equal((await gqlData(server, REVOKE, { id: created.metadata.id }, { auth: bob })).revokeAccessToken, true);
      const res = await server.request('POST', '/api/graphql', {
        body: { query: '{ me { corpUser { urn } } }' },
        auth: `Bearer ${created.accessToken}`,
      });
      assert.equal(res.status, 401);
      assert.equal((await gqlData(server, LIST, { input: { start: 0, count: 20 } }, { auth: bob })).listAccessTokens.total, 1);
    });

    it('lets an administrator create a token for another user, owned by the administrator', async () => {
      const created = (
        await gqlData(server, CREATE, { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:bob', duration: 'NO_EXPIRY', name: 'for bob' } })
      ).createAccessToken;
      assert.equal(created.metadata.actorUrn, 'urn:li:corpuser:bob');
      assert.equal(created.metadata.ownerUrn, 'urn:li:corpuser:datahub');
      assert.equal(created.metadata.expiresAt, null);
      const all = (await gqlData(server, LIST, { input: { start: 0, count: 100 } })).listAccessTokens;
      assert.equal(all.tokens[0].expiresAt, null, 'never-expiring tokens sort first');
    });

    it("filters the list by a token's name, as DataHub's token smoke tests find their own tokens", async () => {
      const create = (name: string) =>
        gqlData(server, CREATE, { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:bob', duration: 'ONE_HOUR', name } }, { auth: bob });
      await create('suite-token');
      await create('suite-token');
      await create('suite-token-2');
      const byName = (name: string) =>
        gqlData(server, LIST, { input: { start: 0, count: 20, filters: [{ field: 'name', condition: 'EQUAL', values: [name] }] } }, { auth: bob });
      const listed = (await byName('suite-token')).listAccessTokens;
      assert.equal(listed.total, 2);
      assert.deepEqual(
        listed.tokens.map((t: { name: string }) => t.name),
        ['suite-token', 'suite-token'],
      );
      assert.equal((await byName('no such token')).listAccessTokens.total, 0);
    });

    it("takes a Reader's and a role-less user's own tokens from DataHub's All Users policy: made inactive, they are refused", async () => {
      const dora = await actorWithRole(server, 'dora', 'none');
      const policy7 = (state: string) => ({
        urn: 'urn:li:dataHubPolicy:7',
        input: {
          type: 'PLATFORM',
          state,
          name: 'All Users - Base Platform Privileges',
          description: 'as DataHub privileges smoke test sets it',
          privileges: ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS'],
          actors: { users: [], groups: null, resourceOwners: false, allUsers: true, allGroups: false },
        },
      });
      const UPDATE = 'mutation($urn: String!, $input: PolicyUpdateInput!) { updatePolicy(urn: $urn, input: $input) }';
      const mine = (user: string, auth: string) =>
        server.request('POST', '/api/v2/graphql', {
          auth,
          body: { query: CREATE, variables: { input: { type: 'PERSONAL', actorUrn: `urn:li:corpuser:${user}`, duration: 'ONE_HOUR', name: 'own' } } },
        });
      assert.ok((await mine('dora', dora)).json.data.createAccessToken.accessToken);
      await gqlData(server, UPDATE, policy7('INACTIVE'));
      try {
        for (const [user, auth] of [
          ['dora', dora],
          ['bob', bob],
        ] as const) {
          const refused = await mine(user, auth);
          assert.equal(refused.json.data?.createAccessToken ?? null, null, refused.text);
          assert.equal(refused.json.errors[0].extensions.code, 403, refused.text);
        }
      } finally {
        await gqlData(server, UPDATE, policy7('ACTIVE'));
      }
      assert.ok((await mine('dora', dora)).json.data.createAccessToken.accessToken);
    });

    it('refuses a token for a user that does not exist', async () => {
      await gqlError(
        server,
        CREATE,
        { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:ghost', duration: 'ONE_DAY', name: 'x' } },
        {
          code: 400,
          type: 'BAD_REQUEST',
          message: 'Failed to create access token: actor urn:li:corpuser:ghost does not exist',
        },
      );
    });

    it('refuses an unknown duration before execution', async () => {
      const res = await server.request('POST', '/api/graphql', {
        body: { query: CREATE, variables: { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:datahub', duration: 'FOREVER', name: 'x' } } },
      });
      assert.equal(res.status, 200);
      assert.match(res.json.errors[0].message, /FOREVER/);
      assert.equal(res.json.data, undefined);
    });

    it('answers revoking a token that is gone with NOT_FOUND', async () => {
      await gqlError(server, REVOKE, { id: 'no-such-token' }, { code: 404, type: 'NOT_FOUND', message: 'Access token no longer exists' });
    });

    it('assigns and removes roles, and the new privileges apply on the next request', async () => {
      const deprecate = 'mutation($i: UpdateDeprecationInput!) { updateDeprecation(input: $i) }';
      const dataset = 'urn:li:dataset:(urn:li:dataPlatform:hive,roles.t,PROD)';
      const ingest = await server.request('POST', '/aspects?action=ingestProposal', {
        body: {
          proposal: {
            entityType: 'dataset',
            entityUrn: dataset,
            changeType: 'UPSERT',
            aspectName: 'status',
            aspect: { value: '{"removed":false}', contentType: 'application/json' },
          },
        },
      });
      assert.equal(ingest.status, 200);
      const urn = 'urn:li:corpuser:bob';
      await gqlError(
        server,
        deprecate,
        { i: { urn: dataset, deprecated: true } },
        { code: 403, type: 'UNAUTHORIZED', message: /Unauthorized/ },
        { auth: bob },
      );
      assert.equal((await gqlData(server, ASSIGN, { input: { roleUrn: 'urn:li:dataHubRole:Editor', actors: [urn] } })).batchAssignRole, true);
      assert.equal((await gqlData(server, '{ me { role privileges } }', {}, { auth: bob })).me.role, 'urn:li:dataHubRole:Editor');
      assert.equal((await gqlData(server, deprecate, { i: { urn: dataset, deprecated: true } }, { auth: bob })).updateDeprecation, true);
      assert.equal((await gqlData(server, ASSIGN, { input: { roleUrn: null, actors: [urn] } })).batchAssignRole, true);
      const me = (await gqlData(server, '{ me { role privileges } }', {}, { auth: bob })).me;
      assert.deepEqual(me, { role: null, privileges: ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS'] });
    });

    it('refuses an unknown role or user, changing nothing', async () => {
      await gqlError(
        server,
        ASSIGN,
        { input: { roleUrn: 'urn:li:dataHubRole:Owner', actors: ['urn:li:corpuser:bob'] } },
        { code: 400, type: 'BAD_REQUEST', message: 'Role urn:li:dataHubRole:Owner does not exist' },
      );
      await gqlError(
        server,
        ASSIGN,
        { input: { roleUrn: 'urn:li:dataHubRole:Admin', actors: ['urn:li:corpuser:bob', 'urn:li:corpuser:ghost'] } },
        {
          code: 400,
          type: 'BAD_REQUEST',
          message: 'Failed to assign role: user urn:li:corpuser:ghost does not exist',
        },
      );
      assert.equal(await server.app.services.store.identity.getRole('urn:li:corpuser:bob'), undefined);
    });
  });
}
