import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { runAlmanac } from '../support/cli.ts';
import { backends } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { useServer } from '../support/lifecycle.ts';
import { ROOT } from '../support/process.ts';
import type { TestServer } from '../support/server.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,exit.codes,PROD)';
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('almanac --version', () => {
  it('prints the version from package.json and exits 0, with or without a command after it', async () => {
    for (const flag of ['--version', '-V']) {
      const res = await runAlmanac([flag]);
      assert.deepEqual(res, { code: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });
});

describe('a command line the CLI cannot parse exits 2', () => {
  it('an unknown option, a missing argument, an unknown command, a value out of its choices', async () => {
    for (const args of [['get', 'urn:li:corpuser:x', '--no-such-option'], ['get'], ['frobnicate'], ['token', 'create', '--duration', 'FOREVER']]) {
      const res = await runAlmanac(args);
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
      assert.match(res.stderr, /^error: /, args.join(' '));
    }
  });

  it('no command at all shows the help on stderr', async () => {
    const res = await runAlmanac([]);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /^Usage: almanac /);
  });
});

describe('a bootstrap command whose database cannot be reached exits 5', () => {
  it('names the database, redacted, and exits 5', async () => {
    const res = await runAlmanac(['token', 'list'], { env: { ALMANAC_DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/nope' } });
    assert.equal(res.code, 5, res.stderr);
    assert.match(res.stderr, /almanac: cannot open postgres:\/\/postgres:\*+@127\.0\.0\.1:1\/nope: /);
    assert.doesNotMatch(res.stderr, /hunter2/);
  });
});

for (const backend of await backends()) {
  describe(`exit statuses against a real server (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let reader: string;
    useServer(backend, async (s) => {
      server = s;
      assert.equal(
        (await s.request('POST', '/aspects?action=ingestProposal', { body: { proposal: mcp(URN, 'status', { removed: false }) } })).status,
        200,
      );
      reader = (await actorWithRole(s, 'exit-reader', 'Reader')).slice('Bearer '.length);
    });
    const cli = (args: string[], token = server.adminToken, url = server.url) =>
      runAlmanac(args, { env: { DATAHUB_GMS_URL: url, DATAHUB_GMS_TOKEN: token } });

    it('0 when the command did what it was asked', async () => {
      const res = await cli(['get', URN, '--json']);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(JSON.parse(res.stdout)['com.linkedin.metadata.snapshot.DatasetSnapshot'].urn, URN);
    });

    it('2 when the server refuses the input as invalid (400)', async () => {
      const res = await cli(['truncate', '--entity-type', 'dataset', '--aspect', 'noSuchAspect', '--older-than', '1d']);
      assert.equal(res.code, 2, res.stderr);
      assert.match(res.stderr, /^almanac: 400: /);
    });

    it('3 without a valid token (401), and for a caller without the privilege (403)', async () => {
      const bad = await cli(['get', URN], 'not-a-token');
      assert.equal(bad.code, 3, bad.stderr);
      assert.match(bad.stderr, /^almanac: 401: /);
      const forbidden = await cli(['delete', '--urn', URN, '--hard'], reader);
      assert.equal(forbidden.code, 3, forbidden.stderr);
      assert.match(forbidden.stderr, /^almanac: 403: /);
      assert.equal((await server.request('POST', '/entities?action=exists', { body: { urn: URN } })).json.value, true, 'nothing was deleted');
    });

    it('3 for a GraphQL command the caller may not run', async () => {
      const res = await cli(['deprecate', URN, '--note', 'no'], reader);
      assert.equal(res.code, 3, res.stderr);
    });

    it('4 for what does not exist, over REST and GraphQL', async () => {
      const rest = await cli(['get', 'urn:li:dataset:(urn:li:dataPlatform:hive,exit.missing,PROD)']);
      assert.equal(rest.code, 4, rest.stderr);
      const task = await cli(['task', 'status', 'nosuchnode:42']);
      assert.equal(task.code, 4, task.stderr);
    });

    it('5 when the server cannot be reached', async () => {
      const res = await cli(['get', URN], server.adminToken, 'http://127.0.0.1:9');
      assert.equal(res.code, 5, res.stderr);
      assert.match(res.stderr, /^almanac: cannot reach http:\/\/127\.0\.0\.1:9: .*\n$/);
    });
  });
}
