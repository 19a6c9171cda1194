import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { runProcess } from '../support/cli.ts';
import { ROOT, childEnv } from '../support/process.ts';

const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('bin/almanac.mjs runs dist/ only while it matches src/', () => {
  // A copy of the installation to edit, so the tree under test stays as it is.
  let copy: string;
  const almanac = (...args: string[]) => runProcess(path.join(copy, 'bin/almanac.mjs'), args, { env: childEnv({}), cwd: copy });
  const mainTs = () => path.join(copy, 'src/cli/main.ts');

  before(async () => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-dist-'));
    for (const entry of ['src', 'bin', 'scripts', 'package.json', 'tsconfig.json'])
      fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true, preserveTimestamps: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    await promisify(execFile)(process.execPath, [path.join(copy, 'scripts/dist.mjs')], { cwd: copy });
  });
  after(() => fs.rmSync(copy, { recursive: true, force: true }));

  it('runs the build silently when it is up to date, also after a touch that changed no content', async () => {
    assert.deepEqual(await almanac('--version'), { code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(mainTs(), later, later);
    assert.deepEqual(await almanac('--version'), { code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('runs the edited TypeScript, and says so, once a source file changed', async () => {
    fs.writeFileSync(
      mainTs(),
      fs
        .readFileSync(mainTs(), 'utf8')
        .replace("'Almanac metadata catalog: server and administration commands'", "'Almanac, edited after the build'"),
    );
    const res = await almanac('--help');
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stderr, 'almanac: dist/ is older than src/; running from TypeScript (slower start; `npm run build` compiles it)\n');
    assert.match(res.stdout, /Almanac, edited after the build/);
  });

  it('runs the TypeScript, and says so, when dist/ was never built', async () => {
    fs.rmSync(path.join(copy, 'dist'), { recursive: true });
    const res = await almanac('--version');
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `${VERSION}\n`);
    assert.match(res.stderr, /^almanac: dist\/ is not built; running from TypeScript/);
  });

  it('a rebuild makes it fast and silent again, with the edit in it', async () => {
    await promisify(execFile)(process.execPath, [path.join(copy, 'scripts/dist.mjs')], { cwd: copy });
    const res = await almanac('--help');
    assert.equal(res.stderr, '');
    assert.match(res.stdout, /Almanac, edited after the build/);
  });
});
