import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { actorWithRole } from '../support/actors.ts';
import { chromiumSkip, datasetRow, launchChromium, signIn } from '../support/browser.ts';
import { backends } from '../support/databases.ts';
import { datahubClientSkipReason, runClientScript } from '../support/datahub-client.ts';
import { useServer } from '../support/lifecycle.ts';
import { ROOT } from '../support/process.ts';
import type { TestServer } from '../support/server.ts';

const PASSWORD = 'correct horse battery';
// The README's screenshots are refreshed on request only (from the SQLite run), so a test run leaves the tree as it found it.
const UPDATE_SHOTS = process.env.ALMANAC_UPDATE_SCREENSHOTS === '1';
const clientSkip = await datahubClientSkipReason();

interface Fixture {
  orders: string;
  raw: string;
  v1: string;
  legacy: string;
}

for (const backend of await backends()) {
  describe(`the console as a catalog, over ${backend.name}, in headless Chromium`, { skip: chromiumSkip ?? backend.skip ?? clientSkip }, () => {
    let server: TestServer;
    let browser: Browser;
    let page: Page;
    const shots =
      UPDATE_SHOTS && backend.name === 'sqlite' ? path.join(ROOT, 'docs/screenshots') : fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-shots-'));
    // Every API answer the browser got that a person would see as a failure: an HTTP error or a GraphQL error.
    const failures: string[] = [];

    useServer(backend, async (s) => {
      server = s;
      await actorWithRole(s, 'alice', 'Editor', PASSWORD);
      // What an ingestion leaves, emitted by DataHub's own SDK (test/clients/py/console_catalog.py).
      await runClientScript<Fixture>(s, 'console_catalog.py', { now: Date.now() });
    });
    before(async () => {
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.on('response', async (res) => {
        if (!res.url().startsWith(server.url) || res.request().resourceType() !== 'fetch') return;
        const body = await res.text().catch(() => '');
        if (res.status() >= 400 || /"errors"\s*:/.test(body)) failures.push(`${res.status()} ${res.url()} ${body.slice(0, 300)}`);
      });
    });
    after(async () => {
      await browser?.close();
      if (!UPDATE_SHOTS || backend.name !== 'sqlite') fs.rmSync(shots, { recursive: true, force: true });
    });

    const row = (name: string) => datasetRow(page, name);
    const rows = () => page.locator('table.datasets tbody tr');
    const listed = async () => (await rows().locator('td a[href^="#/dataset/"]').allTextContents()).sort();

    it('lists name, platform, description, owners, tags and deprecation with the days to decommission', async () => {
      await signIn(page, server.url, 'alice', PASSWORD);
      await row('orders').waitFor();
      const orders = row('orders');
      assert.match((await orders.textContent()) ?? '', /orders.*hive.*Every order placed in the web shop/s);
      assert.deepEqual(await orders.getByRole('list', { name: 'Owners of orders' }).getByRole('link').allTextContents(), [
        'Alice Liddell',
        'Finance team',
      ]);
      assert.deepEqual(await orders.getByRole('list', { name: 'Tags of orders' }).getByRole('link').allTextContents(), ['PII', 'Gold']);
      const v1 = row('orders_v1');
      await v1.locator('.badge-deprecated').waitFor();
      assert.match((await v1.locator('.countdown').textContent()) ?? '', /^decommission in 10 days$/);
      await page.screenshot({ path: path.join(shots, 'datasets-list.png') });
    });

    it('hides a soft-deleted dataset until "Show soft-deleted" is on', async () => {
      assert.deepEqual(await listed(), ['orders', 'orders_v1', 'raw_orders']);
      await page.getByLabel('Show soft-deleted').check();
      await row('legacy_orders').waitFor();
      assert.equal(await row('legacy_orders').locator('.badge-removed').textContent(), 'Soft-deleted');
      assert.deepEqual(await listed(), ['legacy_orders', 'orders', 'orders_v1', 'raw_orders']);
      await page.getByLabel('Show soft-deleted').uncheck();
      await row('legacy_orders').waitFor({ state: 'detached' });
      assert.deepEqual(await listed(), ['orders', 'orders_v1', 'raw_orders']);
    });

    it('narrows the list by platform, owner and tag facets, each named and counted', async () => {
      const owner = page.getByLabel('Owner', { exact: true });
      assert.deepEqual(await owner.locator('option').allTextContents(), ['Any', 'Alice Liddell (1)', 'Finance team (1)']);
      await owner.selectOption('urn:li:corpuser:alice');
      await page.waitForFunction(() => document.querySelectorAll('table.datasets tbody tr').length === 1);
      assert.deepEqual(await listed(), ['orders']);
      // Each filter cleared, the whole list first: a next filter's one row is then its own, not the last one's.
      const whole = () => page.waitForFunction(() => document.querySelectorAll('table.datasets tbody tr').length === 3);
      await owner.selectOption('');
      await whole();
      await page.getByLabel('Platform').selectOption('urn:li:dataPlatform:kafka');
      await page.waitForFunction(() => document.querySelectorAll('table.datasets tbody tr').length === 1);
      assert.deepEqual(await listed(), ['raw_orders']);
      await page.getByLabel('Platform').selectOption('');
      await whole();
      await page.getByLabel('Deprecated only').check();
      await page.waitForFunction(() => document.querySelectorAll('table.datasets tbody tr').length === 1);
      assert.deepEqual(await listed(), ['orders_v1']);
      await page.getByLabel('Deprecated only').uncheck();
      await whole();
      // A tag's name links to the list filtered by it.
      await row('orders').getByRole('link', { name: 'PII' }).click();
      await page.waitForFunction(() => document.querySelectorAll('table.datasets tbody tr').length === 1);
      assert.equal(await page.getByLabel('Tag', { exact: true }).inputValue(), 'urn:li:tag:pii');
      assert.deepEqual(await listed(), ['orders']);
      // The address holds the filters: Back from a dataset returns to the same list.
      assert.equal(new URL(page.url()).hash, '#/datasets?tags=urn%3Ali%3Atag%3Apii');
      await row('orders').getByRole('link', { name: 'orders', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'orders' }).waitFor();
      await page.goBack();
      await page.waitForFunction(() => document.querySelectorAll('table.datasets tbody tr').length === 1);
      assert.equal(await page.getByLabel('Tag', { exact: true }).inputValue(), 'urn:li:tag:pii');
    });

    it("shows a dataset's description, custom properties, owners, tags, terms, domain, schema, 20 profiles and its upstream", async () => {
      await row('orders').getByRole('link', { name: 'orders', exact: true }).click();
      // The page's title is the name the list links with.
      await page.getByRole('heading', { level: 1, name: 'orders' }).waitFor();
      assert.equal(await page.title(), 'orders · Almanac');
      assert.equal(await page.locator('.description').textContent(), 'Every order placed in the web shop, one row each.');
      assert.match((await page.locator('dl.props').textContent()) ?? '', /refresh\s*hourly.*retention\s*400 days/s);
      const owners = page.getByRole('list', { name: 'Owners', exact: true });
      assert.deepEqual(await owners.getByRole('link').allTextContents(), ['Alice Liddell', 'Finance team']);
      assert.match(
        (await owners.getByRole('link', { name: 'Alice Liddell' }).getAttribute('href')) ?? '',
        /^#\/datasets\?owners=urn%3Ali%3Acorpuser%3Aalice$/,
      );
      assert.deepEqual(await page.getByRole('list', { name: 'Tags', exact: true }).getByRole('link').allTextContents(), ['PII', 'Gold']);
      assert.deepEqual(await page.getByRole('list', { name: 'Glossary terms' }).getByRole('link').allTextContents(), ['Revenue']);
      assert.deepEqual(await page.getByRole('list', { name: 'Domain' }).getByRole('link').allTextContents(), ['Sales']);

      const field = (name: string) => page.locator(`table.schema tr[data-field="${name}"]`);
      assert.match((await field('order_id').textContent()) ?? '', /order_id\s*bigint \(number\)\s*The order's id/);
      assert.deepEqual(await page.getByRole('list', { name: 'Tags of email' }).getByRole('link').allTextContents(), ['PII']);
      const coupon = (await field('coupon_code').textContent()) ?? '';
      assert.match(coupon, /varchar\(32\).*The coupon used, if any.*Deprecated.*decommission in 30 days.*Coupons moved to sales\.promotions/s);

      const rowChart = page.locator('figure.chart', { hasText: 'Row count' });
      assert.equal(await rowChart.locator('circle').count(), 20);
      assert.match((await rowChart.getByRole('img').getAttribute('aria-label')) ?? '', /^Row count: 20 values from .* latest 1,950$/);
      const nullChart = page.locator('figure.chart', { hasText: 'Null fraction of coupon_code' });
      assert.equal(await nullChart.locator('circle').count(), 20);
      await page.getByText('Profile data (20 profiles)').click();
      assert.equal(await page.locator('table.profile-data tbody tr').count(), 20);

      const upstream = page.getByRole('list', { name: 'Upstream datasets' });
      await upstream.waitFor();
      assert.deepEqual(await upstream.getByRole('link').allTextContents(), ['raw_orders']);
      await page.getByText('Profile data (20 profiles)').click();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(shots, 'dataset-page.png') });
      await page.locator('section[aria-labelledby="profile-heading"]').screenshot({ path: path.join(shots, 'dataset-profile.png') });

      await upstream.getByRole('link', { name: 'raw_orders' }).click();
      await page.getByRole('heading', { level: 1, name: 'raw_orders' }).waitFor();
      const downstream = page.getByRole('list', { name: 'Downstream datasets' });
      await downstream.waitFor();
      assert.deepEqual(await downstream.getByRole('link').allTextContents(), ['orders']);
    });

    it('names the replacement of a deprecated dataset and links to its page; Deprecate does not look destructive', async () => {
      await page.getByRole('link', { name: 'Datasets', exact: true }).first().click();
      await row('orders_v1').getByRole('link', { name: 'orders_v1' }).click();
      const banner = page.getByRole('status', { name: 'Deprecation' });
      await banner.waitFor();
      assert.match((await banner.textContent()) ?? '', /Use orders.*decommission in 10 days.*Replacement\s*orders.*Deprecated by\s*Alice Liddell/s);
      await banner.getByRole('link', { name: 'orders', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'orders' }).waitFor();
      const deprecate = page.getByRole('button', { name: 'Deprecate', exact: true });
      const colours = await deprecate.evaluate((el) => {
        const danger = document.createElement('button');
        danger.className = 'danger';
        document.body.append(danger);
        const pair = [getComputedStyle(el).backgroundColor, getComputedStyle(danger).backgroundColor];
        danger.remove();
        return pair;
      });
      assert.notEqual(colours[0], colours[1]);
    });

    it('never shows an Editor an authorization error on a page the navigation offers', async () => {
      const nav = page.getByRole('navigation', { name: 'Main' });
      assert.equal(await nav.getByRole('link', { name: /Timeseries/ }).count(), 0);
      assert.match((await nav.textContent()) ?? '', /Timeseries\s*Admins only/);
      const hrefs = await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
      assert.deepEqual(hrefs, ['#/datasets', '#/search', '#/tokens']);
      for (const href of [...hrefs, '#/timeseries']) {
        await page.goto(`${server.url}/${href}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        assert.equal(await page.getByRole('alert').count(), 0, `${href} shows an error`);
      }
      await page.getByText('Admins only: your role does not include this page.').waitFor();
      assert.deepEqual(failures, []);
    });

    it('fits a narrow screen: the list and a full dataset page', async () => {
      await page.setViewportSize({ width: 390, height: 800 });
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      await page.goto(`${server.url}/#/datasets`);
      await row('orders').waitFor();
      assert.ok((await overflow()) <= 1, `the list scrolls sideways by ${await overflow()}px`);
      await row('orders').getByRole('link', { name: 'orders', exact: true }).click();
      await page.getByRole('list', { name: 'Upstream datasets' }).waitFor();
      assert.ok((await overflow()) <= 1, `the dataset page scrolls sideways by ${await overflow()}px`);
    });
  });
}
