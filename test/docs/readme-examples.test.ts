import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ALMANAC_BIN } from '../support/cli.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { ROOT, childEnv } from '../support/process.ts';
import type { TestServer } from '../support/server.ts';
import { exampleSteps, outputPattern } from './readme-steps.ts';
import { ShellSession } from './shell-session.ts';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const STEPS = exampleSteps(README);

// curl answers an HTTP error with exit 0; with --fail-with-body it exits 22 and still prints the body, so a 4xx or 5xx
// fails its step. Nothing else about the commands is changed.
const PRELUDE = `set -o pipefail\ncurl() { command curl --fail-with-body "$@"; }`;

describe('README example blocks', () => {
  it('are there to run, in the quickstart too', () => {
    assert.ok(STEPS.length >= 30, `only ${STEPS.length} steps are marked runnable`);
    assert.match(STEPS[0]!.command, /almanac token create/);
  });
});

for (const backend of await backends()) {
  describe(`every README example, in order, on a fresh database (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let dbUrl: string;
    let home: string;
    let shell: ShellSession;
    useServer(backend, (s, db) => {
      server = s;
      dbUrl = db.url;
    });
    before(() => {
      // `npm link` puts a link to bin/almanac.mjs on PATH; a directory holding such a link does the same here.
      home = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-readme-'));
      fs.mkdirSync(path.join(home, 'bin'));
      fs.symlinkSync(ALMANAC_BIN, path.join(home, 'bin', 'almanac'));
      const port = new URL(server.url).port;
      // The shell of someone who started the server with PORT and ALMANAC_DATABASE_URL set, in a directory of their own.
      const env = childEnv({ PORT: port, ALMANAC_DATABASE_URL: dbUrl, PATH: `${path.join(home, 'bin')}:${process.env.PATH}` });
      shell = new ShellSession({ cwd: home, env, prelude: PRELUDE });
    });
    after(() => {
      shell?.close();
      fs.rmSync(home, { recursive: true, force: true });
    });

    for (const step of STEPS) {
      it(`README.md:${step.line} ${step.command.split('\n')[0]!.slice(0, 90)}`, async () => {
        const res = await shell.run(step.command);
        assert.equal(res.status, 0, `exit ${res.status}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
        if (step.expected !== undefined) assert.match(res.stdout.trimEnd(), outputPattern(step.expected));
        // GraphQL answers its errors with 200: one the README does not show is a failing example all the same.
        else assert.doesNotMatch(res.stdout, /"errors":\[/, res.stdout);
      });
    }
  });
}
