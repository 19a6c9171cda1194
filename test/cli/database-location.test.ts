import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { ROOT, childEnv } from '../support/process.ts';

const run = promisify(execFile);
const BIN = path.join(ROOT, 'bin/almanac.mjs');

/** The real binary, from `cwd`, with ALMANAC_HOME and no database URL: the default location is the one tested. */
async function almanac(args: string[], cwd: string, home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = childEnv({ ALMANAC_HOME: home });
  delete env.ALMANAC_DATABASE_URL;
  try {
    const { stdout, stderr } = await run(BIN, args, { cwd, env });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('one database, said out loud', () => {
  let home: string;
  let app: App | undefined;
  before(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-home-'));
  });
  after(async () => {
    await app?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('refuses to create a database from a read command, and says how to get one', async () => {
    const res = await almanac(['token', 'list'], path.join(ROOT, 'src'), home);
    assert.equal(res.code, 1);
    const file = path.join(home, 'data', 'almanac.db');
    assert.equal(
      res.stderr,
      `almanac: database sqlite:${file}\nalmanac: no database at ${file}: start the server once (npm start) to create it, or point ALMANAC_DATABASE_URL (or ALMANAC_HOME) at the server's\n`,
    );
    assert.equal(fs.existsSync(file), false);
    assert.equal(fs.existsSync(path.join(ROOT, 'src', 'data')), false, 'nothing was created under the current directory');
  });

  it('mints, from a subdirectory, a token the server started from elsewhere accepts', async () => {
    const config = loadConfig({ ALMANAC_HOME: home, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    app = await createApp(config, createLogger(config.logLevel));
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.server.address() as { port: number };
    const res = await almanac(['token', 'create', '--actor', 'urn:li:corpuser:datahub', '--duration', 'ONE_HOUR'], path.join(ROOT, 'src'), home);
    assert.equal(res.code, 0, res.stderr);
    assert.match(
      res.stderr,
      new RegExp(`^almanac: database sqlite:${path.join(home, 'data', 'almanac.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`),
    );
    const check = await fetch(`http://127.0.0.1:${address.port}/entities?action=exists`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${res.stdout.trim()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ urn: 'urn:li:corpuser:datahub' }),
    });
    assert.equal(check.status, 200);
    assert.equal(fs.existsSync(path.join(ROOT, 'src', 'data')), false);
  });
});
