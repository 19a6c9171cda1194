import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const PASSWORD = 'correct horse battery';
const WHO_AM_I = '/openapi/operations/identity/user/urn';

/** The Cookie header a browser would send back after this response. */
const cookiesOf = (res: HttpResult): string =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');

const attributesOf = (res: HttpResult, name: string): string[] => {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  assert.ok(cookie, `no ${name} cookie in ${res.headers.getSetCookie().join(' | ')}`);
  return cookie.split(';').map((p) => p.trim());
};

for (const backend of await backends()) {
  describe(`sign-in sessions: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    const login = (username: string) => server.request('POST', '/logIn', { auth: null, body: { username, password: PASSWORD } });
    const whoAmI = (headers: Record<string, string>) => server.request('GET', WHO_AM_I, { auth: null, headers });
    useServer(
      backend,
      async (s) => {
        server = s;
        for (const name of ['alice', 'bob', 'carol', 'dave', 'erin']) await actorWithRole(server, name, 'Reader', PASSWORD);
      },
      { AUTH_SESSION_TTL_HOURS: '2' },
    );

    it("sets DataHub's PLAY_SESSION and actor cookies, lasting the configured session length", async () => {
      const res = await login('alice');
      assert.equal(res.status, 200, res.text);
      const session = attributesOf(res, 'PLAY_SESSION');
      assert.ok(
        session.includes('HttpOnly') && session.includes('SameSite=Lax') && session.includes('Path=/') && session.includes('Max-Age=7200'),
        session.join('; '),
      );
      const actor = attributesOf(res, 'actor');
      assert.equal(actor[0], 'actor=urn:li:corpuser:alice');
      assert.ok(!actor.includes('HttpOnly'), 'the page reads the actor cookie, as in DataHub');
      const payload = JSON.parse(Buffer.from(res.json.accessToken.split('.')[1], 'base64url').toString());
      assert.equal(payload.exp - payload.iat, 2 * 60 * 60);
    });

    it('accepts the cookies instead of a token on GraphQL and REST', async () => {
      const cookie = cookiesOf(await login('alice'));
      const res = await whoAmI({ Cookie: cookie });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { urn: 'urn:li:corpuser:alice' });
      const viaCookie = await server.request('POST', '/api/v2/graphql', {
        auth: null,
        headers: { Cookie: cookie },
        body: { query: '{ me { corpUser { urn } } }' },
      });
      assert.equal(viaCookie.status, 200, viaCookie.text);
      assert.equal(viaCookie.json.data.me.corpUser.urn, 'urn:li:corpuser:alice');
    });

    it('refuses a session cookie without a matching actor cookie, and a personal token in the cookie', async () => {
      const res = await login('alice');
      const token = res.json.accessToken as string;
      for (const cookie of [`PLAY_SESSION=${token}`, `PLAY_SESSION=${token}; actor=urn:li:corpuser:bob`]) {
        const refused = await whoAmI({ Cookie: cookie });
        assert.equal(refused.status, 401, cookie);
        assert.match(refused.json.message, /session cookie/);
      }
      const personal = server.adminToken;
      assert.equal((await whoAmI({ Cookie: `PLAY_SESSION=${personal}; actor=urn:li:corpuser:datahub` })).status, 401);
    });

    it('ends the session at /logOut: the cookies are cleared and the old ones and the token fail', async () => {
      const res = await login('bob');
      const cookie = cookiesOf(res);
      const out = await server.request('POST', '/logOut', { auth: null, headers: { Cookie: cookie } });
      assert.equal(out.status, 204);
      assert.ok(attributesOf(out, 'PLAY_SESSION').includes('Max-Age=0'));
      assert.ok(attributesOf(out, 'actor').includes('Max-Age=0'));
      const after = await whoAmI({ Cookie: cookie });
      assert.equal(after.status, 401);
      assert.match(after.json.message, /session has ended/);
      assert.equal((await whoAmI({ Authorization: `Bearer ${res.json.accessToken}` })).status, 401);
      assert.equal((await whoAmI({ Cookie: cookiesOf(await login('bob')) })).status, 200, 'signing in again works');
    });

    it("answers DataHub's GET /logOut with a redirect to the sign-in page", async () => {
      const cookie = cookiesOf(await login('carol'));
      const res = await fetch(`${server.url}/logOut`, { headers: { Cookie: cookie }, redirect: 'manual' });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get('location'), '/');
      assert.equal((await whoAmI({ Cookie: cookie })).status, 401);
    });

    it('ends every session of a user whose password is reset', async () => {
      const cookie = cookiesOf(await login('dave'));
      await actorWithRole(server, 'dave', 'Reader', 'a brand new password');
      assert.equal((await whoAmI({ Cookie: cookie })).status, 401);
    });

    it('never revives a session when a removed user is re-created', async () => {
      const cookie = cookiesOf(await login('erin'));
      const removed = await server.request('POST', '/entities?action=delete', { body: { urn: 'urn:li:corpuser:erin' } });
      assert.equal(removed.status, 200, removed.text);
      assert.equal((await whoAmI({ Cookie: cookie })).status, 401);
      await actorWithRole(server, 'erin', 'Reader', PASSWORD);
      assert.equal((await whoAmI({ Cookie: cookie })).status, 401);
    });
  });
}
