import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inTerminal, runAlmanac } from '../support/cli.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

for (const backend of await backends()) {
  describe(`user create --password-stdin (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let db: TestDatabase;
    useServer(backend, (s, d) => {
      server = s;
      db = d;
    });
    const signIn = (username: string, password: string) => server.request('POST', '/logIn', { body: { username, password }, auth: null });

    it('reads the whole of a pipe as the password, less one trailing newline', async () => {
      const res = await runAlmanac(['user', 'create', '--username', 'piped', '--password-stdin', '--role', 'Reader'], {
        env: { ALMANAC_DATABASE_URL: db.url },
        input: 'piped password with spaces\n',
      });
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, 'urn:li:corpuser:piped (Reader)\n');
      assert.equal((await signIn('piped', 'piped password with spaces')).status, 200);
    });

    it("holds a password to the operator's ALMANAC_PASSWORD_MIN_LENGTH: 4 characters refused by default, accepted at 4", async () => {
      const create = (env: Record<string, string>) =>
        runAlmanac(['user', 'create', '--username', 'brief', '--password-stdin'], { env: { ALMANAC_DATABASE_URL: db.url, ...env }, input: 'user\n' });
      const refused = await create({});
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /Field 'password' must be from 8 to 1024 characters/);
      const accepted = await create({ ALMANAC_PASSWORD_MIN_LENGTH: '4' });
      assert.equal(accepted.code, 0, accepted.stderr);
      assert.equal((await signIn('brief', 'user')).status, 200);
    });

    it('on a terminal, asks twice without echoing what is typed, and the user can sign in', async () => {
      const typed = 'terminal-secret-42';
      const res = await inTerminal(
        ['user', 'create', '--username', 'typed', '--password-stdin', '--role', 'Editor'],
        { ALMANAC_DATABASE_URL: db.url },
        [
          ['Password: ', typed],
          ['Password (again): ', typed],
        ],
      );
      assert.equal(res.status, 0, res.screen);
      assert.match(res.screen, /^Password: \r\nPassword \(again\): \r\n/);
      assert.ok(!res.screen.includes(typed), `the terminal showed the password: ${JSON.stringify(res.screen)}`);
      assert.match(res.screen, /urn:li:corpuser:typed \(Editor\)\r\n$/);
      assert.equal((await signIn('typed', typed)).status, 200);
    });

    it('on a terminal, two different answers change nothing and exit 2', async () => {
      const res = await inTerminal(['user', 'create', '--username', 'typo', '--password-stdin'], { ALMANAC_DATABASE_URL: db.url }, [
        ['Password: ', 'first-answer-1'],
        ['Password (again): ', 'second-answer-2'],
      ]);
      assert.equal(res.status, 2, res.screen);
      assert.match(res.screen, /almanac: the two passwords differ; nothing was changed\r\n$/);
      assert.equal((await signIn('typo', 'first-answer-1')).status, 401);
    });
  });
}
