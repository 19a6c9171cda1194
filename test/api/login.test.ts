import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const PASSWORD = 'correct horse battery';

/** POST /logIn from another loopback source address: Linux answers every 127.x address on lo. */
function loginFrom(url: string, localAddress: string, username: string, password: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ username, password });
    const req = http.request(`${url}/logIn`, { method: 'POST', localAddress, headers: { 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const backend of await backends()) {
  describe(`console sign-in: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    const login = (username: string, password: string) => server.request('POST', '/logIn', { auth: null, body: { username, password } });
    useServer(backend, async (s) => {
      server = s;
      await actorWithRole(server, 'alice', 'Editor', PASSWORD);
      await actorWithRole(server, 'mallory', 'Reader', PASSWORD);
      await actorWithRole(server, 'bob', 'Reader', PASSWORD);
    });

    it('answers a session token that works as a bearer token', async () => {
      const res = await login('alice', PASSWORD);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.actorUrn, 'urn:li:corpuser:alice');
      assert.equal(res.json.type, 'SESSION');
      const payload = JSON.parse(Buffer.from(res.json.accessToken.split('.')[1], 'base64url').toString());
      assert.equal(payload.type, 'SESSION');
      assert.equal(payload.exp - payload.iat, 24 * 60 * 60, "DataHub's default session length");
      const exists = await server.request('POST', '/entities?action=exists', {
        body: { urn: 'urn:li:corpuser:alice' },
        auth: `Bearer ${res.json.accessToken}`,
      });
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
      // Each failure past the free ones doubles the wait (1 s, 2 s, 4 s): guess on until it is long enough that the
      // next request surely falls inside it, however slow a loaded machine makes each sign-in.
      let wait = 0;
      for (let i = 0; i < 12 && wait < 4; i++) {
        const res = await login('mallory', `more ${i}`);
        assert.ok(res.status === 401 || res.status === 429, `status ${res.status}`);
        if (res.status !== 429) continue;
        wait = Number(res.headers.get('retry-after'));
        // A refused attempt is not a failure: let this wait pass so the next guess counts and doubles it.
        if (wait < 4) await new Promise((r) => setTimeout(r, wait * 1000 + 50));
      }
      assert.ok(wait >= 4, 'the wait grew with the failures');
      const throttled = await login('mallory', PASSWORD);
      assert.equal(throttled.status, 429);
      assert.match(throttled.json.message, /Too many failed sign-in attempts for mallory/);
      assert.ok(Number(throttled.headers.get('retry-after')) >= 1);
      // Poll until the wait is over.
      let res = throttled;
      for (let i = 0; i < 200 && res.status === 429; i++) {
        await new Promise((r) => setTimeout(r, 100));
        res = await login('mallory', PASSWORD);
      }
      assert.equal(res.status, 200);
      assert.equal((await login('mallory', 'another guess')).status, 401, 'a success resets the counter');
    });

    it('throttles by username and source address together, so a third party cannot lock a user out', async () => {
      const store = server.app.services.store;
      assert.equal(await loginFrom(server.url, '127.0.0.3', 'bob', 'a guess'), 401);
      assert.equal((await store.userAccess.getSignInFailures('bob', '127.0.0.3'))?.failures, 1, 'counted for the source address');
      assert.equal(await store.userAccess.getSignInFailures('bob', '127.0.0.1'), undefined);
      // Ten failures from 127.0.0.2 (as recorded by earlier guesses): the next attempt from there waits 32 s.
      for (let i = 0; i < 10; i++) await store.userAccess.recordSignInFailure('bob', '127.0.0.2', Date.now());
      assert.equal(await loginFrom(server.url, '127.0.0.2', 'bob', PASSWORD), 429, 'the guesser is slowed down');
      assert.equal((await login('bob', PASSWORD)).status, 200, 'bob, from his own address, is not');
    });

    it('forgets failures older than a day when it records a new one', async () => {
      const store = server.app.services.store;
      await store.userAccess.recordSignInFailure('carol', '192.0.2.1', Date.now() - 25 * 60 * 60 * 1000);
      await store.userAccess.recordSignInFailure('carol', '192.0.2.2', Date.now() - 60 * 60 * 1000);
      assert.equal((await login('nobody', 'a wrong password')).status, 401);
      assert.equal(await store.userAccess.getSignInFailures('carol', '192.0.2.1'), undefined);
      assert.equal((await store.userAccess.getSignInFailures('carol', '192.0.2.2'))?.failures, 1);
    });
  });
}
