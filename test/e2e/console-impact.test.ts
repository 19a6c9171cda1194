import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { actorWithRole } from '../support/actors.ts';
import { chromiumSkip as skip, launchChromium, signIn } from '../support/browser.ts';
import { createSqliteDatabase, type TestDatabase } from '../support/databases.ts';
import { mcp } from '../support/fixtures.ts';
import { ROOT } from '../support/process.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const PASSWORD = 'correct horse battery';
/** Name, type, hops, owners: what the impact table shows for shop.orders. */
const EXPECTED = [
  ['daily_revenue', 'dataJob', '1', '—'],
  ['shop.revenue', 'dataset', '1', 'finance'],
  ['shop.forecast', 'dataset', '2', 'planning'],
  ['shop.kpis', 'dataset', '2', '—'],
];
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,shop.${name},PROD)`;
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,shop,prod),daily_revenue)';
const upstreams = (...urns: string[]) => ({ upstreams: urns.map((dataset) => ({ dataset, type: 'TRANSFORMED' })) });
const owners = (...urns: string[]) => ({ owners: urns.map((owner) => ({ owner, type: 'DATAOWNER' })) });
// The README's screenshots are refreshed on request only, so a test run leaves the tree as it found it.
const shot = (page: Page, name: string) =>
  process.env.ALMANAC_UPDATE_SCREENSHOTS === '1' ? page.screenshot({ path: path.join(ROOT, 'docs/screenshots', name), fullPage: true }) : undefined;

describe('deprecating a dataset in the console shows who depends on it, in headless Chromium', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    db = await createSqliteDatabase();
    server = await startTestServer(db, { ALMANAC_RETENTION_SCHEDULE: 'off' });
    await actorWithRole(server, 'ada', 'Admin', PASSWORD);
    // orders -> revenue -> forecast; orders -> the daily_revenue job -> kpis.
    const proposals = [
      mcp(ds('orders'), 'ownership', owners('urn:li:corpuser:ada')),
      mcp(ds('revenue'), 'upstreamLineage', upstreams(ds('orders'))),
      mcp(ds('revenue'), 'ownership', owners('urn:li:corpuser:finance')),
      mcp(ds('forecast'), 'upstreamLineage', upstreams(ds('revenue'))),
      mcp(ds('forecast'), 'ownership', owners('urn:li:corpGroup:planning')),
      mcp(JOB, 'dataJobInputOutput', { inputDatasets: [ds('orders')], outputDatasets: [ds('kpis')] }, 'dataJob'),
      mcp(ds('kpis'), 'status', { removed: false }),
    ];
    const res = await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } });
    assert.equal(res.status, 200, res.text);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await db?.drop();
  });

  const impactRows = async (scope: string) =>
    await page
      .locator(`${scope} table.impact tbody tr`)
      .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).innerText.split('\t').map((c) => c.trim())));

  it('shows the impact before the user confirms, then the downstream list on the deprecated dataset', async () => {
    await signIn(page, server.url, 'ada', PASSWORD);
    await page.goto(`${server.url}/#/dataset/${encodeURIComponent(ds('orders'))}`);
    await page.getByRole('button', { name: 'Deprecate', exact: true }).click();
    const form = page.getByRole('form', { name: 'Deprecate datasets' });
    await form.locator('table.impact tbody tr').first().waitFor();
    assert.deepEqual(await impactRows('form[aria-label="Deprecate datasets"]'), EXPECTED);
    await form.getByLabel('Note').fill('Use shop.orders_v2');
    await form.getByLabel('Decommission date').fill('2027-03-31');
    await shot(page, 'deprecate-impact.png');
    await form.getByRole('button', { name: 'Deprecate', exact: true }).click();
    await page.getByRole('status', { name: 'Deprecation' }).waitFor();
    const downstream = page.getByRole('region', { name: 'Downstream impact' });
    await downstream.locator('table.impact tbody tr').first().waitFor();
    assert.deepEqual(await impactRows('section[aria-label="Downstream impact"]'), EXPECTED);
  });

  it('warns on a downstream dataset, naming the deprecated upstream', async () => {
    await page.getByRole('region', { name: 'Downstream impact' }).getByRole('link', { name: 'shop.forecast' }).click();
    const warning = page.getByRole('alert', { name: 'Deprecated upstream' });
    await warning.waitFor();
    assert.match((await warning.textContent()) ?? '', /shop\.orders is deprecated \(2 hops upstream\): Use shop\.orders_v2/);
    await shot(page, 'deprecated-upstream.png');
  });
});
