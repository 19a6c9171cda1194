import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { translatePostgresError } from '../../src/storage/postgres/driver-errors.ts';
import { StoreError } from '../../src/storage/store-error.ts';
import { POSTGRES_ADMIN_URL, postgresSkipReason } from '../support/databases.ts';

describe("PostgreSQL's driver errors as the store's", { skip: await postgresSkipReason() }, () => {
  it('a full pool that gives no connection within its wait limit is unavailable (a replica read then goes to the primary)', async () => {
    // The first connection may take its time (a loaded CI machine took over 50 ms); only the wait is bounded tight.
    const pool = new pg.Pool({ connectionString: POSTGRES_ADMIN_URL, max: 1, connectionTimeoutMillis: 10_000 });
    const held = await pool.connect();
    (pool.options as { connectionTimeoutMillis: number }).connectionTimeoutMillis = 50;
    try {
      const waited = await pool.connect().then(
        (c) => {
          c.release();
          return undefined;
        },
        (e: unknown) => e,
      );
      const translated = translatePostgresError(waited);
      assert.ok(translated instanceof StoreError, String(waited));
      assert.equal(translated.kind, 'UNAVAILABLE');
    } finally {
      held.release();
      await pool.end();
    }
  });

  it('leaves an error of the statement itself as it is', () => {
    const e = Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' });
    assert.equal(translatePostgresError(e), e);
  });
});
