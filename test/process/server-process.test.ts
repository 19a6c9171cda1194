import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { after, before, describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/almanac.mjs');

/** The environment of a child process: the parent's, minus anything Almanac reads. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('ALMANAC_') || k.startsWith('DATAHUB_') || k === 'PORT') delete env[k];
  return { ...env, ...extra };
}

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
      env: childEnv({ PORT: 'eighty', METADATA_SERVICE_AUTH_ENABLED: 'maybe', ALMANAC_DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' }),
      encoding: 'utf8',
    });
    assert.equal(res.status, 2);
    for (const name of ['PORT', 'METADATA_SERVICE_AUTH_ENABLED', 'ALMANAC_DATABASE_URL', 'LOG_LEVEL']) {
      assert.ok(res.stderr.includes(`${name}:`), `stderr should name ${name}: ${res.stderr}`);
    }
  });

  it('mints a bootstrap token with no server, prints it alone, and the server accepts it', async () => {
    const minted = spawnSync(BIN, ['token', 'create', '--actor', 'urn:li:corpuser:ops', '--duration', 'ONE_DAY', '--name', 'bootstrap'], {
      cwd: ROOT,
      env: childEnv({ ALMANAC_DATABASE_URL: dbUrl }),
      encoding: 'utf8',
    });
    assert.equal(minted.status, 0, minted.stderr);
    const token = minted.stdout.trim();
    assert.match(minted.stdout, /^[\w-]+\.[\w-]+\.[\w-]+\n$/);

    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: childEnv({ ALMANAC_DATABASE_URL: dbUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const lines = readline.createInterface({ input: child.stdout });
    let address: string | undefined;
    for await (const line of lines) {
      const entry = JSON.parse(line) as { msg?: string; address?: string };
      if (entry.msg === 'almanac ready') {
        address = entry.address;
        break;
      }
    }
    assert.ok(address, 'server never reported ready');
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

    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });

  it('refuses an unknown duration with one clear line', () => {
    const res = spawnSync(BIN, ['token', 'create', '--duration', 'FOREVER'], { cwd: ROOT, env: childEnv({ ALMANAC_DATABASE_URL: dbUrl }), encoding: 'utf8' });
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /FOREVER/);
    assert.doesNotMatch(res.stderr, /\n\s+at /);
  });
});
