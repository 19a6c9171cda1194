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
import { gqlData } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import { ROOT } from '../support/process.ts';
import type { TestServer } from '../support/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const PASSWORD = 'correct horse battery';
const UPDATE_SHOTS = process.env.ALMANAC_UPDATE_SCREENSHOTS === '1';
const clientSkip = await datahubClientSkipReason();
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';
// Owners' category is OWNERSHIP on the wire (DataHub's PlatformEventGeneratorHook); OWNER, its docs' name, subscribes to it.
const CURATION_EVENTS = ['TAG', 'OWNER', 'DOCUMENTATION', 'GLOSSARY_TERM'];

for (const backend of await backends()) {
  describe(`curating in the console, over ${backend.name}, in headless Chromium`, { skip: chromiumSkip ?? backend.skip ?? clientSkip }, () => {
    let server: TestServer;
    let orders: string;
    let browser: Browser;
    let page: Page;
    let receiver: WebhookReceiver;
    const shots =
      UPDATE_SHOTS && backend.name === 'sqlite' ? path.join(ROOT, 'docs/screenshots') : fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-shots-'));

    useServer(backend, async (s) => {
      server = s;
      await actorWithRole(s, 'alice', 'Editor', PASSWORD);
      await actorWithRole(s, 'rita', 'Reader', PASSWORD);
      ({ orders } = await runClientScript<{ orders: string }>(s, 'console_curation.py', { now: Date.now() }));
      receiver = await startWebhookReceiver();
      await gqlData(s, 'mutation($input: CreateWebhookSubscriptionInput!) { createWebhookSubscription(input: $input) { secret } }', {
        input: { url: receiver.url, categories: CURATION_EVENTS },
      });
    });
    before(async () => {
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    });
    after(async () => {
      await browser?.close();
      await receiver.close();
      if (!UPDATE_SHOTS || backend.name !== 'sqlite') fs.rmSync(shots, { recursive: true, force: true });
    });

    const chips = (label: string) => page.getByRole('list', { name: label, exact: true }).getByRole('link');
    const ordersPage = async () => {
      await page.goto(`${server.url}/#/dataset/${encodeURIComponent(orders)}`);
      await page.getByRole('heading', { level: 1, name: 'orders' }).waitFor();
    };
    const pick = async (picker: string, typed: string, option: RegExp) => {
      await page.getByRole('combobox', { name: picker }).fill(typed);
      await page
        .getByRole('listbox', { name: `${picker}: suggestions` })
        .getByRole('option', { name: option })
        .click();
    };

    it('lets an Editor write a description in Markdown, rendered without running any markup', async () => {
      await signIn(page, server.url, 'alice', PASSWORD);
      await ordersPage();
      await page.getByRole('button', { name: 'Edit description' }).click();
      await page
        .getByRole('textbox', { name: 'description' })
        .fill(
          '**Every order**, one row each. See [the runbook](https://example.com/runbook), not [this](javascript:alert(1)).\n\n<img src=x onerror="alert(1)">',
        );
      await page.getByRole('button', { name: 'Save' }).click();
      const description = page.locator('.description');
      await description.locator('strong', { hasText: 'Every order' }).waitFor();
      assert.equal(await description.getByRole('link', { name: 'the runbook' }).getAttribute('href'), 'https://example.com/runbook');
      assert.equal(await description.locator('img').count(), 0);
      // A link anywhere but the web, mail or the console stays text.
      assert.equal(await description.getByRole('link', { name: 'this' }).count(), 0);
      assert.match((await description.textContent()) ?? '', /not this\./);
      assert.match((await description.textContent()) ?? '', /<img src=x onerror="alert\(1\)">/);
    });

    it('adds and removes a tag and an owner, each at once', async () => {
      await pick('Add tag', 'Gol', /Gold/);
      await page.waitForFunction(() => document.querySelector('ul[aria-label="Tags"]')?.textContent?.includes('Gold'));
      assert.deepEqual(await chips('Tags').allTextContents(), ['Gold']);
      await page.getByRole('button', { name: 'Remove tag Gold' }).click();
      await chips('Tags').first().waitFor({ state: 'detached' });

      await page.getByRole('combobox', { name: 'Ownership type' }).selectOption('urn:li:ownershipType:__system__business_owner');
      await pick('Add owner', 'Marg', /Margaret Hamilton/);
      const owners = page.getByRole('list', { name: 'Owners', exact: true });
      await owners.getByRole('link', { name: 'Margaret Hamilton' }).waitFor();
      assert.match((await owners.textContent()) ?? '', /Margaret Hamilton\s*Business owner/);
      await page.screenshot({ path: path.join(shots, 'curation.png') });
      await page.getByRole('button', { name: 'Remove owner Margaret Hamilton' }).click();
      await owners.getByRole('link', { name: 'Margaret Hamilton' }).waitFor({ state: 'detached' });
      assert.deepEqual(await owners.getByRole('link').allTextContents(), ['Finance team']);
    });

    it('adds a glossary term to a schema field', async () => {
      await page.getByRole('button', { name: 'Edit field email' }).click();
      await pick('Add term to email', 'Reve', /Revenue/);
      await page.getByRole('button', { name: 'Done field email' }).click();
      await page.waitForFunction(() => document.querySelector('ul[aria-label="Terms of email"]')?.textContent === 'Revenue');
      assert.deepEqual(await chips('Terms of email').allTextContents(), ['Revenue']);
    });

    it('shows each edit in the change history', async () => {
      await page.getByRole('navigation', { name: 'Dataset views' }).getByRole('link', { name: 'Change history' }).click();
      const changes = page.getByRole('list', { name: 'Changes' });
      await changes.waitFor();
      assert.equal(new URL(page.url()).hash, `#/dataset/${encodeURIComponent(orders)}?tab=history`);
      const text = (await changes.textContent()) ?? '';
      // DataHub's descriptions name a tag and an owner by their urns' ids.
      for (const expected of [
        /Documentation.*Every order/s,
        /Tag 'gold' added/,
        /Tag 'gold' removed/,
        /Owner 'mhamilton' added/,
        /Owner 'mhamilton' removed/,
        /Term 'Revenue' added to entity 'urn:li:schemaField:\(.*,email\)'/,
      ])
        assert.match(text, expected);
      await page.screenshot({ path: path.join(shots, 'change-history.png') });
    });

    it('sends each edit to a webhook receiver as a change event', async () => {
      const deliveries = await receiver.waitFor(6, 15_000);
      const categories = deliveries.map((d) => `${d.json.category} ${d.json.operation}`).sort();
      // The description was the first one people wrote (DataHub says ADD for that, MODIFY after).
      assert.ok(
        categories.some((c) => c.startsWith('DOCUMENTATION ')),
        `DOCUMENTATION in ${categories}`,
      );
      for (const c of ['TAG ADD', 'TAG REMOVE', 'OWNERSHIP ADD', 'OWNERSHIP REMOVE', 'GLOSSARY_TERM ADD'])
        assert.ok(categories.includes(c), `${c} in ${categories}`);
    });

    it("offers a Reader none of it, and refuses a forced edit with DataHub's message", async () => {
      await page.evaluate(() => sessionStorage.clear());
      await signIn(page, server.url, 'rita', PASSWORD);
      await ordersPage();
      await page.getByRole('list', { name: 'Owners', exact: true }).waitFor();
      for (const control of ['Edit description', 'Add tag', 'Add glossary term', 'Add owner', 'Set domain']) {
        assert.equal(
          await page
            .getByRole('button', { name: control })
            .or(page.getByRole('combobox', { name: control }))
            .count(),
          0,
          `${control} is offered`,
        );
      }
      assert.equal(await page.getByRole('button', { name: /^Remove / }).count(), 0);
      assert.equal(await page.getByRole('button', { name: /^Edit field / }).count(), 0);
      const answer = await page.evaluate(async (urn) => {
        const res = await fetch('/api/graphql', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${sessionStorage.getItem('almanac.token')}` },
          body: JSON.stringify({
            query: 'mutation($input: AddTagsInput!) { addTags(input: $input) }',
            variables: { input: { resourceUrn: urn, tagUrns: ['urn:li:tag:gold'] } },
          }),
        });
        return (await res.json()) as { errors?: Array<{ message: string }> };
      }, orders);
      assert.equal(answer.errors?.[0]?.message, UNAUTHORIZED);
      await ordersPage();
      assert.equal(await page.getByRole('list', { name: 'Tags', exact: true }).count(), 0);
    });
  });
}
