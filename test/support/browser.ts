import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env.ALMANAC_CHROMIUM ?? '/usr/bin/chromium';

/** Why the console tests cannot run here, or undefined; CI must run them. */
export const chromiumSkip: string | undefined = fs.existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`;
if (chromiumSkip && process.env.CI) throw new Error(`${chromiumSkip}: CI must run the console tests`);

/** Debian's headless Chromium, kept off the network beyond the test server. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Signs in on the console's login page with a password and waits for the datasets list. */
export async function signIn(page: Page, serverUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${serverUrl}/#/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Datasets' }).waitFor();
}

/** The list's row of the dataset whose name links to its page. */
export const datasetRow = (page: Page, name: string) =>
  page.locator('table.datasets tbody tr', { has: page.getByRole('link', { name, exact: true }) });
