import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT, childEnv, startServerProcess } from '../support/process.ts';

const BIN = path.join(ROOT, 'bin/almanac.mjs');

describe('the server process', () => {
  let dir: string;
  let dbUrl: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-proc-'));
    dbUrl = `sqlite:${path.join(dir, 'nested', 'almanac.db')}`;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reports every bad variable at once and exits non-zero', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: childEnv({
        PORT: 'eighty',
        METADATA_SERVICE_AUTH_ENABLED: 'maybe',
        ALMANAC_DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        ALMANAC_PASSWORD_MIN_LENGTH: '0',
      }),
      encoding: 'utf8',
    });
    assert.equal(res.status, 2);
    for (const name of ['PORT', 'METADATA_SERVICE_AUTH_ENABLED', 'ALMANAC_DATABASE_URL', 'LOG_LEVEL', 'ALMANAC_PASSWORD_MIN_LENGTH']) {
      assert.ok(res.stderr.includes(`${name}:`), `stderr should name ${name}: ${res.stderr}`);
    }
  });

  it('mints a bootstrap token with no server, prints it alone, and the server accepts it', async () => {
    const minted = spawnSync(BIN, ['token', 'create', '--init', '--actor', 'urn:li:corpuser:ops', '--duration', 'ONE_DAY', '--name', 'bootstrap'], {
      cwd: ROOT,
      env: childEnv({ ALMANAC_DATABASE_URL: dbUrl }),
      encoding: 'utf8',
    });
    assert.equal(minted.status, 0, minted.stderr);
    const token = minted.stdout.trim();
    assert.match(minted.stdout, /^[\w-]+\.[\w-]+\.[\w-]+\n$/);

    const server = await startServerProcess({ ALMANAC_DATABASE_URL: dbUrl });
    const address = server.address;
    assert.equal((await fetch(`${address}/health`)).status, 200);

    const res = await fetch(`${address}/entities?action=exists`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ urn: 'urn:li:corpuser:ops' }),
    });
    assert.deepEqual(await res.json(), { value: true });
    const admin = await fetch(`${address}/entities?action=exists`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ urn: 'urn:li:corpuser:datahub' }),
    });
    assert.deepEqual(await admin.json(), { value: true });

    assert.equal(await server.stop(), 0);
  });

  it('refuses an unknown duration with one clear line', () => {
    const res = spawnSync(BIN, ['token', 'create', '--duration', 'FOREVER'], {
      cwd: ROOT,
      env: childEnv({ ALMANAC_DATABASE_URL: dbUrl }),
      encoding: 'utf8',
    });
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /FOREVER/);
    assert.doesNotMatch(res.stderr, /\n\s+at /);
  });
});
