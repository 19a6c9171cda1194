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
import { assignedVariables, exampleSteps, expandedVariables, outputPattern, shellBlocks } from './readme-steps.ts';
import { ShellSession } from './shell-session.ts';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const STEPS = exampleSteps(README);

// curl answers an HTTP error with exit 0; with --fail-with-body it exits 22 and still prints the body, so a 4xx or 5xx
// fails its step. `set -u` makes a variable no earlier step defined an error that names it (and ends the shell, so
// the steps after it fail too). Nothing else about the commands is changed.
const PRELUDE = `set -o pipefail -u\ncurl() { command curl --fail-with-body "$@"; }`;

// What the reader's shell has before the first block: the server's port (the quickstart's URL falls back to 8080
// without it) and the usual environment.
const ENVIRONMENT = ['PORT', 'HOME', 'PATH', 'PWD', 'USER'];

/** A step's failure, with an undefined variable named as such. */
async function runStep(shell: ShellSession, command: string) {
  try {
    return await shell.run(command);
  } catch (e) {
    const unbound = /(\S+): unbound variable/.exec((e as Error).message);
    if (unbound && !(e as Error).message.includes('earlier step'))
      throw new Error(`uses $${unbound[1]}, which no earlier README example defines (${(e as Error).message})`);
    throw e;
  }
}

describe('README example blocks', () => {
  it('are there to run, in the quickstart too', () => {
    assert.ok(STEPS.length >= 30, `only ${STEPS.length} steps are marked runnable`);
    assert.match(STEPS[0]!.command, /almanac token create/);
  });

  it('and the illustrations not run use only variables an earlier block defines', () => {
    const defined = new Set(ENVIRONMENT);
    const undefinedUses: string[] = [];
    for (const block of shellBlocks(README)) {
      if (!block.runnable) {
        for (const name of expandedVariables(block.text)) {
          if (!defined.has(name) && !assignedVariables(block.text).includes(name)) undefinedUses.push(`README.md:${block.line} $${name}`);
        }
      }
      for (const name of assignedVariables(block.text)) defined.add(name);
    }
    assert.deepEqual(undefinedUses, [], 'variables no earlier block defines');
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
        const res = await runStep(shell, step.command);
        assert.equal(res.status, 0, `exit ${res.status}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
        if (step.expected !== undefined) assert.match(res.stdout.trimEnd(), outputPattern(step.expected));
        // GraphQL answers its errors with 200: one the README does not show is a failing example all the same.
        else assert.doesNotMatch(res.stdout, /"errors":\[/, res.stdout);
      });
    }
  });
}
