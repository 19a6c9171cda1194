import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const FIELDS = 'urn type name displayName description createdBy createdAt updatedAt defaultView { urn }';
const CREATE = `mutation c($input: CreateServiceAccountInput!) { createServiceAccount(input: $input) { ${FIELDS} } }`;
const LIST = `query l($input: ListServiceAccountsInput!) { listServiceAccounts(input: $input) { start count total serviceAccounts { ${FIELDS} } } }`;
const GET = `query g($urn: String!) { getServiceAccount(urn: $urn) { ${FIELDS} } }`;
const DELETE = `mutation d($urn: String!) { deleteServiceAccount(urn: $urn) }`;
const DEFAULT_VIEW = `mutation v($input: UpdateServiceAccountDefaultViewInput!) { updateServiceAccountDefaultView(input: $input) }`;
const TOKEN = `mutation t($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken metadata { id actorUrn ownerUrn } } }`;
const CREATE_VIEW = `mutation cv($input: CreateViewInput!) { createView(input: $input) { urn } }`;

const UNAUTHORIZED = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' };

const denied = (verb: string) => ({
  code: 403,
  type: 'UNAUTHORIZED',
  message: `Unauthorized to ${verb} service accounts. Please contact your DataHub administrator.`,
});

for (const backend of await backends()) {
  describe(`service accounts over GraphQL: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let reader: string;
    useServer(backend, async (s) => {
      server = s;
      reader = await actorWithRole(server, 'reader', 'Reader');
    });

    const create = async (input: Record<string, unknown>) => (await gqlData(server, CREATE, { input })).createServiceAccount;

    it("creates, lists, reads and deletes an account, which Rest.li reads as a corpuser with DataHub's aspects", async () => {
      const before = (await gqlData(server, LIST, { input: {} })).listServiceAccounts.total;
      const made = await create({ displayName: 'Ingestion bot', description: 'runs the nightly ingestion' });
      assert.match(made.urn, /^urn:li:corpuser:service_[0-9a-f-]{36}$/);
      assert.equal(made.type, 'CORP_USER');
      assert.equal(`urn:li:corpuser:service_${made.name}`, made.urn);
      assert.equal(made.createdBy, 'urn:li:corpuser:datahub');

      const stored = await server.request('GET', `/entitiesV2/${encodeURIComponent(made.urn)}`);
      assert.equal(stored.status, 200, stored.text);
      assert.deepEqual(stored.json.aspects.subTypes.value, { typeNames: ['SERVICE_ACCOUNT'] });
      assert.equal(stored.json.aspects.corpUserInfo.value.displayName, 'Ingestion bot');
      assert.equal(stored.json.aspects.corpUserInfo.value.title, 'runs the nightly ingestion');
      assert.equal(stored.json.aspects.corpUserInfo.value.active, true);

      const listed = (await gqlData(server, LIST, { input: { start: 0, count: 20 } })).listServiceAccounts;
      assert.equal(listed.total, before + 1);
      const mine = listed.serviceAccounts.find((a: { urn: string }) => a.urn === made.urn);
      assert.equal(mine.displayName, 'Ingestion bot');
      assert.equal(mine.description, 'runs the nightly ingestion');
      assert.equal(mine.createdBy, 'urn:li:corpuser:datahub');
      assert.ok(mine.createdAt > 0 && mine.updatedAt >= mine.createdAt);
      const users = (await gqlData(server, '{ listUsers(input: { start: 0, count: 100 }) { users { urn } } }')).listUsers.users;
      assert.ok(!users.some((u: { urn: string }) => u.urn === made.urn), "listUsers leaves service accounts out, as DataHub's does");
      assert.ok(users.some((u: { urn: string }) => u.urn === 'urn:li:corpuser:reader'));

      const byQuery = (await gqlData(server, LIST, { input: { query: 'nightly' } })).listServiceAccounts;
      assert.deepEqual(
        byQuery.serviceAccounts.map((a: { urn: string }) => a.urn),
        [made.urn],
      );

      const got = (await gqlData(server, GET, { urn: made.urn })).getServiceAccount;
      assert.equal(got.displayName, 'Ingestion bot');
      assert.equal(got.defaultView, null);

      assert.equal((await gqlData(server, DELETE, { urn: made.urn })).deleteServiceAccount, true);
      assert.equal((await gqlData(server, GET, { urn: made.urn })).getServiceAccount, null);
      assert.equal((await gqlData(server, LIST, { input: {} })).listServiceAccounts.total, before);
      assert.equal((await server.request('GET', `/entitiesV2/${encodeURIComponent(made.urn)}`)).json.aspects.subTypes, undefined);
    });

    it('reads what a service account owns through its relationships, as for any entity', async () => {
      const made = await create({ displayName: 'Owner bot' });
      const owned = 'urn:li:dataset:(urn:li:dataPlatform:hive,bot.owned,PROD)';
      await ingest(server, mcp(owned, 'ownership', { owners: [{ owner: made.urn, type: 'TECHNICAL_OWNER' }] }));
      const got = (
        await gqlData(
          server,
          'query($urn: String!) { getServiceAccount(urn: $urn) { relationships(input: { types: ["OwnedBy"], direction: INCOMING }) { total relationships { entity { urn } } } } }',
          {
            urn: made.urn,
          },
        )
      ).getServiceAccount;
      assert.equal(got.relationships.total, 1);
      assert.equal(got.relationships.relationships[0].entity.urn, owned);
    });

    it("names an account by its generated id when no display name is given, as DataHub's resolver does", async () => {
      const made = await create({});
      assert.equal(made.displayName, null);
      const got = (await gqlData(server, GET, { urn: made.urn })).getServiceAccount;
      assert.equal(got.displayName, `service_${made.name}`);
      assert.equal(got.description, null);
    });

    it('mints a token for the account that authenticates as it, and dies with the account', async () => {
      const made = await create({ displayName: 'Token bot' });
      const minted = (
        await gqlData(server, TOKEN, { input: { type: 'SERVICE_ACCOUNT', actorUrn: made.urn, duration: 'ONE_HOUR', name: 'bot token' } })
      ).createAccessToken;
      assert.equal(minted.metadata.actorUrn, made.urn);
      assert.equal(minted.metadata.ownerUrn, 'urn:li:corpuser:datahub');
      const me = await gqlData(server, '{ me { corpUser { urn } } }', {}, { auth: `Bearer ${minted.accessToken}` });
      assert.equal(me.me.corpUser.urn, made.urn);

      await gqlData(server, DELETE, { urn: made.urn });
      const after = await server.request('POST', '/api/graphql', {
        body: { query: '{ me { corpUser { urn } } }' },
        auth: `Bearer ${minted.accessToken}`,
      });
      assert.equal(after.status, 401);
    });

    it('refuses a service account token for a user that is not a service account, minting nothing', async () => {
      const input = { type: 'SERVICE_ACCOUNT', actorUrn: 'urn:li:corpuser:reader', duration: 'ONE_HOUR', name: 'not a bot' };
      await gqlError(
        server,
        TOKEN,
        { input },
        { code: 400, type: 'BAD_REQUEST', message: 'The specified URN is not a service account: urn:li:corpuser:reader' },
      );
      const tokens = (
        await gqlData(server, `{ listAccessTokens(input: { start: 0, count: 100, filters: [{ field: "name", values: ["not a bot"] }] }) { total } }`)
      ).listAccessTokens;
      assert.equal(tokens.total, 0);
    });

    it("refuses a Reader every action with DataHub's message for it, writing nothing", async () => {
      const made = await create({ displayName: 'Guarded bot' });
      const as = { auth: reader };
      await gqlError(server, CREATE, { input: { displayName: 'sneaky' } }, denied('create'), as);
      await gqlError(server, LIST, { input: {} }, denied('list'), as);
      await gqlError(server, GET, { urn: made.urn }, denied('view'), as);
      await gqlError(server, DELETE, { urn: made.urn }, denied('delete'), as);
      await gqlError(server, DEFAULT_VIEW, { input: { urn: made.urn } }, denied('manage'), as);
      await gqlError(server, TOKEN, { input: { type: 'SERVICE_ACCOUNT', actorUrn: made.urn, duration: 'ONE_HOUR', name: 'x' } }, UNAUTHORIZED, as);
      // The privilege is checked first: a Reader learns nothing about whether a user is a service account.
      await gqlError(
        server,
        TOKEN,
        { input: { type: 'SERVICE_ACCOUNT', actorUrn: 'urn:li:corpuser:reader', duration: 'ONE_HOUR', name: 'x' } },
        UNAUTHORIZED,
        as,
      );
      const all = (await gqlData(server, LIST, { input: { count: 100 } })).listServiceAccounts.serviceAccounts;
      assert.ok(
        all.some((a: { urn: string }) => a.urn === made.urn),
        'the account is still there',
      );
      assert.ok(!all.some((a: { displayName: string }) => a.displayName === 'sneaky'));
    });

    it('answers null for a missing account, and refuses to delete one or to treat a person as one', async () => {
      assert.equal((await gqlData(server, GET, { urn: 'urn:li:corpuser:service_nonexistent' })).getServiceAccount, null);
      await gqlError(
        server,
        DELETE,
        { urn: 'urn:li:corpuser:service_nonexistent' },
        { code: 400, type: 'BAD_REQUEST', message: 'Service account not found: urn:li:corpuser:service_nonexistent' },
      );
      await gqlError(
        server,
        DELETE,
        { urn: 'urn:li:corpuser:reader' },
        { code: 400, type: 'BAD_REQUEST', message: 'The specified URN is not a service account: urn:li:corpuser:reader' },
      );
      const still = await server.request('GET', `/entitiesV2/${encodeURIComponent('urn:li:corpuser:reader')}`);
      assert.ok(still.json.aspects.corpUserInfo, 'the person was not deleted');
      await gqlError(
        server,
        LIST,
        { input: { count: -1 } },
        { code: 400, type: 'BAD_REQUEST', message: "Field 'count' must be an integer from 0 to 1000" },
      );
    });

    it('sets a global default view, reads it back in the list and in corpUserSettings, and clears it; a personal view is refused', async () => {
      const made = await create({ displayName: 'View bot' });
      const view = (name: string, viewType: string) =>
        gqlData(server, CREATE_VIEW, {
          input: {
            viewType,
            name,
            definition: { entityTypes: ['DATASET'], filter: { operator: 'AND', filters: [{ field: 'tags', values: ['urn:li:tag:t'] }] } },
          },
        });
      const global = (await view('everyone', 'GLOBAL')).createView.urn;
      const personal = (await view('mine', 'PERSONAL')).createView.urn;

      assert.equal((await gqlData(server, DEFAULT_VIEW, { input: { urn: made.urn, defaultView: global } })).updateServiceAccountDefaultView, true);
      const listed = (await gqlData(server, LIST, { input: { count: 100 } })).listServiceAccounts.serviceAccounts;
      assert.equal(listed.find((a: { urn: string }) => a.urn === made.urn).defaultView.urn, global);
      const settings = await server.request('GET', `/aspects/${encodeURIComponent(made.urn)}?aspect=corpUserSettings&version=0`);
      assert.deepEqual(settings.json.aspect['com.linkedin.identity.CorpUserSettings'], {
        appearance: { showSimplifiedHomepage: false },
        views: { defaultView: global },
      });

      await gqlError(
        server,
        DEFAULT_VIEW,
        { input: { urn: made.urn, defaultView: personal } },
        {
          code: 400,
          type: 'BAD_REQUEST',
          message: 'Only public (global) views can be set as the default view for a service account. Personal views are not supported.',
        },
      );
      assert.equal((await gqlData(server, GET, { urn: made.urn })).getServiceAccount.defaultView.urn, global, 'the refusal changed nothing');

      await gqlData(server, DEFAULT_VIEW, { input: { urn: made.urn } });
      assert.equal((await gqlData(server, GET, { urn: made.urn })).getServiceAccount.defaultView, null);
    });
  });
}
