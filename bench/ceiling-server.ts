// The GraphQL benchmark's ceilings: a bare node:http server doing the same database work as one request of Almanac,
// and nothing else. Read: parse the GraphQL body, read the dataset's deprecation row by primary key from the same
// database (the same SQLite file, or a pool of the adapter's size on the same PostgreSQL database), answer it as JSON.
// Write: parse the body and run one single-row upsert transaction. No auth, no GraphQL, no versioning: what is left
// between Almanac and these is Almanac's own cost.
import http from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestDatabase } from '../test/support/databases.ts';

const POOL_SIZE = 10;
const READ_SQL = "SELECT metadata FROM aspects WHERE urn = $1 AND aspect = 'deprecation' AND version = 0";
const WRITE_TABLE = 'CREATE TABLE IF NOT EXISTS bench_ceiling (urn TEXT PRIMARY KEY, v TEXT NOT NULL)';
const WRITE_SQL = 'INSERT INTO bench_ceiling (urn, v) VALUES ($1, $2) ON CONFLICT (urn) DO UPDATE SET v = excluded.v';

interface Engine {
  read(urn: string): Promise<unknown>;
  write(urn: string, value: string): Promise<void>;
  close(): Promise<void>;
}

function sqliteEngine(file: string): Engine {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(WRITE_TABLE);
  const read = db.prepare(READ_SQL.replace('$1', '?'));
  const upsert = db.prepare(WRITE_SQL.replace('$1', '?').replace('$2', '?'));
  const write = db.transaction((urn: string, v: string) => upsert.run(urn, v));
  return {
    read: async (urn) => {
      const row = read.get(urn) as { metadata: string } | undefined;
      return row ? JSON.parse(row.metadata) : null;
    },
    write: async (urn, v) => void write.immediate(urn, v),
    close: async () => {
      db.close();
    },
  };
}

async function postgresEngine(url: string): Promise<Engine> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  await pool.query(WRITE_TABLE);
  return {
    read: async (urn) => (await pool.query<{ metadata: unknown }>(READ_SQL, [urn])).rows[0]?.metadata ?? null,
    write: async (urn, v) => void (await pool.query(WRITE_SQL, [urn, v])),
    close: () => pool.end(),
  };
}

export interface CeilingServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the ceiling on port 0: a GraphQL `query` body is a read, a `mutation` body a write. */
export async function startCeilingServer(db: TestDatabase): Promise<CeilingServer> {
  const engine = db.config.kind === 'sqlite' ? sqliteEngine(db.config.path) : await postgresEngine(db.config.url);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          query: string;
          variables: { urn?: string; input?: { urn: string; note: string } };
        };
        let data: unknown;
        if (body.query.startsWith('mutation')) {
          await engine.write(body.variables.input!.urn, JSON.stringify(body.variables.input));
          data = { updateDeprecation: true };
        } else {
          const d = (await engine.read(body.variables.urn!)) as { deprecated?: boolean; decommissionTime?: number } | null;
          data = { dataset: { deprecation: { deprecated: d?.deprecated ?? false, decommissionTime: d?.decommissionTime ?? null } } };
        }
        const out = JSON.stringify({ data, extensions: {} });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) }).end(out);
      })().catch((e: unknown) => res.writeHead(500).end(String(e)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/api/graphql`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await engine.close();
    },
  };
}
