import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { translatePostgresError } from '../../src/storage/postgres/driver-errors.ts';
import { inTransaction } from '../../src/storage/postgres/transaction.ts';
import { backends, queryAt, POSTGRES_ADMIN_URL, type TestDatabase } from '../support/databases.ts';

const postgres = (await backends()).find((b) => b.name === 'postgres')!;

describe('a PostgreSQL connection cut in the middle of a transaction', { skip: postgres.skip }, () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  before(async () => {
    db = await postgres.create();
    pool = new pg.Pool({ connectionString: db.url, max: 1 });
  });
  after(async () => {
    await pool.end();
    await db.drop();
  });

  // Bounded: a lost connection handed back to the pool as if whole left the next statement waiting for ever.
  it('fails that transaction, not the process, and the pool connects again', { timeout: 10_000 }, async () => {
    const failure = await inTransaction(pool, async (c) => {
      const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // Between two statements, the connection is cut (a failover, an administrator): the client hears it now, with
      // no statement of its own under way.
      const ended = new Promise((resolve) => c.once('end', resolve));
      await queryAt(POSTGRES_ADMIN_URL, `SELECT pg_terminate_backend(${rows[0]!.pid})`);
      await ended;
      await c.query('SELECT 1');
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(failure instanceof Error, 'the transaction failed');
    // As the store reports it: unavailable (503 to the caller), not an unexpected error.
    assert.equal((translatePostgresError(failure) as { kind?: string }).kind, 'UNAVAILABLE', String(failure));
    // The lost connection was dropped: the pool's one connection is a new one.
    assert.equal((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one, 1);
  });
});
