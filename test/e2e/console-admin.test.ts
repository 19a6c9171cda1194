import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { actorWithRole } from '../support/actors.ts';
import { chromiumSkip as skip, launchChromium, signIn } from '../support/browser.ts';
import { mcp } from '../support/fixtures.ts';
import { createSqliteDatabase, type TestDatabase } from '../support/databases.ts';
import { gql } from '../support/graphql.ts';
import { ROOT } from '../support/process.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const PASSWORD = 'correct horse battery';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,admin.orders,PROD)';
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:hive,admin.other,PROD)';
const DEPRECATE = 'mutation updateDeprecation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';

describe("the console's admin pages in headless Chromium", { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let bobAuth: string;

  before(async () => {
    db = await createSqliteDatabase();
    // No daily run: it would apply the retention policy the test sets at a moment of its own.
    server = await startTestServer(db, { ALMANAC_RETENTION_SCHEDULE: 'off' });
    await actorWithRole(server, 'ada', 'Admin', PASSWORD);
    bobAuth = await actorWithRole(server, 'bob', 'Reader', PASSWORD);
    const res = await server.request('POST', '/aspects?action=ingestProposalBatch', {
      body: { proposals: [ORDERS, OTHER].map((urn) => mcp(urn, 'status', { removed: false })) },
    });
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

  const bobDeprecates = async (urn: string) =>
    (await gql(server, DEPRECATE, { input: { urn, deprecated: true, note: 'by policy' } }, { auth: bobAuth })).json;
  const userRow = (name: string) => page.locator(`table.users tr[data-user="${name}"]`);

  it('offers a Reader no admin page, and says "Admins only" at their addresses', async () => {
    await signIn(page, server.url, 'bob', PASSWORD);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Tokens' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Users' }).count(), 0);
    assert.equal(await nav.getByRole('link', { name: 'Policies' }).count(), 0);
    assert.equal(await nav.getByRole('link', { name: 'Retention' }).count(), 0);
    await page.goto(`${server.url}/#/policies`);
    await page.getByRole('main').getByText('Admins only').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  it('lets an Admin suspend and reactivate a user, whose token stops and starts working', async () => {
    await signIn(page, server.url, 'ada', PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await userRow('bob').waitFor();
    await page.getByRole('button', { name: 'Suspend bob' }).click();
    await page.getByRole('button', { name: 'Reactivate bob' }).waitFor();
    assert.equal(await userRow('bob').locator('.status').textContent(), 'Suspended');
    assert.equal((await server.request('GET', '/openapi/operations/identity/user/urn', { auth: bobAuth })).status, 401);
    await page.getByRole('button', { name: 'Reactivate bob' }).click();
    await page.getByRole('button', { name: 'Suspend bob' }).waitFor();
    assert.equal((await server.request('GET', '/openapi/operations/identity/user/urn', { auth: bobAuth })).status, 200);
    await page.getByRole('button', { name: 'Create invite token' }).click();
    const invite = page.getByRole('status', { name: 'Invite token' });
    assert.ok(((await invite.locator('code').textContent()) ?? '').length > 10);
  });

  it('lets an Admin create a policy that lets a Reader deprecate one dataset, then deactivate it', async () => {
    assert.equal((await bobDeprecates(ORDERS)).errors?.[0]?.extensions?.code, 403);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Policies' }).click();
    const form = page.getByRole('form', { name: 'Create a policy' });
    await form.getByLabel('Name').fill('Bob deprecates orders');
    await form.getByLabel('For user (urn)').fill('urn:li:corpuser:bob');
    await form.getByLabel('On entity (urn; empty: every entity)').fill(ORDERS);
    await form.getByRole('button', { name: 'Create policy' }).click();
    const row = page.locator('table.policies tr[data-policy="Bob deprecates orders"]');
    await row.waitFor();
    assert.equal(await row.locator('.state').textContent(), 'ACTIVE');
    assert.deepEqual((await bobDeprecates(ORDERS)).data, { updateDeprecation: true });
    assert.equal((await bobDeprecates(OTHER)).errors?.[0]?.extensions?.code, 403);
    await page.getByRole('button', { name: 'Deactivate Bob deprecates orders' }).click();
    await page.getByRole('button', { name: 'Activate Bob deprecates orders' }).waitFor();
    assert.equal((await bobDeprecates(ORDERS)).errors?.[0]?.extensions?.code, 403);
    await page.getByRole('button', { name: 'Delete Bob deprecates orders' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('lets an Admin set a retention policy, see what it would delete, and run it', async () => {
    const now = Date.now();
    // Ten profiles of orders, 0.5 to 9.5 days old: a 7-day policy deletes the three older than a week.
    const proposals = Array.from({ length: 10 }, (_, i) =>
      mcp(ORDERS, 'datasetProfile', { timestampMillis: now - (i + 0.5) * 86_400_000, rowCount: i }),
    );
    assert.equal((await server.request('POST', '/aspects?action=ingestProposalBatch', { body: { proposals } })).status, 200);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Retention' }).click();
    const form = page.getByRole('form', { name: 'Set a retention policy' });
    await form.getByLabel('Keep younger than (days)').fill('7');
    await form.getByRole('button', { name: 'Save policy' }).click();
    await page.locator('table.retention-policies tr[data-policy="dataset datasetProfile"]').waitFor();
    const preview = page.locator('table.retention-preview tr[data-preview="dataset datasetProfile"] .delete');
    await preview.waitFor();
    assert.equal(await preview.textContent(), '3 of 10 rows');
    await page.getByRole('button', { name: 'Run now', exact: true }).click();
    await page.locator('table.retention-runs tr', { hasText: 'manual' }).waitFor();
    // The README's screenshot, refreshed on request only so a test run leaves the tree as it found it.
    if (process.env.ALMANAC_UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: path.join(ROOT, 'docs/screenshots/retention.png') });
    for (let i = 0; i < 100; i++) {
      const sizes = (await server.request('POST', '/operations?action=getIndexSizes', { body: {} })).json.value.indexSizes;
      if (sizes.find((s: { aspectName: string }) => s.aspectName === 'datasetprofile').rowCount === 7) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail('the run did not delete the three old rows');
  });

  it('lets an Admin add a webhook, shows its secret once, and logs the delivery of a deprecation', async () => {
    const receiver = await startWebhookReceiver();
    try {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      const form = page.getByRole('form', { name: 'Add a webhook' });
      await form.getByLabel('URL').fill(receiver.url);
      await form.getByLabel('Deprecation events only').check();
      await form.getByRole('button', { name: 'Add webhook' }).click();
      const secret = page.getByRole('status', { name: 'Webhook secret' });
      await secret.waitFor();
      assert.match((await secret.locator('code').textContent()) ?? '', /^[A-Za-z0-9_-]{43}$/);
      await page.locator('table.webhooks tr', { hasText: receiver.url }).waitFor();
      assert.match((await page.locator('table.webhooks tr', { hasText: receiver.url }).textContent()) ?? '', /DEPRECATION/);
      await gql(server, DEPRECATE, { input: { urn: OTHER, deprecated: true, note: 'hooked' } });
      await receiver.waitFor(1);
      for (let i = 0; i < 50; i++) {
        await page.reload();
        await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
        if ((await page.locator('table.webhook-deliveries td.state-delivered').count()) > 0) break;
      }
      assert.match((await page.locator('table.webhook-deliveries tbody tr').first().textContent()) ?? '', /DEPRECATION.*admin\.other.*delivered/);
      // Shown once: the page after a reload lists the subscription, never its secret.
      assert.equal(await page.getByRole('status', { name: 'Webhook secret' }).count(), 0);
    } finally {
      await receiver.close();
    }
  });
});
