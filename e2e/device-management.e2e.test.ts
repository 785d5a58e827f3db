/// <reference lib="dom" />
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';
import { chooseLanguage, expectNoRawKeys, signedInPage, type AppPage, phonePage } from './app';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

/** The demo disconnector (apps/server/src/seed/seed.ts); admin owns every demo device. */
const BREAKER = 'Garage breaker';
/** Versions unique to this run, so a rerun against the same portal registers new ones. */
const RUN = Date.now().toString(36);
const GOOD = `9.${RUN}.1`;
const SILENT = `9.${RUN}.2-silent`;

/**
 * Answers yes to the confirmation asking `question`; found by its question, since the one answered
 * before may still be fading out.
 */
async function confirm(page: Page, question: string): Promise<void> {
  await page.locator('.ant-popconfirm:visible', { hasText: question }).locator('.ant-btn-primary').click();
}

/** Registers a version for the disconnector type with a small image; answers the shown checksum. */
async function register(page: Page, version: string): Promise<string> {
  const form = page.locator('.firmware-add');
  await form.locator('.ant-select').click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Disconnector' })
    .click();
  await form.locator('input#version').fill(version);
  await form.locator('input[type=file]').setInputFiles({
    name: `breaker-${version}.bin`,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(`firmware ${version}`),
  });
  await form.locator('button[type=submit]').click();
  const row = page.locator('.firmware-versions tr', { hasText: version });
  await row.waitFor();
  return (await row.locator('code').innerText()).trim();
}

/** Starts the breaker's upgrade to a version from its row. */
async function upgradeBreaker(page: Page, version: string): Promise<void> {
  await page.getByLabel(`New version ${BREAKER}`, { exact: true }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: version }).click();
  await page.getByRole('button', { name: 'Upgrade selected' }).click();
  await confirm(page, 'Upgrade 1 device(s)?');
}

describe('device management: relay control and firmware upgrade', () => {
  let browser: Browser;
  let app: AppPage;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    // The language is a kept setting of the account: start from English whatever ran before.
    await chooseLanguage(app.page, 'en');
  });
  afterAll(async () => {
    await browser.close();
  });
  // Refused calls are part of these tests (offline, timeout); a page error never is.
  afterEach(() => {
    expect(app.problems.splice(0).filter((p) => p.startsWith('page error:'))).toEqual([]);
  });

  it('switches the relay with confirmation and lists the switchings with who and why', async () => {
    const { page } = app;
    await page.locator('.ant-menu-item', { hasText: 'Relay control' }).click();
    await page.waitForURL('**/devices/relay');
    await page.getByRole('button', { name: 'Open relay' }).click();
    await confirm(page, 'Open the relay and disconnect the load?');
    await expect.poll(() => page.getByTestId('relay-state').innerText()).toBe('Open (load disconnected)');
    await page.getByRole('button', { name: 'Close relay' }).click();
    await confirm(page, 'Close the relay and connect the load?');
    await expect.poll(() => page.getByTestId('relay-state').innerText()).toBe('Closed (load connected)');
    const rows = page.locator('.relay-history tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    expect(await rows.nth(0).innerText()).toMatch(/Closed\s+admin\s+Switched by a user/);
    expect(await rows.nth(1).innerText()).toMatch(/Open\s+admin\s+Switched by a user/);
    // The device reports each switching as a DISCONNECTOR notification, listed beside the history.
    await expect
      .poll(() => page.locator('.relay-notifications .ant-list-item').count())
      .toBeGreaterThanOrEqual(2);
    await expectNoRawKeys(page);
    await screenshot(page, 'devmgmt-01-relay-en');
  });

  it('registers a version with its image checksum and upgrades the breaker to it, with a progress bar', async () => {
    const { page } = app;
    await page.locator('.ant-menu-item', { hasText: 'Firmware upgrade' }).click();
    await page.waitForURL('**/devices/firmware');
    const sha = await register(page, GOOD);
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    await upgradeBreaker(page, GOOD);
    const row = page.locator('.firmware-devices tr.ant-table-row', { hasText: BREAKER });
    const progress = row.locator('.firmware-progress');
    await progress.waitFor();
    await screenshot(page, 'devmgmt-02-upgrade-running-en');
    await expect.poll(() => progress.getAttribute('data-state'), { timeout: 15_000 }).toBe('DONE');
    expect(await row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await progress.innerText()).toContain(`Upgrade finished · ${GOOD}`);
    await expect.poll(() => row.locator('.firmware-current').innerText(), { timeout: 10_000 }).toBe(GOOD);
    await row.locator('.ant-table-row-expand-icon').click();
    const history = page.locator('.firmware-history tbody tr.ant-table-row').first();
    expect(await history.innerText()).toMatch(
      new RegExp(
        `${GOOD.replace(/\./g, '\\.')}\\s+${GOOD.replace(/\./g, '\\.')}\\s+Upgrade finished\\s+admin`,
      ),
    );
    await expectNoRawKeys(page);
    await screenshot(page, 'devmgmt-03-upgrade-done-en');
  }, 60_000);

  it('times out an upgrade whose device goes silent', async () => {
    const { page } = app;
    await register(page, SILENT);
    await upgradeBreaker(page, SILENT);
    const progress = page
      .locator('.firmware-devices tr.ant-table-row', { hasText: BREAKER })
      .locator('.firmware-progress');
    await expect.poll(() => progress.getAttribute('data-state'), { timeout: 20_000 }).toBe('TIMEOUT');
    expect(await progress.innerText()).toContain('Upgrade timeout. DEVICE NOT STABLE!');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'devmgmt-04-upgrade-timeout-en');
  }, 60_000);

  it('shows both screens in Slovak and German', async () => {
    const { page } = app;
    for (const [lang, relay, timeout] of [
      ['sk', 'Ovládanie relé', 'Časový limit aktualizácie vypršal. ZARIADENIE NIE JE STABILNÉ!'],
      ['de', 'Relaissteuerung', 'Zeitüberschreitung beim Update. GERÄT NICHT STABIL!'],
    ] as const) {
      await chooseLanguage(page, lang);
      await expect.poll(() => page.locator('.firmware-progress').first().innerText()).toContain(timeout);
      await expectNoRawKeys(page);
      await screenshot(page, `devmgmt-05-firmware-${lang}`);
      await page.locator('.ant-menu-item', { hasText: relay }).click();
      await page.waitForURL('**/devices/relay');
      await page.locator('.relay-history tbody tr.ant-table-row').first().waitFor();
      await expectNoRawKeys(page);
      await screenshot(page, `devmgmt-06-relay-${lang}`);
      await page.goto(`${baseUrl}/devices/firmware`);
    }
    await chooseLanguage(page, 'en');
  }, 60_000);

  it('fits both screens on a 390 px phone', async () => {
    // A page of its own signs in once; the sign-in page sends a signed-in person onwards.
    const { phone } = await phonePage(browser, baseUrl, 'admin', adminPassword);
    for (const [path, name] of [
      ['/devices/relay', 'relay'],
      ['/devices/firmware', 'firmware'],
    ] as const) {
      await phone.goto(`${baseUrl}${path}`);
      await phone.locator('.ant-card').first().waitFor();
      const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
      expect(wide).toBeLessThanOrEqual(390);
      // Tables scroll sideways inside their card rather than squeezing names and checksums into
      // one-letter columns (rows many lines tall).
      const rows = phone.locator('.ant-table-tbody > tr.ant-table-row');
      for (let i = 0; i < (await rows.count()); i += 1)
        expect((await rows.nth(i).boundingBox())?.height ?? 0).toBeLessThanOrEqual(120);
      await screenshot(phone, `devmgmt-07-${name}-390`);
    }
    await phone.close();
  }, 60_000);
});
