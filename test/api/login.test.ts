import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const PASSWORD = 'correct horse battery';

for (const backend of await backends()) {
  describe(`console sign-in: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    const login = (username: string, password: string) => server.request('POST', '/logIn', { auth: null, body: { username, password } });
    useServer(backend, async (s) => {
      server = s;
      await actorWithRole(server, 'alice', 'Editor', PASSWORD);
      await actorWithRole(server, 'mallory', 'Reader', PASSWORD);
    });

    it('answers a session token that works as a bearer token', async () => {
      const res = await login('alice', PASSWORD);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.actorUrn, 'urn:li:corpuser:alice');
      assert.equal(res.json.type, 'SESSION');
      const payload = JSON.parse(Buffer.from(res.json.accessToken.split('.')[1], 'base64url').toString());
      assert.equal(payload.type, 'SESSION');
      assert.ok(payload.exp * 1000 - Date.now() <= 8 * 60 * 60 * 1000);
      const exists = await server.request('POST', '/entities?action=exists', { body: { urn: 'urn:li:corpuser:alice' }, auth: `Bearer ${res.json.accessToken}` });
      assert.deepEqual(exists.json, { value: true });
    });

    it('refuses a wrong password and an unknown user with the same answer', async () => {
      const wrong = await login('alice', 'not the password');
      const unknown = await login('nobody', PASSWORD);
      for (const res of [wrong, unknown]) {
        assert.equal(res.status, 401);
        assert.equal(res.json.message, 'Invalid username or password.');
      }
    });

    it('refuses a missing field with 400 naming it', async () => {
      const res = await server.request('POST', '/logIn', { auth: null, body: { username: 'alice' } });
      assert.equal(res.status, 400);
      assert.match(res.json.message, /'password'/);
    });

    it('slows down repeated failures, even for the right password, then lets the user in', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await login('mallory', `guess ${i}`)).status, 401);
      const throttled = await login('mallory', PASSWORD);
      assert.equal(throttled.status, 429);
      assert.match(throttled.json.message, /Too many failed sign-in attempts for mallory/);
      assert.ok(Number(throttled.headers.get('retry-after')) >= 1);
      // The first wait is one second; poll until it is over.
      let res = throttled;
      for (let i = 0; i < 40 && res.status === 429; i++) {
        await new Promise((r) => setTimeout(r, 100));
        res = await login('mallory', PASSWORD);
      }
      assert.equal(res.status, 200);
      assert.equal((await login('mallory', 'another guess')).status, 401, 'a success resets the counter');
    });
  });
}
