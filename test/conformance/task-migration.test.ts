// The migration to generic tasks keeps every task a database already holds readable, with the same answers.
// test/fixtures/tasks-before-generic.db was written by the release before it (commit e9c7ad4's code, through the
// store's createTruncationTask and updateTask): a completed, a failed and a running truncation task. Its
// .expected.json holds what that release's server answered for them on /api/tasks and getEsTaskStatus.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { POSTGRES_MIGRATIONS } from '../../src/storage/postgres/migrations.ts';
import { createPostgresDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startTruncation } from '../support/truncation.ts';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/tasks-before-generic.db');
const EXPECTED = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/tasks-before-generic.expected.json'), 'utf8'));
/** The migrations the fixture's release had applied: the generic-tasks one is the next. */
const APPLIED_BEFORE = 10;
/** The running task is found orphaned at start-up and failed then: when, and so for how long it ran, is the clock's. */
const CLOCK_FIELDS = new Set(['endedAt', 'runTimeMillis', 'runTimeNanos']);

/* eslint-disable @typescript-eslint/no-explicit-any */
const withoutClock = (v: any): any =>
  Array.isArray(v)
    ? v.map(withoutClock)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !CLOCK_FIELDS.has(k))
            .map(([k, x]) => [k, withoutClock(x)]),
        )
      : v;

async function assertSameAnswers(server: TestServer): Promise<void> {
  const list = await server.request('GET', '/api/tasks?limit=10');
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(withoutClock(list.json.tasks), withoutClock(EXPECTED.tasks));
  const interrupted = list.json.tasks.find((t: any) => t.id === 'fixture-node-c:3');
  assert.ok(interrupted.endedAt >= interrupted.startedAt);
  for (const [i, t] of list.json.tasks.entries()) {
    const [nodeId, n] = (t.id as string).split(':');
    const status = await server.request('POST', '/operations?action=getEsTaskStatus', { body: { nodeId, taskId: Number(n) } });
    assert.equal(status.status, 200, status.text);
    // DataHub's answer is the task document as a JSON string.
    assert.deepEqual(withoutClock(JSON.parse(status.json.value)), withoutClock(JSON.parse(EXPECTED.status[i].value)));
  }
  // New tasks number on from the old ones, and one truncation per index still holds.
  const id = await startTruncation(server.request, { endTimeMillis: 1 });
  assert.match(id, /:4$/);
}

const postgresSkip = await postgresSkipReason();
/** The daily retention run is a task too: one started by the scheduler would take the number the test expects. */
const NO_SCHEDULED_RUNS = { ALMANAC_RETENTION_SCHEDULE: 'off' };

describe('the migration to generic tasks', () => {
  it('reads the tasks of a SQLite database written by the release before it, with the same answers', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-task-migration-'));
    const file = path.join(dir, 'almanac.db');
    fs.copyFileSync(FIXTURE, file);
    const db: TestDatabase = {
      name: 'sqlite',
      config: { kind: 'sqlite', path: file },
      url: `sqlite:${file}`,
      env: { ALMANAC_DATABASE_URL: `sqlite:${file}` },
      drop: async () => undefined,
    };
    const server = await startTestServer(db, NO_SCHEDULED_RUNS);
    try {
      await assertSameAnswers(server);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the same tasks from a PostgreSQL database in the release-before state', { skip: postgresSkip }, async () => {
    const db = await createPostgresDatabase();
    try {
      // The schema as the release before left it, and its tasks rows, copied from the fixture in number order.
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
      for (const [i, sql] of POSTGRES_MIGRATIONS.slice(0, APPLIED_BEFORE).entries()) {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [i + 1, Date.now()]);
      }
      // Read from a copy: even a read-only open of a WAL database leaves files beside it.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-task-fixture-'));
      fs.copyFileSync(FIXTURE, path.join(dir, 'fixture.db'));
      const fixture = new Database(path.join(dir, 'fixture.db'), { readonly: true });
      const rows = fixture.prepare('SELECT * FROM tasks ORDER BY number').all() as Array<Record<string, unknown>>;
      fixture.close();
      fs.rmSync(dir, { recursive: true, force: true });
      for (const row of rows) {
        const { number: _number, ...columns } = row;
        columns.cancel_requested = Boolean(columns.cancel_requested);
        const names = Object.keys(columns);
        await client.query(`INSERT INTO tasks (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(columns));
      }
      await client.end();
      const server = await startTestServer(db, NO_SCHEDULED_RUNS);
      try {
        await assertSameAnswers(server);
      } finally {
        await server.close();
      }
    } finally {
      await db.drop();
    }
  });
});
