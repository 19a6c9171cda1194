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
/**
 * Set by `run-tests.mjs --pgbouncer`: the server itself, while ALMANAC_TEST_POSTGRES_URL is PgBouncer's. Databases are
 * made and dropped here, and each test database's listener connects here (ALMANAC_DATABASE_LISTEN_URL).
 */
const POSTGRES_DIRECT_URL = process.env.ALMANAC_TEST_POSTGRES_DIRECT_URL;
/** Set by `run-tests.mjs --replicas`: a streaming replica of ALMANAC_TEST_POSTGRES_URL, which every server reads from. */
const POSTGRES_READ_URL = process.env.ALMANAC_TEST_POSTGRES_READ_URL;
/** A pooler's or a replica's run tests PostgreSQL only: the SQLite tier ran in the ordinary run. */
const POSTGRES_ONLY = POSTGRES_DIRECT_URL || POSTGRES_READ_URL ? 'this run (--pgbouncer or --replicas) tests PostgreSQL only' : undefined;

export interface TestDatabase {
  readonly name: 'sqlite' | 'postgres';
  readonly config: DatabaseConfig;
  readonly url: string;
  /** The variables that point a server process at it (the database URL, and the listener's and replicas' when the run has them). */
  readonly env: Readonly<Record<string, string>>;
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
    env: { ALMANAC_DATABASE_URL: `sqlite:${file}` },
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** `base` (a server's URL) naming database `name`. */
export function onDatabase(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database per caller, so test runs never see each other's data. */
export async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `almanac_test_${crypto.randomBytes(6).toString('hex')}`;
  const adminUrl = POSTGRES_DIRECT_URL ?? POSTGRES_ADMIN_URL;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = onDatabase(POSTGRES_ADMIN_URL, name);
  const listenUrl = POSTGRES_DIRECT_URL && onDatabase(POSTGRES_DIRECT_URL, name);
  const readUrl = POSTGRES_READ_URL && onDatabase(POSTGRES_READ_URL, name);
  return {
    name: 'postgres',
    config: { kind: 'postgres', url, ...(listenUrl ? { listenUrl } : {}) },
    url,
    env: {
      ALMANAC_DATABASE_URL: url,
      ...(listenUrl ? { ALMANAC_DATABASE_LISTEN_URL: listenUrl } : {}),
      ...(readUrl ? { ALMANAC_DATABASE_READ_URLS: readUrl } : {}),
    },
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
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
    { name: 'sqlite', skip: POSTGRES_ONLY, create: createSqliteDatabase },
    { name: 'postgres', skip: await postgresSkipReason(), create: createPostgresDatabase },
  ];
}

/** Runs one statement on a connection of its own to `url` (an admin's CREATE DATABASE, a replica's replay controls). */
export async function queryAt(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
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
