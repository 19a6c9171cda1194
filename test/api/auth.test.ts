import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { backends, type TestDatabase } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const SECRET = 'a-system-client-secret';
const PATH = '/entities?action=exists';
const BODY = { urn: 'urn:li:corpuser:datahub' };

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

for (const backend of await backends()) {
  describe(`authentication: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;

    before(async () => {
      db = await backend.create();
      server = await startTestServer(db, { DATAHUB_SYSTEM_CLIENT_SECRET: SECRET });
    });
    after(async () => {
      await server?.close();
      await db?.drop();
    });

    const refused = async (auth: string | null, message: string) => {
      const res = await server.request('POST', PATH, { body: BODY, auth });
      assert.equal(res.status, 401, res.text);
      assert.equal(res.json.message, message);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    };

    it('accepts a valid personal access token', async () => {
      const res = await server.request('POST', PATH, { body: BODY });
      assert.deepEqual(res.json, { value: true });
    });

    it('refuses a request without an Authorization header', () => refused(null, "Request is missing 'Authorization' header."));

    it('answers 401 for a path it does not serve when the caller has no valid credentials, and 404 once it has', async () => {
      for (const auth of [null, 'Bearer not-a-token']) {
        const res = await server.request('GET', '/openapi/v2/no/such/route', { auth });
        assert.equal(res.status, 401, res.text);
        assert.doesNotMatch(res.text, /No resource/);
      }
      const known = await server.request('GET', '/openapi/v2/no/such/route');
      assert.equal(known.status, 404);
      assert.match(known.json.message, /No resource for GET \/openapi\/v2\/no\/such\/route/);
    });

    it("answers DataHub's frontend health page at /admin without credentials", async () => {
      const res = await server.request('GET', '/admin', { auth: null });
      assert.equal(res.status, 200);
      assert.equal(res.text, 'GOOD');
    });

    it('refuses another scheme', () => refused(`Token ${server.adminToken}`, "Authorization header missing 'Bearer' prefix."));

    it('refuses a malformed token', () => refused('Bearer not.a.jwt', 'Unable to verify the provided token.'));

    it('refuses an unsigned token (alg none)', async () => {
      const [, payload] = server.adminToken.split('.');
      await refused(`Bearer ${b64({ alg: 'none' })}.${payload}.`, 'Unable to verify the provided token.');
    });

    it('refuses a token signed with another key', async () => {
      const forged = await new SignJWT({ actorType: 'USER', actorId: 'datahub', type: 'PERSONAL', version: '2' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('datahub')
        .setIssuer('datahub-metadata-service')
        .setExpirationTime('1h')
        .sign(crypto.randomBytes(32));
      await refused(`Bearer ${forged}`, 'Unable to verify the provided token.');
    });

    it('refuses an expired token and forgets it', async () => {
      const { token, record } = await server.app.services.tokens.mint({
        actorUrn: 'urn:li:corpuser:datahub',
        ownerUrn: 'urn:li:corpuser:datahub',
        duration: 'ONE_HOUR',
        name: 'old',
        now: Date.now() - 2 * 60 * 60 * 1000,
      });
      await refused(`Bearer ${token}`, 'Failed to validate DataHub token. Token has expired.');
      assert.equal(await server.app.services.store.identity.getAccessToken(record.id), undefined);
    });

    it('refuses a revoked token on the very next request', async () => {
      const { token, record } = await server.app.services.tokens.mint({
        actorUrn: 'urn:li:corpuser:datahub',
        ownerUrn: 'urn:li:corpuser:datahub',
        duration: 'NO_EXPIRY',
        name: 'soon revoked',
      });
      assert.equal((await server.request('POST', PATH, { body: BODY, auth: `Bearer ${token}` })).status, 200);
      await server.app.services.store.identity.deleteAccessToken(record.id);
      await refused(`Bearer ${token}`, 'Failed to validate DataHub token: Token has been revoked');
    });

    it('refuses a token whose actor does not exist', async () => {
      const { token } = await server.app.services.tokens.mint({
        actorUrn: 'urn:li:corpuser:ghost',
        ownerUrn: 'urn:li:corpuser:ghost',
        duration: 'ONE_HOUR',
        name: 'ghost',
      });
      await refused(`Bearer ${token}`, 'Failed to validate DataHub token: actor urn:li:corpuser:ghost does not exist.');
    });

    it('accepts the system client in its raw Basic form', async () => {
      const res = await server.request('POST', PATH, { body: BODY, auth: `Basic __datahub_system:${SECRET}` });
      assert.deepEqual(res.json, { value: true });
    });

    it('refuses the system client with a wrong secret', () =>
      refused(
        'Basic __datahub_system:wrong',
        'Provided credentials do not match known system client id & client secret. Check your configuration values...',
      ));

    it('keeps /health and /config open', async () => {
      assert.equal((await server.request('GET', '/health', { auth: null })).status, 200);
      assert.equal((await server.request('GET', '/config', { auth: null })).status, 200);
    });

    it('keeps tokens valid across a restart on the same database', async () => {
      const token = server.adminToken;
      await server.close();
      server = await startTestServer(db, { DATAHUB_SYSTEM_CLIENT_SECRET: SECRET });
      const res = await server.request('POST', PATH, { body: BODY, auth: `Bearer ${token}` });
      assert.deepEqual(res.json, { value: true });
    });
  });

  describe(`system client without a secret: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    before(async () => {
      db = await backend.create();
      server = await startTestServer(db);
    });
    after(async () => {
      await server?.close();
      await db?.drop();
    });

    it('refuses every Basic credential when no secret is configured', async () => {
      for (const auth of ['Basic __datahub_system:', 'Basic __datahub_system:undefined', 'Basic :']) {
        const res = await server.request('POST', PATH, { body: BODY, auth });
        assert.equal(res.status, 401);
      }
    });
  });

  describe(`auth disabled: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    before(async () => {
      db = await backend.create();
      server = await startTestServer(db, { METADATA_SERVICE_AUTH_ENABLED: 'false' });
    });
    after(async () => {
      await server?.close();
      await db?.drop();
    });

    it('acts as the administrator without a token', async () => {
      const res = await server.request('POST', '/aspects?action=ingestProposal', {
        auth: null,
        body: {
          proposal: {
            entityType: 'corpuser',
            entityUrn: 'urn:li:corpuser:alice',
            changeType: 'UPSERT',
            aspectName: 'status',
            aspect: { value: '{"removed":false}', contentType: 'application/json' },
          },
        },
      });
      assert.equal(res.status, 200);
      const aspect = await server.request('GET', `/aspects/${encodeURIComponent('urn:li:corpuser:alice')}?aspect=status`, { auth: null });
      assert.equal(aspect.json.created.actor, 'urn:li:corpuser:datahub');
    });
  });
}
