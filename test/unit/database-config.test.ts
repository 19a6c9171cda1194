import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, DEFAULT_REPLICA_MAX_LAG_MILLIS, loadConfig } from '../../src/config.ts';

const problems = (env: Record<string, string>): readonly string[] => {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe('the database variables', () => {
  it('reads replicas, the listener address and the lag bound of a PostgreSQL database', () => {
    const config = loadConfig({
      ALMANAC_DATABASE_URL: 'postgres://app@pgbouncer:6432/almanac',
      ALMANAC_DATABASE_LISTEN_URL: 'postgres://app@primary:5432/almanac',
      ALMANAC_DATABASE_READ_URLS: 'postgres://app@replica1/almanac, postgres://app@replica2/almanac',
      ALMANAC_REPLICA_MAX_LAG_MS: '250',
    });
    assert.deepEqual(config.database, {
      kind: 'postgres',
      url: 'postgres://app@pgbouncer:6432/almanac',
      listenUrl: 'postgres://app@primary:5432/almanac',
      readUrls: ['postgres://app@replica1/almanac', 'postgres://app@replica2/almanac'],
      replicaMaxLagMillis: 250,
    });
  });

  it('listens on the database URL and reads from the primary alone by default', () => {
    const config = loadConfig({ ALMANAC_DATABASE_URL: 'postgres://app@primary/almanac' });
    assert.deepEqual(config.database, {
      kind: 'postgres',
      url: 'postgres://app@primary/almanac',
      listenUrl: 'postgres://app@primary/almanac',
      readUrls: [],
      replicaMaxLagMillis: DEFAULT_REPLICA_MAX_LAG_MILLIS,
    });
  });

  it("sizes a SQLite database's page cache from ALMANAC_SQLITE_CACHE_MB, and only SQLite's", () => {
    assert.deepEqual(loadConfig({ ALMANAC_DATABASE_URL: 'sqlite:/tmp/a.db', ALMANAC_SQLITE_CACHE_MB: '512' }).database, {
      kind: 'sqlite',
      path: '/tmp/a.db',
      cacheMib: 512,
    });
    assert.deepEqual(loadConfig({ ALMANAC_DATABASE_URL: 'sqlite:/tmp/a.db' }).database, { kind: 'sqlite', path: '/tmp/a.db' });
    assert.deepEqual(problems({ ALMANAC_DATABASE_URL: 'sqlite:/tmp/a.db', ALMANAC_SQLITE_CACHE_MB: 'lots' }), [
      'ALMANAC_SQLITE_CACHE_MB: must be an integer from 2 to 1048576, got "lots"',
    ]);
    assert.deepEqual(problems({ ALMANAC_DATABASE_URL: 'sqlite:/tmp/a.db', ALMANAC_SQLITE_CACHE_MB: '1' }), [
      'ALMANAC_SQLITE_CACHE_MB: must be an integer from 2 to 1048576, got "1"',
    ]);
    assert.deepEqual(problems({ ALMANAC_DATABASE_URL: 'postgres://app@primary/almanac', ALMANAC_SQLITE_CACHE_MB: '512' }), [
      'ALMANAC_SQLITE_CACHE_MB: needs a SQLite database (PostgreSQL caches in its own shared_buffers)',
    ]);
  });

  it('names each bad variable', () => {
    assert.deepEqual(
      problems({
        ALMANAC_DATABASE_URL: 'postgres://app@primary/almanac',
        ALMANAC_DATABASE_READ_URLS: 'sqlite:./replica.db',
        ALMANAC_DATABASE_LISTEN_URL: 'mysql://x',
        ALMANAC_REPLICA_MAX_LAG_MS: 'soon',
      }),
      [
        'ALMANAC_REPLICA_MAX_LAG_MS: must be an integer from 1 to 3600000, got "soon"',
        'ALMANAC_DATABASE_READ_URLS: must be a postgres:// URL',
        'ALMANAC_DATABASE_LISTEN_URL: must start with sqlite: or postgres://, got "mysql:..."',
      ],
    );
    assert.deepEqual(problems({ ALMANAC_DATABASE_URL: 'sqlite:/tmp/a.db', ALMANAC_DATABASE_READ_URLS: 'postgres://r/a' }), [
      'ALMANAC_DATABASE_READ_URLS: read replicas need a PostgreSQL database (ALMANAC_DATABASE_URL=postgres://...)',
    ]);
  });
});
