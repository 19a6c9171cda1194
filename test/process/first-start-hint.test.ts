import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_USER_HINT } from '../../src/main.ts';
import { openStore } from '../../src/storage/open-store.ts';
import { createSqliteDatabase } from '../support/databases.ts';
import { startServerProcess, type ServerProcess } from '../support/process.ts';

/** The log lines of the server up to the one for a request made after it started. */
async function linesUntilARequest(server: ServerProcess): Promise<Array<Record<string, unknown>>> {
  await fetch(`${server.address}/config`);
  for (;;) {
    const i = server.log.findIndex((l) => l.msg === 'request completed' && l.route === '/config');
    if (i >= 0) return server.log.slice(0, i);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the first start of a server nobody can sign in to', () => {
  it('logs where the console is and how to create a user, until someone has a password', async () => {
    const db = await createSqliteDatabase();
    try {
      const first = await startServerProcess(db.env);
      const before = await linesUntilARequest(first);
      await first.stop();
      const hint = before.find((l) => l.msg === NO_USER_HINT);
      assert.ok(hint, JSON.stringify(before));
      assert.match(NO_USER_HINT, /almanac user create --username <name> --password-stdin/);
      assert.equal(hint.console, `${first.address}/`);

      const store = await openStore(db.config);
      await store.identity.setPasswordHash('urn:li:corpuser:alice', 'scrypt$not-a-real-hash', Date.now());
      await store.database.close();
      const second = await startServerProcess(db.env);
      const after = await linesUntilARequest(second);
      await second.stop();
      assert.equal(
        after.find((l) => l.msg === NO_USER_HINT),
        undefined,
      );
    } finally {
      await db.drop();
    }
  });
});
