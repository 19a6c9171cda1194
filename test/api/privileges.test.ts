import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { actorWithRole, type RoleName } from '../support/actors.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { startTestServer, type HttpResult, type TestServer } from '../support/server.ts';

const SECRET = 'system-client-secret';
type Who = RoleName | 'system';
const EVERYONE: Who[] = ['Admin', 'Editor', 'Reader', 'none', 'system'];

let counter = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,priv.t${++counter},PROD)`;

const statusMcp = (urn: string) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName: 'status',
  aspect: { value: '{"removed":false}', contentType: 'application/json' },
});

interface Operation {
  readonly name: string;
  readonly allowed: readonly Who[];
  /** Who the operation is tried as; everyone unless it makes no sense for some (default EVERYONE). */
  readonly callers?: readonly Who[];
  /** Runs the operation as `auth`; `seed` runs as the administrator first. */
  run(server: TestServer, auth: string, actorUrn: string): Promise<HttpResult>;
  /** What the caller sees when allowed, and when denied. */
  assertAllowed(res: HttpResult): void;
  assertDenied(res: HttpResult, actorUrn: string): void;
}

const restDenied = (status: number, message: (actor: string) => string) => (res: HttpResult, actor: string) => {
  assert.equal(res.status, status, res.text);
  assert.equal(res.json.message, message(actor));
};

const GQL_DENIED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';
const gqlDenied = (field: string) => (res: HttpResult) => {
  assert.equal(res.status, 200, res.text);
  // A non-null field's error nulls its parent, as the GraphQL spec says.
  assert.ok(res.json.data === null || res.json.data[field] === null, res.text);
  assert.equal(res.json.errors?.[0]?.message, GQL_DENIED);
  assert.deepEqual(res.json.errors?.[0]?.extensions, { code: 403, type: 'UNAUTHORIZED' });
};
const gqlAllowed = (field: string, expected: unknown) => (res: HttpResult) => {
  assert.equal(res.json.errors, undefined, res.text);
  assert.deepEqual(res.json.data[field], expected);
};
const graphql = (s: TestServer, auth: string, query: string, variables: Record<string, unknown>) =>
  s.request('POST', '/api/graphql', { body: { query, variables }, auth });
const operations = (s: TestServer, auth: string, action: string, body: Record<string, unknown>) =>
  s.request('POST', `/operations?action=${action}`, { body, auth });

/** Every operation whose access depends on a privilege, with who may perform it. */
const OPERATIONS: Operation[] = [
  {
    name: 'read an entity',
    allowed: EVERYONE,
    run: (s, auth) => s.request('POST', '/entities?action=exists', { body: { urn: 'urn:li:corpuser:datahub' }, auth }),
    assertAllowed: (res) => assert.deepEqual(res.json, { value: true }),
    assertDenied: () => assert.fail('reading is open to every authenticated actor'),
  },
  {
    name: 'ingest a proposal',
    allowed: ['Admin', 'Editor', 'system'],
    run: async (s, auth) => {
      const urn = datasetUrn();
      const res = await s.request('POST', '/aspects?action=ingestProposal', { body: { proposal: statusMcp(urn) }, auth });
      const exists = await s.request('POST', '/entities?action=exists', { body: { urn } });
      return { ...res, json: { ...res.json, exists: exists.json.value, urn } };
    },
    assertAllowed: (res) => {
      assert.equal(res.json.value, 'success');
      assert.equal(res.json.exists, true);
    },
    assertDenied: (res, actor) => {
      restDenied(403, (a) => `User ${a} is unauthorized to modify entity: ${res.json.urn}`)(res, actor);
      assert.equal(res.json.exists, false);
    },
  },
  {
    name: 'delete an entity',
    allowed: ['Admin', 'Editor', 'system'],
    run: async (s, auth) => {
      const urn = datasetUrn();
      await s.request('POST', '/aspects?action=ingestProposal', { body: { proposal: statusMcp(urn) } });
      const res = await s.request('POST', '/entities?action=delete', { body: { urn }, auth });
      const exists = await s.request('POST', '/entities?action=exists', { body: { urn } });
      return { ...res, json: { ...res.json, stillExists: exists.json.value, urn } };
    },
    assertAllowed: (res) => assert.equal(res.json.stillExists, false),
    assertDenied: (res, actor) => {
      restDenied(403, (a) => `User ${a} is unauthorized to delete entity: ${res.json.urn}`)(res, actor);
      assert.equal(res.json.stillExists, true);
    },
  },
  {
    name: 'deprecate a dataset (GraphQL)',
    allowed: ['Admin', 'Editor', 'system'],
    run: async (s, auth) => {
      const urn = datasetUrn();
      await s.request('POST', '/aspects?action=ingestProposal', { body: { proposal: statusMcp(urn) } });
      return graphql(s, auth, 'mutation($i: UpdateDeprecationInput!) { updateDeprecation(input: $i) }', { i: { urn, deprecated: true } });
    },
    assertAllowed: gqlAllowed('updateDeprecation', true),
    assertDenied: gqlDenied('updateDeprecation'),
  },
  {
    name: 'dry-run a truncation',
    allowed: ['Admin', 'system'],
    run: (s, auth) => operations(s, auth, 'truncateTimeseriesAspect', { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: 1 }),
    assertAllowed: (res) => assert.match(res.json.value, /^Delete 0 out of 0 rows \(0\.00%\)\. /),
    assertDenied: restDenied(403, () => 'User is unauthorized to truncate timeseries index'),
  },
  {
    name: 'get index sizes',
    allowed: ['Admin', 'system'],
    run: (s, auth) => operations(s, auth, 'getIndexSizes', {}),
    assertAllowed: (res) => assert.ok(Array.isArray(res.json.value.indexSizes), res.text),
    assertDenied: restDenied(403, () => 'User is unauthorized to get index sizes.'),
  },
  {
    name: 'get a task status',
    allowed: ['Admin', 'system'],
    run: (s, auth) => operations(s, auth, 'getEsTaskStatus', { task: 'node:1' }),
    assertAllowed: (res) => assert.equal(res.json.value, JSON.stringify({ error: 'Could not get task status for node:1' })),
    assertDenied: restDenied(403, () => 'User is unauthorized to get ES task status'),
  },
  {
    name: 'create an access token for themself',
    allowed: ['Admin', 'Editor', 'Reader', 'none'],
    callers: ['Admin', 'Editor', 'Reader', 'none'],
    run: (s, auth, actorUrn) =>
      graphql(s, auth, 'mutation($i: CreateAccessTokenInput!) { createAccessToken(input: $i) { accessToken metadata { actorUrn ownerUrn } } }', {
        i: { type: 'PERSONAL', actorUrn, duration: 'ONE_HOUR', name: 'mine' },
      }).then((res) => ({ ...res, json: { ...res.json, actorUrn } })),
    assertAllowed: (res) => {
      assert.equal(res.json.errors, undefined, res.text);
      assert.deepEqual(res.json.data.createAccessToken.metadata, { actorUrn: res.json.actorUrn, ownerUrn: res.json.actorUrn });
    },
    assertDenied: gqlDenied('createAccessToken'),
  },
  {
    name: 'create an access token for another user',
    allowed: ['Admin', 'system'],
    run: (s, auth) =>
      graphql(s, auth, 'mutation($i: CreateAccessTokenInput!) { createAccessToken(input: $i) { metadata { actorUrn } } }', {
        i: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:datahub', duration: 'ONE_HOUR', name: 'for someone else' },
      }),
    assertAllowed: (res) => gqlAllowed('createAccessToken', { metadata: { actorUrn: 'urn:li:corpuser:datahub' } })(res),
    assertDenied: gqlDenied('createAccessToken'),
  },
  {
    name: "list another user's tokens",
    allowed: ['Admin', 'system'],
    run: (s, auth) =>
      graphql(s, auth, 'query($i: ListAccessTokenInput!) { listAccessTokens(input: $i) { total } }', {
        i: { start: 0, count: 10, filters: [{ field: 'ownerUrn', values: ['urn:li:corpuser:datahub'] }] },
      }),
    assertAllowed: (res) => {
      assert.equal(res.json.errors, undefined, res.text);
      assert.ok(res.json.data.listAccessTokens.total >= 1);
    },
    assertDenied: gqlDenied('listAccessTokens'),
  },
  {
    name: 'assign a role',
    allowed: ['Admin', 'system'],
    run: (s, auth) =>
      graphql(s, auth, 'mutation($i: BatchAssignRoleInput!) { batchAssignRole(input: $i) }', {
        i: { roleUrn: 'urn:li:dataHubRole:Reader', actors: ['urn:li:corpuser:user-reader'] },
      }),
    assertAllowed: gqlAllowed('batchAssignRole', true),
    assertDenied: gqlDenied('batchAssignRole'),
  },
];

for (const backend of await backends()) {
  describe(`privileges, role by operation: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    const auths = new Map<Who, { auth: string; actorUrn: string }>();

    before(async () => {
      db = await backend.create();
      server = await startTestServer(db, { DATAHUB_SYSTEM_CLIENT_SECRET: SECRET });
      for (const role of ['Admin', 'Editor', 'Reader', 'none'] as const) {
        const username = `user-${role.toLowerCase()}`;
        auths.set(role, { auth: await actorWithRole(server, username, role), actorUrn: `urn:li:corpuser:${username}` });
      }
      auths.set('system', { auth: `Basic __datahub_system:${SECRET}`, actorUrn: 'urn:li:corpuser:__datahub_system' });
    });
    after(async () => {
      await server?.close();
      await db?.drop();
    });

    for (const op of OPERATIONS) {
      for (const who of op.callers ?? EVERYONE) {
        const allowed = op.allowed.includes(who);
        it(`${allowed ? 'lets' : 'refuses'} ${who === 'none' ? 'a user with no role' : who} ${allowed ? '' : 'to '}${op.name}`, async () => {
          const { auth, actorUrn } = auths.get(who)!;
          const res = await op.run(server, auth, actorUrn);
          if (allowed) op.assertAllowed(res);
          else op.assertDenied(res, actorUrn);
        });
      }
    }

    it('makes urn:li:corpuser:datahub an administrator from the first start', async () => {
      assert.equal(await server.app.services.store.identity.getRole('urn:li:corpuser:datahub'), 'urn:li:dataHubRole:Admin');
    });
  });
}
