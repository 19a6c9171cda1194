// Search over the index (issue 31): a generated catalog (bench/search-corpus.ts: datasets, charts, dashboards, users)
// loaded through the store's write path, then each kind of search as clients send it (GraphQL over loopback HTTP with
// a bearer token: searchAcrossEntities with its total and facets, scrollAcrossEntities of urns alone as the SDK's
// get_urns_by_filter pages them, autoComplete), against a ceiling doing the same index
// work in the same run: a bare node:http server calling the store's search part directly (the same statement: page,
// total, facets), no authentication, GraphQL or entity loading. The load generator is wrk in its own process, one
// connection (latency) then four (throughput). Also: what the index costs a write (the same load with and without
// search entries, through the store and over HTTP as DataHub's REST emitter sends it), and the build of the index over the whole loaded catalog, against the engine's own bulk build.
//
//   npm run bench search -- --entities 1000000 [--backend sqlite|postgres] [--write-sample 10000] [--seconds 5]
//     [--keep <sqlite file | postgres:// url of an existing database>] [--backfill no] [--http-rounds 3]
//
// --keep loads the catalog into that database and leaves it there; a later run given the same place and --entities
// finds the catalog loaded and measures the searches without loading it again (a million entities take about an
// hour to load through the write path on two cores).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { aspectIndexer, makeAspectIndexer } from '../src/catalog/relationships/aspect-indexer.ts';
import { parseSearchQuery } from '../src/catalog/search/search-query.ts';
import { openStore } from '../src/storage/open-store.ts';
import type { AspectIndexer, SearchQuery, Store } from '../src/storage/store.ts';
import { execElsewhere, type TestDatabase } from '../test/support/databases.ts';
import { startTestServer } from '../test/support/server.ts';
import { SEARCH_FACETS } from '../src/catalog/search/search-facets.ts';
import { datasetName, load, middleDataset, PERCENT_WORD, proposalBodies, RARE_WORD } from './search-corpus.ts';
import { postAll, serverProcess } from './server-process.ts';
import { alternatingRounds, benchBackends, flag, fmt, intFlag, keptDatabase, median, printTable, timed } from './support.ts';
import { ensureWrk, wrk, type WrkResult } from './wrk.ts';

/** The searches measured, as GraphQL bodies for Almanac and as port calls for the ceiling. */
interface Kind {
  readonly name: string;
  readonly gql: string;
  readonly query: SearchQuery;
  readonly facets: boolean;
  /** What autocomplete completes (the ceiling reads the names starting with it). */
  readonly autocomplete?: string;
  /** The page's size (10 unless given), and whether its total is asked. */
  readonly count?: number;
  readonly withTotal?: boolean;
}

/** The page of a scroll of urns alone, as DataHub's SDK sends it (get_urns_by_filter's batch size). */
const SCROLL_COUNT = 5000;
const SCROLL_DOC =
  'query s($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) { nextScrollId searchResults { entity { urn } } } }';

const SEARCH_DOC =
  'query s($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn } } facets { field aggregations { value count } } } }';
const FACETS = SEARCH_FACETS.map(([field]) => field);

function kinds(n: number): Kind[] {
  const search = (name: string, query: string, orFilters: unknown[] = [], facets = true): Kind => ({
    name,
    gql: JSON.stringify({
      query: SEARCH_DOC,
      variables: { input: { types: ['DATASET'], query, start: 0, count: 10, orFilters, searchFlags: { skipAggregates: !facets } } },
    }),
    query: {
      entityTypes: ['dataset'],
      ...(query === '*' ? {} : { query }),
      parsed: parseSearchQuery(query),
      filter: orFilters.map((g) =>
        ((g as { and: Array<{ field: string; values: string[] }> }).and ?? []).map((c) => ({ field: c.field, values: c.values })),
      ),
      includeSoftDeleted: false,
      sort: [],
    },
    facets,
  });
  const exact = datasetName(middleDataset(n));
  return [
    search('one word, total and facets', 'customers'),
    search('a word in 1% of entities, total and facets', PERCENT_WORD),
    search('rare word, total', RARE_WORD, [], false),
    search('exact name, total', exact, [], false),
    search(
      'filter only (platform + tag), total',
      '*',
      [
        {
          and: [
            { field: 'platform', values: ['urn:li:dataPlatform:snowflake'] },
            { field: 'tags', values: ['urn:li:tag:pii'] },
          ],
        },
      ],
      false,
    ),
    {
      name: `a scroll of ${fmt(SCROLL_COUNT)} urns (platform)`,
      gql: JSON.stringify({
        query: SCROLL_DOC,
        variables: {
          input: {
            types: ['DATASET'],
            query: '*',
            count: SCROLL_COUNT,
            orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:snowflake'] }] }],
            searchFlags: { skipAggregates: true },
          },
        },
      }),
      query: {
        entityTypes: ['dataset'],
        parsed: parseSearchQuery('*'),
        filter: [[{ field: 'platform', values: ['urn:li:dataPlatform:snowflake'] }]],
        includeSoftDeleted: false,
        sort: [],
      },
      facets: false,
      count: SCROLL_COUNT,
      withTotal: false,
    },
    {
      name: 'autocomplete',
      gql: JSON.stringify({
        query: 'query a($input: AutoCompleteInput!) { autoComplete(input: $input) { suggestions } }',
        variables: { input: { type: 'DATASET', query: 'paym', limit: 10 } },
      }),
      query: { entityTypes: ['dataset'], query: 'paym*', parsed: parseSearchQuery('paym*'), filter: [], includeSoftDeleted: false, sort: [] },
      facets: false,
      autocomplete: 'paym',
    },
  ];
}

/** The ceiling: the same index reads through the store's search part, behind a bare node:http server. */
async function startCeiling(store: Store, list: readonly Kind[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const kind = list[Number(req.url?.slice(1))]!;
    const work = async () => {
      // Autocomplete reads the names starting with the text first, as the catalog does (enough of them: no search).
      if (kind.autocomplete !== undefined) return { hits: await store.search.namesStartingWith(kind.query, kind.autocomplete, 10) };
      const page = await store.search.search({
        ...kind.query,
        paging: { start: 0, count: kind.count ?? 10 },
        withTotal: kind.withTotal ?? true,
        ...(kind.facets ? { facets: FACETS } : {}),
      });
      const facets = page.facets ? Object.fromEntries([...page.facets].map(([f, m]) => [f, Object.fromEntries(m)])) : undefined;
      return { hits: page.hits, total: page.total, facets };
    };
    work().then(
      (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      (e) => res.writeHead(500).end(String(e)),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** The same indexer with no search entries (none computed either): the ingest's ceiling. */
const noSearch: AspectIndexer = makeAspectIndexer({ search: false });

/** Proposals per ingestProposalBatch request (the REST emitter's default) and requests in flight. */
const HTTP_BATCH = 200;
const HTTP_CONCURRENCY = 2;

/**
 * Ingest over HTTP as DataHub's REST emitter sends it (`ingestProposalBatch`, bearer token), with the index and
 * without search entries (the ceiling: everything else the same), each on a new database with a server in a process
 * of its own, the load generated in this one; `rounds` rounds alternating, the order flipped each round, medians.
 */
async function httpIngest(backend: { name: string; create: () => Promise<TestDatabase> }, n: number, rounds: number): Promise<void> {
  const bodies = proposalBodies(0, n, HTTP_BATCH);
  const rates = await alternatingRounds(rounds, async (on) => {
    const db = await backend.create();
    const server = await serverProcess(db, on ? [] : ['search']);
    try {
      return n / (await postAll(server, '/aspects?action=ingestProposalBatch', bodies, HTTP_CONCURRENCY));
    } finally {
      await server.close();
      await db.drop();
    }
  });
  const without = median(rates.off);
  const withIndex = median(rates.on);
  console.log(
    `\n${backend.name}: ingest of ${fmt(n)} entities over HTTP (ingestProposalBatch of ${HTTP_BATCH}, ${HTTP_CONCURRENCY} in flight, median of ${rounds})`,
  );
  printTable(
    ['backend', 'index', 'entities/s', 'each round', 'of without', 'index ms per entity'],
    [
      [backend.name, 'without search entries', fmt(without), rates.off.map((r) => fmt(r)).join(' / '), '', ''],
      [
        backend.name,
        'with the index',
        fmt(withIndex),
        rates.on.map((r) => fmt(r)).join(' / '),
        `${fmt((100 * withIndex) / without)}%`,
        fmt(1000 / withIndex - 1000 / without, 2),
      ],
    ],
  );
}

/** The engine's own bulk build of the same index structures over the rows already there: the backfill's ceiling. */
const bulkIndexBuild = (db: TestDatabase): Promise<void> =>
  execElsewhere(
    db,
    db.config.kind === 'sqlite'
      ? `INSERT INTO search_words (search_words) VALUES ('rebuild'); REINDEX search_fields; REINDEX search_text; REINDEX search_docs; REINDEX search_key_values;`
      : 'REINDEX TABLE search_fields; REINDEX TABLE search_text; REINDEX TABLE search_facet_lists;',
  );

/** Empties the search index tables, as a database from before the index has them (not timed). */
const emptyIndex = (db: TestDatabase): Promise<void> =>
  execElsewhere(
    db,
    db.config.kind === 'sqlite'
      ? 'DELETE FROM search_text; DELETE FROM search_fields; DELETE FROM search_keys; DELETE FROM search_key_values; DELETE FROM search_docs;'
      : 'TRUNCATE search_fields, search_text, search_facet_lists;',
  );

/** What autovacuum does after a bulk load on PostgreSQL (statistics for the planner, the visibility map), done now. */
const settle = async (db: TestDatabase): Promise<void> => (db.config.kind === 'postgres' ? execElsewhere(db, 'VACUUM ANALYZE') : undefined);

/** Requests per second, with a decimal when under ten (a search of seconds runs a fraction of one). */
const rate = (perSecond: number): string => fmt(perSecond, perSecond < 10 ? 1 : 0);

const progress = (label: string, total: number, started: bigint) => (done: number) => {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`  ${label}: ${fmt(done)} / ${fmt(total)} (${fmt(done / seconds)}/s)`);
};

/** How many entities a database holds (0 for a new one). */
async function entityCount(store: Store): Promise<number> {
  return (
    (await store.search.count({ entityTypes: ['dataset', 'chart', 'dashboard', 'corpuser'], filter: [], includeSoftDeleted: true, sort: [] })) ?? 0
  );
}

export default async function searchBench(args: string[]): Promise<void> {
  // --datasets is the flag's earlier name.
  const entities = intFlag(args, 'entities', intFlag(args, 'datasets', 100_000));
  const writeSample = intFlag(args, 'write-sample', 10_000);
  const seconds = intFlag(args, 'seconds', 5);
  const withBackfill = flag(args, 'backfill', 'yes') !== 'no';
  // 0: no ingest over HTTP.
  const httpRounds = flag(args, 'http-rounds', '3') === '0' ? 0 : intFlag(args, 'http-rounds', 3);
  ensureWrk();
  const keep = flag(args, 'keep', '');
  const kept = keep === '' ? undefined : keptDatabase(keep);
  const backends = kept ? (await benchBackends(args)).filter((b) => b.name === kept.name) : await benchBackends(args);
  for (const backend of backends) {
    // What the index costs a write: the same entities into two fresh databases, with and without search entries,
    // through the store, then over HTTP as DataHub's REST emitter sends them.
    const writes: string[][] = [];
    for (const [label, indexer] of [
      ['without search entries', noSearch],
      ['with the index', aspectIndexer],
    ] as const) {
      const db = await backend.create();
      const store = await openStore(db.config, { indexer });
      const { seconds: s } = await timed(() => load(store, 0, writeSample));
      writes.push([backend.name, label, fmt(writeSample / s)]);
      await store.database.close();
      await db.drop();
    }
    console.log(`\n${backend.name}: ingest of ${fmt(writeSample)} entities (2 to 5 aspects each) through the store`);
    printTable(['backend', 'index', 'entities/s'], writes);
    if (httpRounds > 0) await httpIngest(backend, writeSample, httpRounds);

    const db = kept ?? (await backend.create());
    const store = await openStore(db.config);
    const held = await entityCount(store);
    if (held >= entities) {
      console.log(`\n${backend.name}: ${keep} holds ${fmt(held)} entities already: not loaded again`);
    } else {
      const started = process.hrtime.bigint();
      const { seconds: loadSeconds } = await timed(() => load(store, held, entities, progress('loaded', entities, started)));
      console.log(
        `\n${backend.name}: loaded ${fmt(entities - held)} entities in ${fmt(loadSeconds, 1)} s (${fmt((entities - held) / loadSeconds)} entities/s, index maintained)`,
      );
      await settle(db);
    }
    const server = await startTestServer(db, { ALMANAC_RATE_LIMIT_MAX: '0' });
    const list = kinds(entities);
    const ceiling = await startCeiling(store, list);
    const rows: string[][] = [];
    for (const [i, kind] of list.entries()) {
      const { result: json, seconds: once } = await timed(async () => {
        const check = await fetch(`${server.url}/api/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${server.adminToken}` },
          body: kind.gql,
        });
        return (await check.json()) as { errors?: unknown; data?: unknown };
      });
      if (json.errors) throw new Error(`${kind.name}: ${JSON.stringify(json.errors)}`);
      // Long enough for about five of the slowest requests (wrk counts only those that end within the run).
      const runSeconds = Math.max(seconds, Math.ceil(5 * once));
      const run = (connections: number, almanac: boolean): Promise<WrkResult> =>
        almanac
          ? wrk({ url: `${server.url}/api/graphql`, method: 'POST', token: server.adminToken, body: kind.gql, connections, seconds: runSeconds })
          : wrk({ url: `${ceiling.url}/${i}`, method: 'GET', connections, seconds: runSeconds });
      const [a1, c1, a4, c4] = [await run(1, true), await run(1, false), await run(4, true), await run(4, false)];
      rows.push([
        kind.name,
        fmt(a1.p50, 1),
        fmt(a1.p99, 1),
        fmt(c1.p50, 1),
        rate(a4.perSecond),
        rate(c4.perSecond),
        `${fmt((100 * a4.perSecond) / c4.perSecond)}%`,
      ]);
    }
    console.log(`\n${backend.name}: searches over ${fmt(entities)} entities (ms; req/s with 4 connections)`);
    printTable(['search', 'p50', 'p99', 'ceiling p50', 'req/s', 'ceiling req/s', 'of ceiling'], rows);
    await ceiling.close();
    await server.close();
    if (withBackfill) {
      // The build an existing database gets: every stored aspect indexed, in batches that record their progress.
      await emptyIndex(db);
      const buildStarted = process.hrtime.bigint();
      const { result: built, seconds: buildSeconds } = await timed(async () => {
        let state = await store.search.restartSearchIndexBuild();
        let reported = 0;
        while (!state.complete) {
          state = await store.search.continueSearchIndexBuild(1000);
          if (state.done - reported >= 250_000) {
            progress('indexed aspects', state.total, buildStarted)(state.done);
            reported = state.done;
          }
        }
        return state;
      });
      const { seconds: bulkSeconds } = await timed(() => bulkIndexBuild(db));
      console.log(`\n${backend.name}: the index built over ${fmt(entities)} stored entities (${fmt(built.done)} aspects)`);
      printTable(
        ['build', 'seconds', 'aspects/s'],
        [
          ['backfill (batches of 1,000, resumable)', fmt(buildSeconds, 1), fmt(built.done / buildSeconds)],
          ["the engine's bulk rebuild of the same index structures", fmt(bulkSeconds, 1), fmt(built.done / bulkSeconds)],
        ],
      );
    }
    await store.database.close();
    await db.drop();
  }
}
