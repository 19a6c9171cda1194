import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { actorWithRole } from '../support/actors.ts';
import { chromiumSkip, launchChromium, signIn } from '../support/browser.ts';
import { backends } from '../support/databases.ts';
import { datahubClientSkipReason, runClientScript } from '../support/datahub-client.ts';
import { useServer } from '../support/lifecycle.ts';
import { ROOT } from '../support/process.ts';
import type { TestServer } from '../support/server.ts';

const PASSWORD = 'correct horse battery';
const UPDATE_SHOTS = process.env.ALMANAC_UPDATE_SCREENSHOTS === '1';
const clientSkip = await datahubClientSkipReason();

interface Fixture {
  orders: string;
  archive: string;
  sessions: string;
  daily: string;
  report: string;
  dashboard: string;
  margaret: string;
  clv: string;
}

for (const backend of await backends()) {
  describe(
    `finding things in the console: search everywhere, lineage as a graph, over ${backend.name}`,
    { skip: chromiumSkip ?? backend.skip ?? clientSkip },
    () => {
      let server: TestServer;
      let fixture: Fixture;
      let browser: Browser;
      let page: Page;
      const shots =
        UPDATE_SHOTS && backend.name === 'sqlite' ? path.join(ROOT, 'docs/screenshots') : fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-shots-'));

      useServer(backend, async (s) => {
        server = s;
        await actorWithRole(s, 'alice', 'Editor', PASSWORD);
        fixture = await runClientScript<Fixture>(s, 'console_curation.py', { now: Date.now() });
      });
      before(async () => {
        browser = await launchChromium();
        page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      });
      after(async () => {
        await browser?.close();
        if (!UPDATE_SHOTS || backend.name !== 'sqlite') fs.rmSync(shots, { recursive: true, force: true });
      });

      const results = () => page.getByRole('list', { name: 'Results' }).locator(':scope > li');
      const resultNames = async () => (await results().locator('a.name').allTextContents()).sort();

      it('suggests entities of every type while typing in the header box, which / focuses', async () => {
        await signIn(page, server.url, 'alice', PASSWORD);
        await page.keyboard.press('/');
        const box = page.getByRole('combobox', { name: 'Search the catalog' });
        assert.equal(await box.evaluate((el) => el === document.activeElement), true);
        await page.keyboard.type('Hamil');
        const options = page.getByRole('listbox', { name: 'Search the catalog: suggestions' }).getByRole('option');
        await options.filter({ hasText: 'Margaret Hamilton' }).waitFor();
        assert.match((await options.filter({ hasText: 'Margaret Hamilton' }).textContent()) ?? '', /Margaret Hamilton\s*User/);
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { level: 1, name: /Margaret Hamilton/ }).waitFor();
        assert.equal(new URL(page.url()).hash, `#/entity/${encodeURIComponent(fixture.margaret)}`);
        assert.match((await page.locator('dl[aria-label="Details"]').textContent()) ?? '', /Director of software engineering/);
      });

      it('finds a dashboard, a user and a glossary term by a word of their names, each labelled with its type', async () => {
        for (const [word, name, type] of [
          ['Quarterly', 'Quarterly Revenue Overview', 'Dashboard'],
          ['Hamilton', 'Margaret Hamilton', 'User'],
          ['Lifetime', 'Customer Lifetime Value', 'Glossary term'],
        ] as const) {
          await page.goto(`${server.url}/#/search?query=${word}`);
          const hit = results().filter({ has: page.getByRole('link', { name, exact: true }) });
          await hit.waitFor();
          assert.equal(await hit.locator('.badge-type').textContent(), type);
        }
      });

      it('narrows a search by type and by facet, and keeps them in the address', async () => {
        await page.goto(`${server.url}/#/search?query=revenue`);
        await results().first().waitFor();
        const types = page.getByRole('navigation', { name: 'Entity types' });
        await types.getByRole('button', { name: /^Dashboards/ }).click();
        await page.waitForFunction(() => document.querySelectorAll('ol.search-results > li').length === 1);
        assert.deepEqual(await resultNames(), ['Quarterly Revenue Overview']);
        await types.getByRole('button', { name: /^All/ }).click();
        // Every type's results again before the facet (else the one dashboard still shown would pass the wait below).
        await page.waitForFunction(() => document.querySelectorAll('ol.search-results > li').length > 1);
        await page.getByLabel('Tag', { exact: true }).selectOption('urn:li:tag:gold');
        await page.waitForFunction(() => location.hash.includes('tags=') && document.querySelectorAll('ol.search-results > li').length === 1);
        assert.deepEqual(await resultNames(), ['Quarterly Revenue Overview']);
        assert.equal(new URL(page.url()).hash, '#/search?query=revenue&tags=urn%3Ali%3Atag%3Agold');
        // The address alone brings the same results back.
        await page.goto(`${server.url}/#/datasets`);
        await page.goto(`${server.url}/#/search?query=revenue&tags=urn%3Ali%3Atag%3Agold`);
        await page.waitForFunction(() => document.querySelectorAll('ol.search-results > li').length === 1);
        assert.equal(await page.getByLabel('Tag', { exact: true }).inputValue(), 'urn:li:tag:gold');
        await page.goto(`${server.url}/#/search?query=nothing-is-called-this`);
        await page.getByText('Nothing matches “nothing-is-called-this”').waitFor();
      });

      it('shows a dashboard with its charts, owners and tags, and edits its description', async () => {
        await page.goto(`${server.url}/#/entity/${encodeURIComponent(fixture.dashboard)}`);
        await page.getByRole('heading', { level: 1, name: /Quarterly Revenue Overview/ }).waitFor();
        assert.match((await page.locator('.description').textContent()) ?? '', /Revenue per quarter, for the board/);
        assert.deepEqual(await page.getByRole('list', { name: 'Charts' }).getByRole('link').allTextContents(), ['Revenue by region']);
        assert.deepEqual(await page.getByRole('list', { name: 'Owners', exact: true }).getByRole('link').allTextContents(), ['Margaret Hamilton']);
        assert.deepEqual(await page.getByRole('list', { name: 'Tags', exact: true }).getByRole('link').allTextContents(), ['Gold']);
        // Its description is edited as DataHub's UI edits a dashboard's (updateDashboard's editableProperties).
        await page.getByRole('button', { name: 'Edit description' }).click();
        await page.getByRole('textbox', { name: 'description' }).fill('Revenue per quarter, **audited**');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.locator('.description strong', { hasText: 'audited' }).waitFor();
      });

      it('draws a three-hop chain as a graph, one more hop at a time, marking the deprecated dataset', async () => {
        await page.goto(`${server.url}/#/lineage/${encodeURIComponent(fixture.report)}?up=1&down=1`);
        const graph = page.getByRole('list', { name: 'Entities in the lineage graph' });
        const names = async () => (await graph.locator('li.node a').allTextContents()).sort();
        await graph.locator('li.node', { hasText: 'daily_revenue' }).waitFor();
        assert.deepEqual(await names(), ['Revenue by region', 'daily_revenue', 'revenue_report']);
        const moreUp = page.getByRole('button', { name: 'One more hop upstream' });
        await moreUp.click();
        const sessions = graph.locator('li.node', { hasText: 'sessions' });
        await sessions.waitFor();
        assert.equal(await sessions.getAttribute('class'), 'node deprecated');
        assert.match((await sessions.textContent()) ?? '', /Deprecated/);
        await moreUp.click();
        await graph.locator('li.node', { hasText: 'raw_events' }).waitFor();
        assert.deepEqual(await names(), ['Revenue by region', 'daily_revenue', 'raw_events', 'revenue_report', 'sessions']);
        assert.equal(new URL(page.url()).hash, `#/lineage/${encodeURIComponent(fixture.report)}?up=3&down=1`);
        // raw_events has nothing upstream: there is no further hop to open.
        await page.waitForFunction(
          () => [...document.querySelectorAll('button')].find((b) => b.textContent === 'One more hop upstream')?.disabled === true,
        );
        assert.match((await page.locator('p[aria-live]').textContent()) ?? '', /4 related entities, 4 edges; 1 deprecated/);
        await page.getByRole('button', { name: 'One more hop downstream' }).click();
        await graph.locator('li.node', { hasText: 'Quarterly Revenue Overview' }).waitFor();
        // The whole graph in the picture, not the part its scrolling box shows.
        await page.setViewportSize({ width: 2100, height: 860 });
        await page.locator('main').evaluate((main) => (main.style.maxWidth = 'none'));
        await page.locator('.graph').screenshot({ path: path.join(shots, 'lineage-graph.png') });
        await page.setViewportSize({ width: 1280, height: 860 });
        await graph.getByRole('link', { name: 'daily_revenue' }).click();
        await page.getByRole('heading', { level: 1, name: 'daily_revenue' }).waitFor();
      });

      it('shows the column lineage ingested for a dataset on its lineage view', async () => {
        await page.goto(`${server.url}/#/lineage/${encodeURIComponent(fixture.daily)}?up=1&down=0`);
        const row = page.locator('table.column-lineage tbody tr');
        await row.first().waitFor();
        assert.deepEqual(await row.evaluateAll((rows) => rows.map((r) => (r as HTMLElement).innerText.split('\t').map((c) => c.trim()))), [
          ['revenue', 'sessions.amount', 'SUM'],
        ]);
      });

      it('picks the replacement of a deprecation by a word of its name; Escape closes the form', async () => {
        await page.goto(`${server.url}/#/dataset/${encodeURIComponent(fixture.orders)}`);
        await page.getByRole('button', { name: 'Deprecate', exact: true }).click();
        const form = page.getByRole('form', { name: 'Deprecate datasets' });
        await form.waitFor();
        await page.keyboard.press('Escape');
        await form.waitFor({ state: 'detached' });
        await page.getByRole('button', { name: 'Deprecate', exact: true }).click();
        await form.getByLabel('Note').fill('Moved to the archive');
        await form.getByRole('combobox', { name: 'Replacement dataset' }).fill('archive');
        await form.getByRole('option', { name: /orders_archive/ }).click();
        assert.match((await form.locator('.chosen').textContent()) ?? '', /orders_archive/);
        await page.screenshot({ path: path.join(shots, 'replacement-picker.png') });
        await form.getByRole('button', { name: 'Deprecate', exact: true }).click();
        const banner = page.getByRole('status', { name: 'Deprecation' });
        await banner.waitFor();
        assert.match((await banner.textContent()) ?? '', /Replacement\s*orders_archive/);
        assert.equal(
          await banner.getByRole('link', { name: 'orders_archive' }).getAttribute('href'),
          `#/dataset/${encodeURIComponent(fixture.archive)}`,
        );
      });
    },
  );
}
