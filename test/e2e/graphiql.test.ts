import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { createSqliteDatabase, type TestDatabase } from '../support/databases.ts';
import { createDataset } from '../support/graphql.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const CHROMIUM = process.env.ALMANAC_CHROMIUM ?? '/usr/bin/chromium';
const skip = fs.existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`;
if (skip && process.env.CI) throw new Error(`${skip}: CI must run the browser tests`);

describe('GraphiQL in headless Chromium, offline', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    db = await createSqliteDatabase();
    server = await startTestServer(db);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await db?.drop();
  });

  it('loads with no other origin reachable, introspects and runs a query with the console session token', async () => {
    await createDataset(server, 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)');
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const offsite: string[] = [];
    const failures: string[] = [];
    // Any request that is not to this server fails, as it would on a machine without internet access.
    await page.route('**/*', (route) => {
      if (new URL(route.request().url()).host === new URL(server.url).host) return route.continue();
      offsite.push(route.request().url());
      return route.abort();
    });
    page.on('pageerror', (e) => failures.push(String(e)));
    page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
    });
    // As if signed in to the web console in this tab.
    await page.addInitScript((token) => window.sessionStorage.setItem('almanac.token', token), server.adminToken);
    await page.goto(`${server.url}/api/graphiql`);
    await page.locator('.graphiql-container').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: /Execute query/ }).click();
    const result = page.locator('.result-window');
    await result.getByText('"deprecated"').waitFor({ timeout: 20_000 });
    assert.match(
      (await result.innerText()).replace(/\s+/g, ' '),
      /"deprecation": \{ "deprecated": false, "decommissionTime": null, "note": null, "actor": null \}/,
    );
    // The schema came from introspection: the documentation explorer lists the deprecation types.
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.locator('.graphiql-doc-explorer').getByText('UpdateDeprecationInput', { exact: true }).waitFor({ timeout: 20_000 });
    assert.deepEqual(offsite, []);
    assert.deepEqual(failures, []);
    await page.close();
  });
});
