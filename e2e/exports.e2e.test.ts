import fs from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  chooseLanguage,
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
const TZ = 'Europe/Bratislava';
const ENERGY_VIEW = '/visualization/energy/active/hour';
const PROFILE_VIEW = '/visualization/profile/voltage';

/** What each language calls the download menu and its entries. */
const TEXTS: Record<Lang, { button: string; csv: string; xlsx: string }> = {
  en: { button: 'Full range', csv: 'Whole range as CSV', xlsx: 'Whole range as XLSX' },
  sk: { button: 'Celý rozsah', csv: 'Celý rozsah ako CSV', xlsx: 'Celý rozsah ako XLSX' },
  de: { button: 'Gesamter Bereich', csv: 'Gesamter Bereich als CSV', xlsx: 'Gesamter Bereich als XLSX' },
};

type Point = [number, number];

/** Opens a chart view and answers the series its chart was drawn from (the chart's own read). */
async function openView(page: Page, view: string, route: 'energy' | 'profile'): Promise<unknown> {
  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/read/${route}`) && r.status() === 200);
  await page.goto(`${baseUrl}${view}`);
  const body = (await (await answer).json()) as { data: unknown };
  await page.locator('.chart-card .chart-box canvas').first().waitFor();
  return body.data;
}

/** Opens the card's full-range menu and downloads one of its entries: the file's name and bytes. */
async function downloadFrom(page: Page, entry: string): Promise<{ name: string; bytes: Buffer }> {
  await page.getByTestId('full-range-download').click();
  const item = page.locator('.ant-dropdown-menu-item', { hasText: entry });
  await item.waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), item.click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(file) };
}

function parseCsv(text: string): { header: string[]; rows: string[][] } {
  const [header, ...rows] = text
    .trimEnd()
    .split('\r\n')
    .map((l) => l.split(','));
  return { header: header!, rows };
}

/** Cells of a worksheet: type attribute and the value or inline text, by reference. */
function sheetCells(xml: string): Map<string, { t: string | null; v: string }> {
  const cells = new Map<string, { t: string | null; v: string }>();
  for (const m of xml.matchAll(/<c r="([A-Z]+\d+)"(?: s="\d+")?(?: t="(\w+)")?>(.*?)<\/c>/g)) {
    const v = /<v>(.*?)<\/v>/.exec(m[3]!)?.[1] ?? /<t[^>]*>(.*?)<\/t>/.exec(m[3]!)?.[1] ?? '';
    cells.set(m[1]!, { t: m[2] ?? null, v });
  }
  return cells;
}

/** Every row's UTC and local time name the same instant; the local one carries the zone's offset. */
function expectBothTimes(rows: string[][]): void {
  expect(rows.length).toBeGreaterThan(0);
  for (const [utc, local] of rows) {
    expect(utc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(local).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
    expect(Date.parse(local!)).toBe(Date.parse(utc!));
  }
}

describe('full-range downloads of the charts', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    page = app.page;
  });
  afterAll(() => browser.close());

  it('downloads the hourly energy chart as CSV with the values the chart shows', async () => {
    await chooseLanguage(page, 'en');
    const data = (await openView(page, ENERGY_VIEW, 'energy')) as Record<string, { CUM: Point[] }>;
    const drawn = data.E_I!.CUM;
    const { name, bytes } = await downloadFrom(page, TEXTS.en.csv);
    expect(name).toMatch(/^[0-9A-F]{10}-energy-hour-\d{4}-\d\d-\d\d\.csv$/);
    const csv = parseCsv(bytes.toString('utf8'));
    expect(csv.header.slice(0, 4)).toEqual(['time_utc', `time_local [${TZ}]`, 'E_I [kWh]', 'E_E [kWh]']);
    expectBothTimes(csv.rows);
    // The same hours as the chart; the running hour may have grown between the two reads.
    expect(csv.rows.map((r) => Date.parse(r[0]!)).slice(0, drawn.length)).toEqual(drawn.map(([t]) => t));
    const finished = drawn.slice(0, -1);
    expect(csv.rows.slice(0, finished.length).map((r) => Number(r[2]))).toEqual(finished.map(([, v]) => v));
    expect(Number(csv.rows[drawn.length - 1]![2])).toBeGreaterThanOrEqual(drawn.at(-1)![1]);
    await screenshot(page, 'exports-en-01-energy-hour');
    expect(app.problems).toEqual([]);
  });

  it('downloads the same range as an XLSX workbook with numeric cells', async () => {
    const { name, bytes } = await downloadFrom(page, TEXTS.en.xlsx);
    expect(name).toMatch(/-energy-hour-\d{4}-\d\d-\d\d\.xlsx$/);
    const files = unzipSync(new Uint8Array(bytes));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['[Content_Types].xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']),
    );
    expect(strFromU8(files['xl/workbook.xml']!)).toContain('<sheet name="Data"');
    const cells = sheetCells(strFromU8(files['xl/worksheets/sheet1.xml']!));
    expect(cells.get('B1')).toEqual({ t: 'inlineStr', v: `time_local [${TZ}]` });
    expect(cells.get('C1')).toEqual({ t: 'inlineStr', v: 'E_I [kWh]' });
    expect(cells.get('A2')?.t).toBe('inlineStr');
    expect(cells.get('C2')?.t).toBeNull();
    expect(Number.isFinite(Number(cells.get('C2')?.v))).toBe(true);
    const about = sheetCells(strFromU8(files['xl/worksheets/sheet2.xml']!));
    expect(about.get('B1')).toEqual({ t: 'inlineStr', v: TZ });
    expect(app.problems).toEqual([]);
  });

  it('downloads the voltage profile per phase with its unit', async () => {
    const data = (await openView(page, PROFILE_VIEW, 'profile')) as Record<string, Record<string, Point[]>>;
    const l1 = data.U!.L1!;
    const { name, bytes } = await downloadFrom(page, TEXTS.en.csv);
    expect(name).toMatch(/-profile-minute-\d{4}-\d\d-\d\d\.csv$/);
    const csv = parseCsv(bytes.toString('utf8'));
    expect(csv.header).toEqual(
      expect.arrayContaining(['time_utc', `time_local [${TZ}]`, 'U_L1 [V]', 'U_L2 [V]', 'U_L3 [V]']),
    );
    expectBothTimes(csv.rows);
    // Every minute the chart has, and the minutes that arrived since.
    expect(csv.rows.length).toBeGreaterThanOrEqual(l1.length);
    const col = csv.header.indexOf('U_L1 [V]');
    expect(Number(csv.rows[0]![col])).toBeCloseTo(l1[0]![1], 3);
    await page.getByTestId('full-range-download').click();
    await page.locator('.ant-dropdown-menu-item', { hasText: TEXTS.en.xlsx }).waitFor();
    // The menu has finished opening (the last one may still be fading out).
    await page.waitForTimeout(800);
    await screenshot(page, 'exports-en-02-profile-menu');
    await page.keyboard.press('Escape');
    await expectNoRawKeys(page);
    expect(app.problems).toEqual([]);
  });

  it.each(['sk', 'de'] as const)('offers the downloads in %s', async (lang) => {
    await chooseLanguage(page, lang);
    const t = TEXTS[lang];
    await openView(page, ENERGY_VIEW, 'energy');
    await page.getByTestId('full-range-download').getByText(t.button).waitFor();
    const csv = await downloadFrom(page, t.csv);
    expect(parseCsv(csv.bytes.toString('utf8')).header[2]).toBe('E_I [kWh]');
    const xlsx = await downloadFrom(page, t.xlsx);
    expect(xlsx.name.endsWith('.xlsx')).toBe(true);
    expect(Object.keys(unzipSync(new Uint8Array(xlsx.bytes)))).toContain('xl/worksheets/sheet1.xml');
    await page.getByTestId('full-range-download').click();
    await page.locator('.ant-dropdown-menu-item', { hasText: t.xlsx }).waitFor();
    // The menu has finished opening (the last one may still be fading out).
    await page.waitForTimeout(800);
    await screenshot(page, `exports-${lang}-01-energy-menu`);
    await page.keyboard.press('Escape');
    await expectNoRawKeys(page);
    expect(app.problems).toEqual([]);
  });

  it.each(['en', 'sk', 'de'] as const)('fits a 390 px phone and downloads there in %s', async (lang) => {
    const { phone, errors } = await phonePage(browser, baseUrl, 'admin', adminPassword, true);
    await chooseLanguage(phone, lang);
    for (const [view, route] of [
      [ENERGY_VIEW, 'energy'],
      [PROFILE_VIEW, 'profile'],
    ] as const) {
      await openView(phone, view, route);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      const { bytes } = await downloadFrom(phone, TEXTS[lang].csv);
      expectBothTimes(parseCsv(bytes.toString('utf8')).rows);
      await phone.getByTestId('full-range-download').click();
      await phone.locator('.ant-dropdown-menu-item', { hasText: TEXTS[lang].xlsx }).waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await phone.waitForTimeout(800);
      await screenshot(phone, `exports-phone-${lang}-${route}`);
      await phone.keyboard.press('Escape');
    }
    expect(errors).toEqual([]);
    await phone.close();
  });

  it('leaves the account in English for the tests that follow', async () => {
    await chooseLanguage(page, 'en');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
  });
});
