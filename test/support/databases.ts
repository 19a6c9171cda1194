import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.ts';

/**
 * The backends every conformance and API test runs against. PostgreSQL is on
 * unless ALMANAC_TEST_POSTGRES_URL is "off"; in CI an unreachable PostgreSQL is
 * a failure, never a silent skip.
 */
export const POSTGRES_ADMIN_URL = process.env.ALMANAC_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  readonly name: 'sqlite' | 'postgres';
  readonly config: DatabaseConfig;
  readonly url: string;
  drop(): Promise<void>;
}

let postgresReachable: Promise<string | undefined> | undefined;

/** undefined when PostgreSQL answers, otherwise why it is skipped. */
export function postgresSkipReason(): Promise<string | undefined> {
  postgresReachable ??= (async () => {
    if (POSTGRES_ADMIN_URL === 'off') return 'ALMANAC_TEST_POSTGRES_URL=off';
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.end();
      return undefined;
    } catch (e) {
      const reason = `PostgreSQL at ${POSTGRES_ADMIN_URL} is unreachable (${(e as Error).message})`;
      if (process.env.CI) throw new Error(`${reason}; CI must run both backends`);
      return reason;
    }
  })();
  return postgresReachable;
}

export async function createSqliteDatabase(): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-test-'));
  const file = path.join(dir, 'almanac.db');
  return {
    name: 'sqlite',
    config: { kind: 'sqlite', path: file },
    url: `sqlite:${file}`,
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh database per caller, so test runs never see each other's data. */
export async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `almanac_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name: 'postgres',
    config: { kind: 'postgres', url: url.toString() },
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface Backend {
  readonly name: 'sqlite' | 'postgres';
  readonly skip: string | undefined;
  create(): Promise<TestDatabase>;
}

/** Every backend, each with its skip reason (if any) resolved up front. */
export async function backends(): Promise<Backend[]> {
  return [
    { name: 'sqlite', skip: undefined, create: createSqliteDatabase },
    { name: 'postgres', skip: await postgresSkipReason(), create: createPostgresDatabase },
  ];
}

/** Runs `use` on a connection of its own to the database (the engine's driver), closed afterwards. */
export async function onConnection<T>(
  db: TestDatabase,
  use: { sqlite: (conn: import('better-sqlite3').Database) => T; postgres: (client: pg.Client) => Promise<T> },
): Promise<T> {
  if (db.config.kind === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const conn = new Database(db.config.path);
    try {
      return use.sqlite(conn);
    } finally {
      conn.close();
    }
  }
  const client = new pg.Client({ connectionString: db.config.url });
  await client.connect();
  try {
    return await use.postgres(client);
  } finally {
    await client.end();
  }
}

/** Runs SQL on a connection of its own, as another process sharing the database would (no parameters: literals only). */
export const execElsewhere = (db: TestDatabase, sql: string): Promise<void> =>
  onConnection(db, { sqlite: (conn) => void conn.exec(sql), postgres: async (client) => void (await client.query(sql)) });
