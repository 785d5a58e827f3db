import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  chooseLanguage,
  clickUntilShown,
  expectNoRawKeys,
  signedInPage,
  type AppPage,
  type Lang,
  phonePage,
  PHONE,
} from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

/** What each language calls the things the test looks for. */
const TEXTS: Record<Lang, { versions: string; sum: string; running: string; peaks: string; save: string }> = {
  en: {
    versions: 'Tariff versions',
    sum: 'Sum of the range',
    running: 'Running quarter hour',
    peaks: 'Monthly peaks',
    save: 'Save',
  },
  sk: {
    versions: 'Verzie tarify',
    sum: 'Súčet obdobia',
    running: 'Prebiehajúca štvrťhodina',
    peaks: 'Mesačné špičky',
    save: 'Uložiť',
  },
  de: {
    versions: 'Tarifversionen',
    sum: 'Summe des Zeitraums',
    running: 'Laufende Viertelstunde',
    peaks: 'Monatsspitzen',
    save: 'Speichern',
  },
};

/** Waits for the charts' entry animation and saves the page from its top. */
async function settledShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(1500);
  await screenshot(page, name);
}

/** The page is no wider than the phone. */
async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

describe('tariffs, cost and peaks', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    page = app.page;
  });
  afterAll(() => browser.close());

  it('lets the owner set a tariff from the menu and shows the cost per band in euros', async () => {
    await chooseLanguage(page, 'en');
    // The submenu is opened (again) whenever its item is not there yet.
    const item = page.locator('.ant-menu-item', { hasText: 'Tariff' });
    await clickUntilShown(async (o) => {
      if (!(await item.isVisible()))
        await page.locator('.ant-menu-submenu-title', { hasText: 'Cost and peaks' }).click(o);
      await item.click(o);
    }, page.getByText('No tariff is set for this device.'));
    await page.waitForURL(/\/costs\/tariff$/);
    const form = page.getByTestId('tariff-form');
    // A version valid from the first day of last year, so a whole year of the demo data is priced.
    const lastYear = new Date().getUTCFullYear() - 1;
    await form.locator('input[type="date"]').fill(`${lastYear}-01-01`);
    await form.getByLabel('Fixed fee per month').fill('12.5');
    await form.getByLabel('Capacity charge per kW of the month’s peak').fill('3.5');
    await form.getByLabel('Export (feed-in) price per kWh').fill('0.06');
    await form.getByRole('button', { name: 'Save' }).click();
    const versions = page.getByTestId('tariff-versions');
    await versions.getByText(`${lastYear}-01-01`).waitFor();
    expect(await versions.innerText()).toMatch(/High · Weekdays 6–22 h · 0\.2/);
    await settledShot(page, 'costs-en-01-tariff');

    await page.locator('.ant-menu-item', { hasText: 'Energy cost' }).click();
    await page.waitForURL(/\/costs\/cost$/);
    const table = page.getByTestId('cost-table');
    await table.getByText('Sum of the range').waitFor();
    const headers = await table.locator('thead').innerText();
    for (const h of ['High', 'Low', 'Fixed fee', 'Capacity', 'VAT', 'Total']) expect(headers).toContain(h);
    // Months of this year so far, each with its fixed fee of 12.50 EUR.
    expect(await table.locator('tbody tr.ant-table-row').count()).toBeGreaterThan(0);
    expect(await table.locator('tbody tr.ant-table-row').first().innerText()).toContain('12.50 EUR');
    await page.locator('.chart-card canvas').first().waitFor();
    await settledShot(page, 'costs-en-02-cost-months');
    await page.getByText('Days', { exact: true }).click();
    await expect
      .poll(() => table.locator('tbody tr.ant-table-row').count(), { timeout: 15_000 })
      .toBeGreaterThan(1);
    await settledShot(page, 'costs-en-03-cost-days');

    await page.locator('.ant-menu-item', { hasText: 'Capacity peaks' }).click();
    await page.waitForURL(/\/costs\/peaks$/);
    await page.getByTestId('running-quarter').getByText('Projected at the end of the quarter').waitFor();
    await expect
      .poll(() => page.getByTestId('peaks-table').locator('tbody tr.ant-table-row').count())
      .toBe(13);
    await settledShot(page, 'costs-en-04-peaks');

    await page.goto(`${baseUrl}/visualization/energy/active/15min/maximum`);
    await page.locator('.chart-card canvas').first().waitFor();
    await settledShot(page, 'costs-en-05-maximum-with-month-peak');
    await expectNoRawKeys(page);
    expect(app.problems).toEqual([]);
  }, 120_000);

  it.each(['sk', 'de'] as const)('shows the three screens in %s', async (lang) => {
    await chooseLanguage(page, lang);
    const t = TEXTS[lang];
    await page.goto(`${baseUrl}/costs/tariff`);
    await page.getByText(t.versions).first().waitFor();
    await settledShot(page, `costs-${lang}-01-tariff`);
    await page.goto(`${baseUrl}/costs/cost`);
    await page.getByText(t.sum).waitFor();
    await settledShot(page, `costs-${lang}-02-cost`);
    await page.goto(`${baseUrl}/costs/peaks`);
    await page.getByText(t.running).waitFor();
    await page.getByText(t.peaks).first().waitFor();
    await settledShot(page, `costs-${lang}-03-peaks`);
    await expectNoRawKeys(page);
    expect(app.problems).toEqual([]);
  });

  it.each(['en', 'sk', 'de'] as const)('fits a 390 px phone in %s', async (lang) => {
    const { phone, errors } = await phonePage(browser, baseUrl, 'admin', adminPassword, true);
    await chooseLanguage(phone, lang);
    const t = TEXTS[lang];
    for (const [path, ready] of [
      ['/costs/tariff', t.versions],
      ['/costs/cost', t.sum],
      ['/costs/peaks', t.running],
    ] as const) {
      await phone.goto(`${baseUrl}${path}`);
      await phone.getByText(ready).first().waitFor();
      expect(await pageWidth(phone), `${path} in ${lang}`).toBeLessThanOrEqual(PHONE.width);
      await settledShot(phone, `costs-phone-${lang}${path.replace(/\//g, '-')}`);
    }
    expect(errors).toEqual([]);
    await phone.close();
  });
});
