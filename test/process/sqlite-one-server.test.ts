import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runAlmanac } from '../support/cli.ts';
import { startServerProcess, type ServerProcess } from '../support/process.ts';

describe('one server per SQLite file', () => {
  let dir: string;
  let dbUrl: string;
  let first: ServerProcess | undefined;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-one-server-'));
    dbUrl = `sqlite:${path.join(dir, 'almanac.db')}`;
  });
  after(async () => {
    await first?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second server on a served file, naming the process that serves it and how to stop it', async () => {
    first = await startServerProcess({ ALMANAC_DATABASE_URL: dbUrl });
    const second = await runAlmanac(['serve'], { env: { ALMANAC_DATABASE_URL: dbUrl, PORT: '0', HOST: '127.0.0.1' } });
    assert.equal(second.code, 1, second.stdout);
    assert.match(second.stderr, new RegExp(`^almanac: the SQLite database .* is already served by process ${first.serverPid} `, 'm'));
    assert.ok(second.stderr.includes(`listening at ${first.address}`), second.stderr);
    assert.ok(second.stderr.includes(`kill -TERM ${first.serverPid}`), second.stderr);
    assert.ok(second.stderr.includes('ALMANAC_DATABASE_URL'), second.stderr);
    assert.doesNotMatch(second.stdout, /almanac ready/);
    assert.equal((await fetch(`${first.address}/health`)).status, 200);
  });

  it('lets CLI commands open the served file beside the server', async () => {
    assert.ok(first, 'the first server runs');
    const created = await runAlmanac(['user', 'create', '--username', 'beside', '--password-stdin', '--role', 'Reader'], {
      env: { ALMANAC_DATABASE_URL: dbUrl },
      input: 'beside-password\n',
    });
    assert.equal(created.code, 0, created.stderr);
    // The server reads what the command wrote: the new user signs in.
    const login = await fetch(`${first.address}/logIn`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'beside', password: 'beside-password' }),
    });
    assert.equal(login.status, 200);
  });

  it('serves the file again once the server is killed outright, whatever its leftover files say', async () => {
    assert.ok(first, 'the first server runs');
    const exited = new Promise((resolve) => first!.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    first = undefined;
    assert.ok(fs.existsSync(path.join(dir, 'almanac.db-server.json')), 'a killed server leaves its record behind');
    first = await startServerProcess({ ALMANAC_DATABASE_URL: dbUrl });
    assert.equal((await fetch(`${first.address}/health`)).status, 200);
    assert.equal(await first.stop(), 0);
    first = undefined;
    assert.equal(fs.existsSync(path.join(dir, 'almanac.db-server.json')), false, 'a stopped server removes its record');
  });
});
