/// <reference lib="dom" />
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { enAlarms } from '../apps/web/src/i18n/en.alarms';
import { skAlarms } from '../apps/web/src/i18n/sk.alarms';
import { deAlarms } from '../apps/web/src/i18n/de.alarms';
import { chooseLanguage, expectNoRawKeys, treeNode, type Lang } from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

const TEXTS = { en: enAlarms.alarms, sk: skAlarms.alarms, de: deAlarms.alarms } as const;
/** A three-phase demo meter whose simulated voltage is always far above 100 V. */
const DEVICE = 'Workshop main';
const PHONE = { width: 390, height: 844 };

async function signIn(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.fill('input[name="login"]', 'admin');
  await page.fill('input[name="password"]', adminPassword);
  await page.press('input[name="password"]', 'Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

/** Picks an option of the antd select labelled `label` inside the dialog. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('dialog').getByLabel(label, { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
    .first()
    .click();
}

async function pickDevice(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Device', exact: true }).click();
  const drawer = page.locator('.ant-drawer:visible');
  await treeNode(drawer, DEVICE).locator('.hierarchy-node__title').click();
  await page.getByRole('button', { name: 'Device', exact: true }).getByText(DEVICE).waitFor();
  await treeNode(drawer, DEVICE).waitFor({ state: 'hidden' });
}

describe('alarms', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page);
    await page.goto(`${baseUrl}/tools/alarms`);
    await pickDevice(page);
  });
  afterAll(() => browser.close());
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it.each<Lang>(['en', 'sk', 'de'])(
    'in %s: a rule made in the screen is raised by the meter, acknowledged and cleared',
    async (lang) => {
      const x = TEXTS[lang];
      await chooseLanguage(page, lang);
      await page.getByRole('menuitem', { name: x.menu }).waitFor();
      const name = `Voltage ${lang}`;
      await page.getByRole('button', { name: x.add_rule }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      // Saving an empty name and a band upside down is refused with its messages.
      await dialog.getByLabel(x.name, { exact: true }).fill('');
      await choose(page, x.condition, x.conditions.outside);
      await dialog.getByLabel(x.threshold_low, { exact: true }).fill('250');
      await dialog.getByLabel(x.threshold_high, { exact: true }).fill('200');
      await dialog.locator('.ant-btn-primary').click();
      await dialog.getByText(x.errors.high_above_low).waitFor();
      await dialog.locator('.ant-form-item-explain-error').first().waitFor();
      await screenshot(page, `alarms-${lang}-01-rule-form-errors`);

      await dialog.getByLabel(x.name, { exact: true }).fill(name);
      await choose(page, x.condition, x.conditions.above);
      await dialog.getByLabel(x.threshold, { exact: true }).fill('100');
      await choose(page, x.severity, x.severities.critical);
      await dialog.locator('.ant-btn-primary').click();
      await dialog.waitFor({ state: 'hidden' });
      await page
        .getByRole('row', { name: new RegExp(name) })
        .first()
        .waitFor();

      // The simulated meter's voltage passes 100 V with its next frame.
      const row = page
        .locator('.ant-card', { hasText: x.list })
        .getByRole('row', { name: new RegExp(name) })
        .first();
      await row.getByText(x.states.raised).waitFor({ timeout: 20_000 });
      await page.getByTestId('active-alarms').getByText(name).waitFor();
      await screenshot(page, `alarms-${lang}-02-raised`);

      await row.getByRole('button', { name: x.acknowledge }).click();
      const ack = page.getByRole('dialog');
      await ack.getByLabel(x.note, { exact: true }).fill(`checked (${lang})`);
      await ack.locator('.ant-btn-primary').click();
      await ack.waitFor({ state: 'hidden' });
      await row.getByText(x.states.acknowledged).waitFor();
      await row.getByText(`admin`).waitFor();
      await row.getByText(`checked (${lang})`).waitFor();
      await screenshot(page, `alarms-${lang}-03-acknowledged`);

      // Raising the threshold above the voltage clears the alarm with the next frame.
      await page
        .getByRole('row', { name: new RegExp(name) })
        .first()
        .getByRole('button', { name: x.edit })
        .click();
      await page.getByRole('dialog').getByLabel(x.threshold, { exact: true }).fill('400');
      await page.getByRole('dialog').locator('.ant-btn-primary').click();
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await row.getByText(x.states.cleared).waitFor({ timeout: 20_000 });
      await page.getByText(x.none_active).waitFor();
      await expectNoRawKeys(page);
      expect(await page.locator('body').innerText()).not.toMatch(/\balarms\.[a-z_]+/);
      await screenshot(page, `alarms-${lang}-04-cleared`);

      // The state filter keeps the cleared alarm out of the active ones.
      await page.getByLabel(x.state, { exact: true }).click();
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: x.states.active })
        .click();
      await page.locator('.ant-card', { hasText: x.list }).getByText(x.no_alarms).waitFor();
      await page.getByLabel(x.state, { exact: true }).click();
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `${x.state}: ${x.any}` })
        .click();
    },
  );

  it.each<Lang>(['en', 'sk', 'de'])('in %s fits a 390 px phone', async (lang) => {
    const phoneContext = await browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    const phone = await phoneContext.newPage();
    phone.on('pageerror', (e) => pageErrors.push(e.message));
    try {
      await signIn(phone);
      await phone.goto(`${baseUrl}/tools/alarms`);
      await pickDevice(phone);
      await chooseLanguage(phone, lang);
      const x = TEXTS[lang];
      await phone.getByText(x.rules, { exact: true }).waitFor();
      // The user menu the language was chosen in closes before the screen is looked at.
      await phone.getByText(x.rules, { exact: true }).click();
      await expect.poll(() => phone.locator('.ant-dropdown:visible').count()).toBe(0);
      await phone
        .getByRole('row', { name: /Voltage/ })
        .first()
        .waitFor();
      await expectNoRawKeys(phone);
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(phone, `alarms-${lang}-05-phone`);
      await phone.getByRole('button', { name: x.add_rule }).click();
      await phone.getByRole('dialog').waitFor();
      // The dialog has finished zooming in before it is looked at.
      await phone
        .locator('.ant-modal')
        .evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
      await screenshot(phone, `alarms-${lang}-06-phone-rule-form`);
    } finally {
      await phoneContext.close();
    }
  });
});
