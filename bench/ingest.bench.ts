// Throughput of ingestProposalBatch for timeseries events over HTTP, against the
// raw bulk-insert rate of the same engine, measured in the same run.
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { startTestServer } from '../test/support/server.ts';
import type { TestDatabase } from '../test/support/databases.ts';
import { benchBackends, fmt, intFlag, printTable, timed } from './support.ts';

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

interface Event {
  urn: string;
  ts: number;
  value: string;
}

function makeEvents(n: number, urns: number): Event[] {
  return Array.from({ length: n }, (_, i) => {
    const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,bench.t${i % urns},PROD)`;
    const ts = START + Math.floor((i / n) * 30 * DAY);
    return { urn, ts, value: JSON.stringify({ timestampMillis: ts, rowCount: i, columnCount: 12, messageId: `m${i}` }) };
  });
}

const mcp = (urn: string, aspectName: string, value: string) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value, contentType: 'application/json' },
  systemMetadata: { lastObserved: 1700000000000, runId: 'bench' },
});

async function rawSqlite(db: TestDatabase, events: Event[], batch: number): Promise<number> {
  if (db.config.kind !== 'sqlite') throw new Error('not sqlite');
  const raw = new Database(path.join(path.dirname(db.config.path), 'raw.db'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.exec(
    'CREATE TABLE raw (ts INTEGER NOT NULL, doc_id TEXT NOT NULL, urn TEXT NOT NULL, event TEXT NOT NULL, system_metadata TEXT, PRIMARY KEY (ts, doc_id)) WITHOUT ROWID; CREATE INDEX raw_urn ON raw (urn, ts);',
  );
  const insert = raw.prepare('INSERT INTO raw VALUES (?, ?, ?, ?, ?)');
  const sm = JSON.stringify({ runId: 'bench' });
  const { seconds } = await timed(async () => {
    for (let i = 0; i < events.length; i += batch) {
      raw.transaction(() => {
        for (const [j, e] of events.slice(i, i + batch).entries()) insert.run(e.ts, `d${i + j}`, e.urn, e.value, sm);
      })();
    }
  });
  raw.close();
  return events.length / seconds;
}

async function rawPostgres(db: TestDatabase, events: Event[], batch: number): Promise<number> {
  if (db.config.kind !== 'postgres') throw new Error('not postgres');
  const client = new pg.Client({ connectionString: db.config.url });
  await client.connect();
  await client.query(
    'CREATE TABLE raw (ts BIGINT NOT NULL, doc_id TEXT NOT NULL, urn TEXT NOT NULL, event TEXT NOT NULL, system_metadata TEXT, PRIMARY KEY (ts, doc_id)); CREATE INDEX raw_urn ON raw (urn, ts);',
  );
  const sm = JSON.stringify({ runId: 'bench' });
  const { seconds } = await timed(async () => {
    for (let i = 0; i < events.length; i += batch) {
      const slice = events.slice(i, i + batch);
      await client.query('INSERT INTO raw SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[])', [
        slice.map((e) => e.ts),
        slice.map((_, j) => `d${i + j}`),
        slice.map((e) => e.urn),
        slice.map((e) => e.value),
        slice.map(() => sm),
      ]);
    }
  });
  await client.end();
  return events.length / seconds;
}

export default async function ingestBench(args: string[]): Promise<void> {
  const n = intFlag(args, 'events', 100_000);
  const batch = intFlag(args, 'batch', 1000);
  const concurrency = intFlag(args, 'concurrency', 2);
  const urns = 100;
  const events = makeEvents(n, urns);
  const rows: string[][] = [];
  for (const backend of await benchBackends(args)) {
    const db = await backend.create();
    const server = await startTestServer(db);
    try {
      const seed = Array.from({ length: urns }, (_, i) =>
        mcp(`urn:li:dataset:(urn:li:dataPlatform:hive,bench.t${i},PROD)`, 'status', '{"removed":false}'),
      );
      await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals: seed } });
      const bodies: string[] = [];
      for (let i = 0; i < n; i += batch) {
        bodies.push(JSON.stringify({ proposals: events.slice(i, i + batch).map((e) => mcp(e.urn, 'datasetProfile', e.value)), async: 'false' }));
      }
      let next = 0;
      const worker = async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!;
          const res = await fetch(`${server.url}/aspects?action=ingestProposalBatch`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0' },
            body,
          });
          if (res.status !== 200) throw new Error(`ingest failed: ${res.status} ${await res.text()}`);
        }
      };
      const api = await timed(() => Promise.all(Array.from({ length: concurrency }, worker)));
      const apiRate = n / api.seconds;
      const rawRate = db.name === 'sqlite' ? await rawSqlite(db, events, batch) : await rawPostgres(db, events, batch);
      rows.push([db.name, fmt(n), fmt(batch), fmt(apiRate), fmt(rawRate), `${fmt((apiRate / rawRate) * 100, 1)}%`]);
    } finally {
      await server.close();
      await db.drop();
    }
  }
  printTable(['backend', 'events', 'batch', 'ingestProposalBatch events/s (HTTP)', 'raw bulk insert rows/s', 'ratio'], rows);
}
