import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ROOT, startServerProcess, type ServerProcess } from '../support/process.ts';

describe('npm start (almanac serve) from the compiled bundle', () => {
  let server: ServerProcess | undefined;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-serve-'));
  after(async () => {
    await server?.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('serves the API and the console, and stops cleanly on SIGTERM', async () => {
    const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    assert.equal(scripts.start, 'exec node bin/almanac.mjs serve');
    server = await startServerProcess({ ALMANAC_HOME: home }, [path.join(ROOT, 'bin/almanac.mjs'), 'serve']);
    assert.equal((await fetch(`${server.address}/health`)).status, 200);
    const page = await fetch(`${server.address}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<html/i);
    assert.equal(await server.stop(), 0);
    server = undefined;
    assert.ok(fs.existsSync(path.join(home, 'data', 'almanac.db')));
  });
});
