// The change log's cost and speed (issue 32): versioned ingest over HTTP with the log on against the same run with it
// off (the ceiling: everything but the log), one consumer draining the log over HTTP, and the time from a write's
// request to a waiting long poll's answer. The server runs in a process of its own (bench/bench-server.ts), a new one
// on a new database for each run; off and on alternate for `--rounds` rounds (the order flipped each round, so drift
// in the machine falls on both), and the table gives each one's median.
//
// Also, straight to the store (no HTTP), with the log off and on: timeseries events, and the search benchmark's catalog
// (datasets of 10 to 50 fields, owners and tags: the Entity Change Events of a new schema are one per field).
//
//   npm run bench events -- [--writes 20000] [--batch 100] [--concurrency 2] [--rounds 3] [--samples 200]
//     [--store-events 20000] [--store-entities 5000] [--backend sqlite|postgres]
import { changeEventRules } from '../src/catalog/events/change-event-rules.ts';
import { openStore } from '../src/storage/open-store.ts';
import type { ChangeEventRules, WriteOp } from '../src/storage/store.ts';
import type { TestDatabase } from '../test/support/databases.ts';
import { post, postAll, serverProcess, type BenchServer } from './server-process.ts';
import { load } from './search-corpus.ts';
import { alternatingRounds, benchBackends, fmt, intFlag, median, percentile, printTable, timed } from './support.ts';

const TOPIC = 'MetadataChangeLog_Versioned_v1';

const mcp = (urn: string, description: string) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName: 'datasetProperties',
  aspect: { value: JSON.stringify({ description, customProperties: { team: 'bench' }, tags: [] }), contentType: 'application/json' },
  systemMetadata: { lastObserved: 1700000000000, runId: 'bench-events' },
});

const poll = async (server: BenchServer, query: string) => {
  const res = await fetch(`${server.url}/openapi/v1/events/poll?topic=${TOPIC}&${query}`, {
    headers: { Authorization: `Bearer ${server.adminToken}` },
  });
  if (res.status !== 200) throw new Error(`poll: ${res.status} ${await res.text()}`);
  return (await res.json()) as { offsetId: string; count: number };
};

/** `writes` new versions of datasetProperties (each a change, so each logged), in batches, over `concurrency` connections. */
async function ingest(server: BenchServer, writes: number, batch: number, concurrency: number, round: string): Promise<number> {
  const bodies: string[] = [];
  for (let i = 0; i < writes; i += batch) {
    const proposals = Array.from({ length: Math.min(batch, writes - i) }, (_, j) =>
      mcp(`urn:li:dataset:(urn:li:dataPlatform:hive,bench.events.t${(i + j) % 1000},PROD)`, `${round} ${i + j}`),
    );
    bodies.push(JSON.stringify({ proposals, async: 'false' }));
  }
  return writes / (await postAll(server, '/aspects?action=ingestProposalBatch', bodies, concurrency));
}

/** `events` datasetProfile events written to the store in batches of `batch`, one write each; events per second. */
async function storeIngest(db: TestDatabase, events: number, batch: number): Promise<number> {
  const store = await openStore(db.config);
  try {
    const op = (i: number): WriteOp => ({
      kind: 'timeseries',
      entityType: 'dataset',
      aspect: 'datasetProfile',
      urn: `urn:li:dataset:(urn:li:dataPlatform:hive,bench.events.p${i % 100},PROD)`,
      timestampMillis: 1_700_000_000_000 + i,
      docId: `d${i}`,
      event: { timestampMillis: 1_700_000_000_000 + i, rowCount: i, columnCount: 12, messageId: `m${i}` },
      systemMetadata: { runId: 'bench-events', lastObserved: 1_700_000_000_000 },
    });
    const write = async (from: number, n: number) => {
      for (let i = from; i < from + n; i += batch) {
        const ops = Array.from({ length: Math.min(batch, from + n - i) }, (_, j) => op(i + j));
        await store.aspects.write({ ops, actor: 'urn:li:corpuser:bench', now: Date.now() });
      }
    };
    await write(0, 1000);
    return events / (await timed(() => write(1000, events))).seconds;
  } finally {
    await store.database.close();
  }
}

/** Every entry from the start of the log, 5,000 a poll: entries and entries per second. */
async function drainRow(name: string, server: BenchServer): Promise<string[]> {
  let offsetId = (await poll(server, 'lookbackWindowDays=1&pollTimeoutSeconds=0&limit=1')).offsetId;
  let drained = 0;
  const drain = await timed(async () => {
    for (;;) {
      const page = await poll(server, `offsetId=${encodeURIComponent(offsetId)}&limit=5000&pollTimeoutSeconds=0`);
      if (page.count === 0) break;
      drained += page.count;
      offsetId = page.offsetId;
    }
  });
  return [name, fmt(drained), fmt(drained / drain.seconds)];
}

/** A long poll waits at the end of the log; one write; the time to the poll's answer, beside the write's own answer. */
async function latencyRow(name: string, server: BenchServer, samples: number): Promise<string[]> {
  let offsetId = (await poll(server, 'pollTimeoutSeconds=0&limit=1')).offsetId;
  for (let page = await poll(server, `offsetId=${encodeURIComponent(offsetId)}&limit=5000&pollTimeoutSeconds=0`); page.count > 0;) {
    offsetId = page.offsetId;
    page = await poll(server, `offsetId=${encodeURIComponent(offsetId)}&limit=5000&pollTimeoutSeconds=0`);
  }
  const waits: number[] = [];
  const acks: number[] = [];
  for (let i = 0; i < samples; i++) {
    const waiting = poll(server, `offsetId=${encodeURIComponent(offsetId)}&pollTimeoutSeconds=10&limit=1000`);
    await new Promise((r) => setTimeout(r, 5));
    const sent = performance.now();
    const written = post(
      server,
      '/aspects?action=ingestProposal',
      JSON.stringify({ proposal: mcp('urn:li:dataset:(urn:li:dataPlatform:hive,bench.events.latency,PROD)', `l${i}`), async: 'false' }),
    ).then(() => acks.push(performance.now() - sent));
    const page = await waiting;
    waits.push(performance.now() - sent);
    await written;
    offsetId = page.offsetId;
  }
  waits.sort((a, b) => a - b);
  acks.sort((a, b) => a - b);
  return [
    name,
    fmt(samples),
    fmt(percentile(waits, 50), 1),
    fmt(percentile(waits, 99), 1),
    fmt(percentile(acks, 50), 1),
    fmt(percentile(acks, 99), 1),
  ];
}

/** `entities` of the search benchmark's catalog (datasets of 10 to 50 fields with owners and tags, charts, dashboards, users) written to the store; entities per second. */
async function catalogIngest(db: TestDatabase, entities: number): Promise<number> {
  const store = await openStore(db.config);
  try {
    return entities / (await timed(() => load(store, 0, entities))).seconds;
  } finally {
    await store.database.close();
  }
}

export default async function eventsBench(args: string[]): Promise<void> {
  const writes = intFlag(args, 'writes', 20_000);
  const batch = intFlag(args, 'batch', 100);
  const concurrency = intFlag(args, 'concurrency', 2);
  const samples = intFlag(args, 'samples', 200);
  const rounds = intFlag(args, 'rounds', 3);
  const ingestRows: string[][] = [];
  const drainRows: string[][] = [];
  const latencyRows: string[][] = [];
  const rules = changeEventRules as { -readonly [K in keyof ChangeEventRules]: ChangeEventRules[K] };
  const logging = { changeLog: rules.changeLog, timeseriesLog: rules.timeseriesLog };
  const storeEvents = intFlag(args, 'store-events', 20_000);
  const storeRows: string[][] = [];
  const storeEntities = intFlag(args, 'store-entities', 5_000);
  const modes: Array<[string, Pick<ChangeEventRules, 'changeLog' | 'timeseriesLog'>]> = [
    ['off', { changeLog: () => [], timeseriesLog: () => [] }],
    ['on', logging],
  ];
  for (const backend of await benchBackends(args)) {
    for (const [mode, log] of modes) {
      Object.assign(rules, log);
      const db = await backend.create();
      const catalog = await backend.create();
      try {
        storeRows.push([db.name, mode, fmt(await storeIngest(db, storeEvents, batch)), fmt(await catalogIngest(catalog, storeEntities))]);
      } finally {
        await db.drop();
        await catalog.drop();
      }
    }
  }
  for (const backend of await benchBackends(args)) {
    const rates = await alternatingRounds(rounds, async (on, round) => {
      const db = await backend.create();
      const server = await serverProcess(db, on ? [] : ['log']);
      try {
        await ingest(server, 1000, batch, 1, 'warm');
        const rate = await ingest(server, writes, batch, concurrency, 'run');
        if (on && round === rounds - 1) {
          drainRows.push(await drainRow(db.name, server));
          latencyRows.push(await latencyRow(db.name, server, samples));
        }
        return rate;
      } finally {
        await server.close();
        await db.drop();
      }
    });
    const off = median(rates.off);
    const on = median(rates.on);
    ingestRows.push([backend.name, 'off', fmt(writes), fmt(off), rates.off.map((r) => fmt(r)).join(' / '), '']);
    ingestRows.push([backend.name, 'on', fmt(writes), fmt(on), rates.on.map((r) => fmt(r)).join(' / '), `${fmt((1 - on / off) * 100, 1)}%`]);
  }
  Object.assign(rules, logging);
  printTable(
    ['backend', 'log', `timeseries events/s (store, ${fmt(storeEvents)})`, `entities/s (store, ${fmt(storeEntities)} of bench/search-corpus.ts)`],
    storeRows,
  );
  console.log('');
  printTable(['backend', 'log', 'versioned writes', `writes/s (HTTP, median of ${rounds})`, 'each round', 'slower with the log'], ingestRows);
  console.log('');
  printTable(['backend', 'entries drained', 'events/s (HTTP, limit 5,000)'], drainRows);
  console.log('');
  // The write's own round trip is its commit and answer: the poll's time past it is what the log adds.
  printTable(['backend', 'samples', 'write sent to poll answered p50 ms', 'p99 ms', 'write answered p50 ms', 'p99 ms'], latencyRows);
}
