import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { actorWithRole } from '../support/actors.ts';
import { chromiumSkip as skip, datasetRow, launchChromium, signIn as signInAs } from '../support/browser.ts';
import { mcp } from '../support/fixtures.ts';
import { createSqliteDatabase, type TestDatabase } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,sales.${name},PROD)`;

describe('the web console in headless Chromium', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    db = await createSqliteDatabase();
    server = await startTestServer(db);
    await actorWithRole(server, 'alice', 'Editor', PASSWORD);
    await actorWithRole(server, 'rita', 'Reader', PASSWORD);
    const fields = ['order_id', 'customer_id', 'amount'].map((fieldPath) => ({
      fieldPath,
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      nativeDataType: 'string',
    }));
    const proposals = ['orders', 'customers', 'refunds'].flatMap((name) => [
      mcp(ds(name), 'status', { removed: false }),
      mcp(ds(name), 'datasetProperties', { name, description: `The ${name} table.` }),
      mcp(ds(name), 'schemaMetadata', {
        schemaName: name,
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
        fields,
      }),
    ]);
    const now = Date.now();
    const profiles = [200, 100, 10, 1].map((age) => mcp(ds('orders'), 'datasetProfile', { timestampMillis: now - age * DAY, rowCount: age }));
    const res = await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals: [...proposals, ...profiles] } });
    assert.equal(res.status, 200, res.text);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('dialog', (d) => void d.accept());
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await db?.drop();
  });

  const signIn = (username: string) => signInAs(page, server.url, username, PASSWORD);
  const row = (name: string) => datasetRow(page, name);

  it('tells a visitor on the sign-in page how to get an account', async () => {
    await page.goto(server.url);
    const help = page.getByRole('region', { name: 'How to get an account' });
    await help.waitFor();
    assert.match((await help.textContent()) ?? '', /almanac user create --username <name> --password-stdin/);
    assert.match((await help.textContent()) ?? '', /almanac token create/);
  });

  it('signs in with a password and lists the datasets', async () => {
    await signIn('alice');
    await row('orders').waitFor();
    assert.equal(await page.locator('table.datasets tbody tr').count(), 3);
  });

  it('deprecates a dataset with a note, showing the badge in the list and the banner on its page', async () => {
    await page.getByRole('link', { name: 'orders', exact: true }).click();
    await page.getByRole('heading', { name: 'orders' }).waitFor();
    await page.getByRole('button', { name: 'Deprecate', exact: true }).click();
    await page.getByLabel('Note').fill('Use sales.orders_v2');
    await page.getByLabel('Decommission date').fill('2026-12-31');
    await page.getByRole('form', { name: 'Deprecate datasets' }).getByRole('button', { name: 'Deprecate' }).click();
    const banner = page.getByRole('status', { name: 'Deprecation' });
    await banner.waitFor();
    assert.match((await banner.textContent()) ?? '', /Use sales\.orders_v2.*2026-12-31.*alice/s);
    await page.locator('.timeline li').first().waitFor();

    await page.getByRole('link', { name: 'Datasets' }).first().click();
    const badge = row('orders').locator('.badge-deprecated');
    await badge.waitFor();
    assert.match((await badge.getAttribute('title')) ?? '', /Use sales\.orders_v2 · Decommission: 2026-12-31/);
  });

  it('batch-deprecates two selected datasets', async () => {
    await page.getByLabel('Select customers').check();
    await page.getByLabel('Select refunds').check();
    await page.getByRole('button', { name: 'Deprecate selected', exact: true }).click();
    await page.getByLabel('Note').fill('Moved to the lakehouse');
    await page.getByRole('form', { name: 'Deprecate datasets' }).getByRole('button', { name: 'Deprecate' }).click();
    await row('customers').locator('.badge-deprecated').waitFor();
    await row('refunds').locator('.badge-deprecated').waitFor();
    await page.getByLabel('Deprecated only').check();
    await page.waitForFunction(() => document.querySelectorAll('table.datasets tbody tr').length === 3);
    await page.getByLabel('Deprecated only').uncheck();
  });

  it('undeprecates a dataset', async () => {
    await page.getByRole('link', { name: 'orders', exact: true }).click();
    await page.getByRole('button', { name: 'Undeprecate' }).click();
    await page.getByRole('button', { name: 'Deprecate', exact: true }).waitFor();
    assert.equal(await page.getByRole('status', { name: 'Deprecation' }).count(), 0);
    await page.getByRole('link', { name: 'Datasets' }).first().click();
    await row('orders').waitFor();
    assert.equal(await row('orders').locator('.badge-deprecated').count(), 0);
  });

  it('shows an index with its size and runs a truncation to completion', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Personal access token').fill(server.adminToken);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('link', { name: 'Timeseries' }).click();
    const index = page.locator('tr[data-index="dataset_datasetprofileaspect_v1"]');
    await index.waitFor();
    assert.match((await index.textContent()) ?? '', /\d+(\.\d)? (B|KB|MB)/);
    await index.getByRole('button', { name: /Truncate/ }).click();
    await page.getByLabel('Days', { exact: true }).fill('50');
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    const preview = page.locator('.preview');
    await preview.waitFor();
    assert.match((await preview.textContent()) ?? '', /Delete 2 out of 4 rows \(50\.00%\)/);
    await page.getByRole('button', { name: /Execute/ }).click();
    await page.getByRole('heading', { name: /Task .*: completed/ }).waitFor({ timeout: 20_000 });
    await page.locator('table.tasks tbody tr', { hasText: 'completed' }).first().waitFor();
  });

  it('shows a Reader no deprecate controls, and the API refuses them anyway', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('rita');
    await row('orders').waitFor();
    assert.equal(await page.getByRole('checkbox', { name: /^Select / }).count(), 0);
    await page.getByRole('link', { name: 'orders', exact: true }).click();
    await page.getByRole('heading', { name: 'orders' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Deprecate', exact: true }).count(), 0);
    const token = await page.evaluate(() => sessionStorage.getItem('almanac.token'));
    const res = await server.request('POST', '/api/graphql', {
      auth: `Bearer ${token}`,
      body: {
        query: 'mutation($i: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $i) }',
        variables: { i: { deprecated: true, resources: [{ resourceUrn: ds('orders') }] } },
      },
    });
    assert.equal(res.json.errors[0].extensions.code, 403);
    assert.equal(res.json.errors[0].message, 'Unauthorized to perform this action. Please contact your DataHub administrator.');
  });

  it('fits a narrow screen', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('link', { name: 'Datasets' }).first().click();
    await row('orders').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `page scrolls sideways by ${overflow}px`);
  });
});
