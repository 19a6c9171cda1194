// Search over the index (issue 31): a generated catalog loaded through the normal write path, then each kind of search
// as clients send it (GraphQL over loopback HTTP with a bearer token: searchAcrossEntities with its total and facets,
// autoComplete), against a ceiling doing the same index work in the same run: a bare node:http server calling the
// store's search part directly (the same SQL: page, count, facets), no authentication, GraphQL or entity loading.
// The load generator is wrk in its own process, one connection (latency) then four (throughput). Also: what the index
// costs a write (the same load with and without search entries), and the backfill of an existing database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { aspectIndexer } from '../src/catalog/relationships/aspect-indexer.ts';
import { parseSearchQuery } from '../src/catalog/search/search-query.ts';
import { openStore } from '../src/storage/open-store.ts';
import type { AspectIndexer, SearchQuery, Store, WriteOp } from '../src/storage/store.ts';
import { startTestServer } from '../test/support/server.ts';
import { benchBackends, fmt, intFlag, printTable, timed } from './support.ts';
import { ensureWrk, wrk, type WrkResult } from './wrk.ts';

const ADMIN = 'urn:li:corpuser:datahub';
const PLATFORMS = ['hive', 'snowflake', 'bigquery', 'postgres', 'kafka'];
const DOMAINS = ['sales', 'finance', 'marketing', 'ops', 'hr', 'product', 'logistics', 'support'];
const NOUNS = ['orders', 'customers', 'payments', 'invoices', 'events', 'sessions', 'clicks', 'shipments', 'refunds', 'accounts'];
const COLUMNS = ['id', 'created_at', 'updated_at', 'amount', 'currency', 'status', 'user_id', 'country', 'latitude', 'longitude', 'email', 'sku'];
const TAGS = ['urn:li:tag:gold', 'urn:li:tag:pii', 'urn:li:tag:raw', 'urn:li:tag:curated'];

const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:${PLATFORMS[i % PLATFORMS.length]},${DOMAINS[i % 8]}.${NOUNS[i % 10]}_${i},PROD)`;
const nameOf = (i: number) => `${NOUNS[i % 10]}_${i}`;

/** One dataset's aspects, in the styles real warehouses use: a name, a description, 10 columns, tags, owners, properties. */
function datasetOps(i: number): WriteOp[] {
  const urn = urnOf(i);
  const op = (aspect: string, value: Record<string, unknown>, onlyIfAbsent = false): WriteOp => ({
    kind: 'aspect',
    entityType: 'dataset',
    urn,
    aspect,
    value,
    systemMetadata: null,
    onlyIfAbsent,
  });
  const platform = `urn:li:dataPlatform:${PLATFORMS[i % PLATFORMS.length]}`;
  return [
    op('datasetKey', { platform, name: `${DOMAINS[i % 8]}.${nameOf(i)}`, origin: 'PROD' }, true),
    op('datasetProperties', {
      name: nameOf(i),
      description: `${DOMAINS[i % 8]} ${NOUNS[(i * 7) % 10]} kept for reporting; batch ${i % 97}${i % 1000 === 7 ? ' zanzibar' : ''}`,
      customProperties: { team: DOMAINS[(i * 3) % 8]!, tier: String(i % 3) },
    }),
    op('schemaMetadata', {
      schemaName: nameOf(i),
      platform,
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields: Array.from({ length: 10 }, (_, c) => ({
        fieldPath: COLUMNS[(i + c) % COLUMNS.length]!,
        nativeDataType: 'string',
        type: { type: { 'com.linkedin.schema.StringType': {} } },
      })),
    }),
    op('globalTags', { tags: [{ tag: TAGS[i % TAGS.length]! }, ...(i % 5 === 0 ? [{ tag: TAGS[(i + 1) % TAGS.length]! }] : [])] }),
    op('ownership', { owners: [{ owner: `urn:li:corpuser:owner${i % 50}`, type: 'DATAOWNER' }], lastModified: { time: 0, actor: ADMIN } }),
  ];
}

async function load(store: Store, from: number, to: number): Promise<void> {
  const batch = 200;
  for (let b = from; b < to; b += batch * 4) {
    await Promise.all(
      [0, 1, 2, 3].map(async (k) => {
        const start = b + k * batch;
        const ops = [];
        for (let i = start; i < Math.min(to, start + batch); i++) ops.push(...datasetOps(i));
        if (ops.length > 0) await store.aspects.write({ ops, actor: ADMIN, now: Date.now() });
      }),
    );
  }
}

/** The searches measured, as GraphQL bodies for Almanac and as port calls for the ceiling. */
interface Kind {
  readonly name: string;
  readonly gql: string;
  readonly query: SearchQuery;
  readonly facets: boolean;
}

const SEARCH_DOC =
  'query s($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn } } facets { field aggregations { value count } } } }';
const FACETS = [
  '_entityType',
  'platform',
  'origin',
  'typeNames',
  'container',
  'owners',
  'tags',
  'glossaryTerms',
  'domains',
  'deprecated',
  'deprecationState',
];

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
  const exact = nameOf(Math.floor(n / 2));
  return [
    search('one word, total and facets', 'customers'),
    search('rare word, total', 'zanzibar', [], false),
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
      name: 'autocomplete',
      gql: JSON.stringify({
        query: 'query a($input: AutoCompleteInput!) { autoComplete(input: $input) { suggestions } }',
        variables: { input: { type: 'DATASET', query: 'paym', limit: 10 } },
      }),
      query: { entityTypes: ['dataset'], query: 'paym*', parsed: parseSearchQuery('paym*'), filter: [], includeSoftDeleted: false, sort: [] },
      facets: false,
    },
  ];
}

/** The ceiling: the same index reads through the store's search part, behind a bare node:http server. */
async function startCeiling(store: Store, list: readonly Kind[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const kind = list[Number(req.url?.slice(1))]!;
    const work = async () => {
      const page = await store.search.search({ ...kind.query, paging: { start: 0, count: 10 } });
      const total = kind.name === 'autocomplete' ? undefined : await store.search.count(kind.query);
      const facets = kind.facets
        ? Object.fromEntries([...(await store.search.facets(kind.query, FACETS))].map(([f, m]) => [f, Object.fromEntries(m)]))
        : undefined;
      return { hits: page.hits, total, facets };
    };
    work().then(
      (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      (e) => res.writeHead(500).end(String(e)),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

const noSearch: AspectIndexer = { aspects: aspectIndexer.aspects, index: (t, u, a, v) => ({ ...aspectIndexer.index(t, u, a, v), search: [] }) };

export default async function searchBench(args: string[]): Promise<void> {
  const datasets = intFlag(args, 'datasets', 100_000);
  const writeSample = intFlag(args, 'write-sample', 10_000);
  const seconds = intFlag(args, 'seconds', 5);
  ensureWrk();
  for (const backend of await benchBackends(args)) {
    // What the index costs a write: the same datasets into two fresh databases, with and without search entries.
    const writes: string[][] = [];
    for (const [label, indexer] of [
      ['without search entries', noSearch],
      ['with the index', aspectIndexer],
    ] as const) {
      const db = await backend.create();
      const store = await openStore(db.config, { indexer });
      const { seconds: s } = await timed(() => load(store, 0, writeSample));
      writes.push([backend.name, label, fmt(writeSample / s), fmt((writeSample * 5) / s)]);
      await store.database.close();
      await db.drop();
    }
    console.log(`\n${backend.name}: ingest of ${fmt(writeSample)} datasets (5 aspects each) through the store`);
    printTable(['backend', 'index', 'datasets/s', 'aspects/s'], writes);

    const db = await backend.create();
    const store = await openStore(db.config);
    const { seconds: loadSeconds } = await timed(() => load(store, 0, datasets));
    console.log(
      `\n${backend.name}: loaded ${fmt(datasets)} datasets in ${fmt(loadSeconds, 1)} s (${fmt(datasets / loadSeconds)} datasets/s, index maintained)`,
    );
    const server = await startTestServer(db, { ALMANAC_RATE_LIMIT_MAX: '0' });
    const list = kinds(datasets);
    const ceiling = await startCeiling(store, list);
    const rows: string[][] = [];
    for (const [i, kind] of list.entries()) {
      const check = await fetch(`${server.url}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${server.adminToken}` },
        body: kind.gql,
      });
      const json = (await check.json()) as { errors?: unknown; data?: unknown };
      if (json.errors) throw new Error(`${kind.name}: ${JSON.stringify(json.errors)}`);
      const run = (connections: number, almanac: boolean): Promise<WrkResult> =>
        almanac
          ? wrk({ url: `${server.url}/api/graphql`, method: 'POST', token: server.adminToken, body: kind.gql, connections, seconds })
          : wrk({ url: `${ceiling.url}/${i}`, method: 'GET', connections, seconds });
      const [a1, c1, a4, c4] = [await run(1, true), await run(1, false), await run(4, true), await run(4, false)];
      rows.push([
        kind.name,
        fmt(a1.p50, 1),
        fmt(a1.p99, 1),
        fmt(c1.p50, 1),
        fmt(a4.perSecond),
        fmt(c4.perSecond),
        `${fmt((100 * a4.perSecond) / c4.perSecond)}%`,
      ]);
    }
    console.log(`\n${backend.name}: searches over ${fmt(datasets)} datasets (ms; req/s with 4 connections)`);
    printTable(['search', 'p50', 'p99', 'ceiling p50', 'req/s', 'ceiling req/s', 'of ceiling'], rows);
    await ceiling.close();
    await server.close();
    await store.database.close();
    await db.drop();
  }
}
