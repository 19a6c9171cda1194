import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startPgBouncer, type PgBouncer } from '../../scripts/pgbouncer.mjs';
import { LISTENER_UNHEARD_MESSAGE } from '../../src/storage/postgres/auth-listener.ts';
import { runProcess } from '../support/cli.ts';
import { onDatabase, POSTGRES_ADMIN_URL, postgresSkipReason, queryAt, type TestDatabase } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { childEnv, startServerProcess, type ServerProcess } from '../support/process.ts';
import { startTestServer } from '../support/server.ts';

/** The server itself, even when this run's pools already go through a pooler (run-tests.mjs --pgbouncer). */
const SERVER_URL = process.env.ALMANAC_TEST_POSTGRES_DIRECT_URL ?? POSTGRES_ADMIN_URL;
const postgresSkip = await postgresSkipReason();
const bouncer = postgresSkip ? undefined : await startPgBouncer(SERVER_URL);
if (bouncer?.unavailable && process.env.CI) throw new Error(`the PgBouncer tier cannot run: ${bouncer.unavailable}`);
const skip = postgresSkip ?? bouncer?.unavailable;

const admin = (sql: string) => queryAt(SERVER_URL, sql);

describe('behind PgBouncer in transaction mode', { skip }, () => {
  const name = `almanac_bouncer_${crypto.randomBytes(6).toString('hex')}`;
  let pooled: string;
  let direct: string;
  let server: ServerProcess | undefined;

  before(async () => {
    await admin(`CREATE DATABASE ${name}`);
    pooled = (bouncer as PgBouncer).url(name);
    direct = onDatabase(SERVER_URL, name);
  });
  after(async () => {
    await server?.stop();
    await (bouncer as PgBouncer).stop();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('refuses to start when its listener goes through the pooler, saying why', async () => {
    const res = await runProcess(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: childEnv({ ALMANAC_DATABASE_URL: pooled, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }),
    });
    assert.equal(res.code, 1, res.stdout);
    assert.ok(res.stderr.includes(`almanac: failed to start: ${LISTENER_UNHEARD_MESSAGE}`), res.stderr);
  });

  it('serves two processes through the pooler with their listeners straight to PostgreSQL: writes, reads, a revocation at once', async () => {
    const env = { ALMANAC_DATABASE_URL: pooled, ALMANAC_DATABASE_LISTEN_URL: direct };
    const db: TestDatabase = {
      name: 'postgres',
      config: { kind: 'postgres', url: pooled, listenUrl: direct },
      url: pooled,
      env,
      drop: async () => {},
    };
    const first = await startTestServer(db);
    try {
      const second = await startServerProcess(env);
      server = second;
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,bouncer.table,PROD)';
      const { token, record } = await first.app.services.tokens.mint({
        actorUrn: 'urn:li:corpuser:datahub',
        ownerUrn: 'urn:li:corpuser:datahub',
        duration: 'ONE_DAY',
        name: 'through the pooler',
      });
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      for (let i = 0; i < 20; i++) {
        const wrote = await first.request('POST', '/aspects?action=ingestProposal', {
          body: { proposal: mcp(urn, 'datasetProperties', { description: `v${i}` }) },
        });
        assert.equal(wrote.status, 200, wrote.text);
        const res = await fetch(`${second.address}/aspects/${encodeURIComponent(urn)}?aspect=datasetProperties&version=0`, { headers });
        assert.equal(res.status, 200);
        const body = (await res.json()) as { aspect: Record<string, { description: string }> };
        assert.equal(Object.values(body.aspect)[0]!.description, `v${i}`);
      }
      const revoked = await first.request('POST', '/api/graphql', {
        body: { query: 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }', variables: { id: record.id } },
      });
      assert.deepEqual(revoked.json.data, { revokeAccessToken: true });
      const refused = await fetch(`${second.address}/aspects/${encodeURIComponent(urn)}?aspect=datasetProperties&version=0`, { headers });
      assert.equal(refused.status, 401);
      assert.equal((await fetch(`${second.address}/ready`)).status, 200);
    } finally {
      await first.close();
    }
  });
});
