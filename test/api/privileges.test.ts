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
      for (const who of EVERYONE) {
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
      assert.equal(await server.app.services.store.getRole('urn:li:corpuser:datahub'), 'urn:li:dataHubRole:Admin');
    });
  });
}
