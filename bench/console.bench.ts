// The console in headless Chromium: time to interactive of a dataset page with 200 fields and 50 lineage edges, and
// of a lineage graph of 200 nodes, on SQLite; beside them the same page of a dataset with 3 fields and no lineage
// (the floor: sign-in, bundle, one page's requests), and the bundle's size, minified and gzipped. "Interactive" is
// when the page's content is on screen and its last request has answered (the schema's 200 rows and both lineage
// lists; the graph's 200 boxes, laid out). Median of N loads each, each a fresh page (no cache, a new sign-in token).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildWeb } from '../scripts/build-web.mjs';
import { actorWithRole } from '../test/support/actors.ts';
import { createSqliteDatabase } from '../test/support/databases.ts';
import { mcp } from '../test/support/fixtures.ts';
import { ROOT } from '../test/support/process.ts';
import { startTestServer, type TestServer } from '../test/support/server.ts';
import { fmt, intFlag, printTable } from './support.ts';

const PASSWORD = 'correct horse battery';
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench.${name},PROD)`;
const upstreams = (...urns: string[]) => ({ upstreams: urns.map((dataset) => ({ dataset, type: 'TRANSFORMED' })) });
const field = (i: number) => ({
  fieldPath: `field_${i}`,
  type: { type: { 'com.linkedin.schema.StringType': {} } },
  nativeDataType: 'varchar(64)',
  description: `Field number ${i}`,
});
const schema = (n: number) => ({
  schemaName: 'bench',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields: Array.from({ length: n }, (_, i) => field(i)),
});

/** wide: 200 fields, 25 upstreams and 25 downstreams; small: 3 fields; graph_root: a tree of 199 more datasets below it, 3 hops deep. */
async function seed(server: TestServer): Promise<void> {
  const proposals = [
    mcp(ds('small'), 'schemaMetadata', schema(3)),
    mcp(ds('wide'), 'schemaMetadata', schema(200)),
    mcp(ds('wide'), 'upstreamLineage', upstreams(...Array.from({ length: 25 }, (_, i) => ds(`up_${i}`)))),
    ...Array.from({ length: 25 }, (_, i) => mcp(ds(`down_${i}`), 'upstreamLineage', upstreams(ds('wide')))),
    mcp(ds('graph_root'), 'status', { removed: false }),
  ];
  // 199 datasets downstream of graph_root: 9 children, each with 9 children, each of those with 1 or 2 more.
  let made = 0;
  const children = (parent: string, n: number, depth: number): void => {
    for (let i = 0; i < n && made < 199; i++) {
      const child = `${parent}_${i}`;
      made++;
      proposals.push(mcp(ds(child), 'upstreamLineage', upstreams(ds(parent))));
      if (depth < 3) children(child, depth === 1 ? 9 : 2, depth + 1);
    }
  };
  children('graph_root', 9, 1);
  const res = await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } });
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${res.text}`);
}

export default async function consoleBench(args: string[]): Promise<void> {
  const runs = intFlag(args, 'runs', 5);
  await buildWeb();
  const js = fs.readFileSync(path.join(ROOT, 'web/dist/app.js'));
  const css = fs.readFileSync(path.join(ROOT, 'web/dist/app.css'));
  const gz = (b: Buffer) => zlib.gzipSync(b, { level: 9 }).length;
  const db = await createSqliteDatabase();
  const server = await startTestServer(db, { ALMANAC_RETENTION_SCHEDULE: 'off', ALMANAC_RATE_LIMIT_MAX: '0' });
  const browser = await chromium.launch({
    executablePath: process.env.ALMANAC_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    await actorWithRole(server, 'bench', 'Editor', PASSWORD);
    await seed(server);
    const login = await server.request('POST', '/logIn', { body: { username: 'bench', password: PASSWORD } });
    const token = (JSON.parse(login.text) as { accessToken: string }).accessToken;
    const cases: Array<[string, string, string]> = [
      [
        'dataset page, 3 fields, no lineage (floor)',
        `#/dataset/${encodeURIComponent(ds('small'))}`,
        `document.querySelectorAll('table.schema tbody tr').length === 3 && !!document.querySelector('.lineage')`,
      ],
      [
        'dataset page, 200 fields, 50 lineage edges',
        `#/dataset/${encodeURIComponent(ds('wide'))}`,
        `document.querySelectorAll('table.schema tbody tr').length === 200 && document.querySelectorAll('.lineage-list li').length === 50`,
      ],
      [
        'lineage graph, 200 nodes',
        `#/lineage/${encodeURIComponent(ds('graph_root'))}?up=0&down=3`,
        `document.querySelectorAll('.graph li.node').length === 200`,
      ],
    ];
    const rows: string[][] = [];
    for (const [name, hash, ready] of cases) {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        await context.addInitScript((t) => sessionStorage.setItem('almanac.token', t), token);
        const page = await context.newPage();
        const start = Date.now();
        await page.goto(`${server.url}/${hash}`);
        await page.waitForFunction(ready, undefined, { timeout: 60_000, polling: 'raf' });
        times.push(Date.now() - start);
        await context.close();
      }
      times.sort((a, b) => a - b);
      rows.push([name, fmt(times[Math.floor(times.length / 2)]!), fmt(times[0]!), fmt(times.at(-1)!)]);
    }
    console.log(`${runs} loads each; milliseconds from navigation to interactive (the content drawn), SQLite`);
    printTable(['page', 'median ms', 'min ms', 'max ms'], rows);
    printTable(
      ['bundle', 'minified KB', 'gzipped KB'],
      [
        ['app.js', fmt(js.length / 1000, 1), fmt(gz(js) / 1000, 1)],
        ['app.css', fmt(css.length / 1000, 1), fmt(gz(css) / 1000, 1)],
      ],
    );
  } finally {
    await browser.close();
    await server.close();
    await db.drop();
  }
}
