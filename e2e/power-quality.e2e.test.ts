import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  chooseLanguage,
  expectNoRawKeys,
  signedInPage,
  treeNode,
  type AppPage,
  type Lang,
  phonePage,
  PHONE,
} from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
/** The demo fleet's precision analyzer (type 3, apps/server/src/seed/seed.ts). */
const ANALYZER = 'Test bench analyzer';

/** What each language calls the things the test reads. */
const TEXTS: Record<
  Lang,
  {
    menu: string;
    pass: string;
    fail: string;
    notMeasured: string;
    previous: string;
    /** How the frequency rows name their year-to-date span and the week's own share. */
    span: RegExp;
    weekShare: RegExp;
    /** The heading of the harmonic orders' table. */
    harmonics: string;
    /** A 5th harmonic above its 6 % limit, in the language's numbers: "7.03 % L2". */
    fifthAbove: RegExp;
  }
> = {
  en: {
    menu: 'Power quality (EN 50160)',
    pass: 'Pass',
    fail: 'Fail',
    notMeasured: 'Not measured by this device',
    previous: 'Previous week',
    span: /^Year to date: \d{1,2}\/\d{1,2}\/\d{4} – \d{1,2}\/\d{1,2}\/\d{4}$/,
    weekShare: /This week: [\d.]+ % \([\d,]+ of [\d,]+\)/,
    harmonics: 'Individual harmonic voltages, EN 50160:2010 Table 1',
    fifthAbove: /: [6-9]\.\d\d % L\d/,
  },
  sk: {
    menu: 'Kvalita elektriny (EN 50160)',
    pass: 'Vyhovuje',
    fail: 'Nevyhovuje',
    notMeasured: 'Toto zariadenie nemeria',
    previous: 'Predchádzajúci týždeň',
    span: /^Od začiatku roka: 0?1\. ?0?1\. ?\d{4} – /,
    weekShare: /Tento týždeň: [\d,]+ % \([\d\s ]+ z [\d\s ]+\)/,
    harmonics: 'Jednotlivé harmonické napätia, EN 50160:2010 tabuľka 1',
    fifthAbove: /: [6-9],\d\d % L\d/,
  },
  de: {
    menu: 'Spannungsqualität (EN 50160)',
    pass: 'Erfüllt',
    fail: 'Nicht erfüllt',
    notMeasured: 'Von diesem Gerät nicht gemessen',
    previous: 'Vorige Woche',
    span: /^Jahr bis heute: 01\.01\.\d{4} – /,
    weekShare: /Diese Woche: [\d,]+ % \([\d.]+ von [\d.]+\)/,
    harmonics: 'Einzelne Oberschwingungsspannungen, EN 50160:2010 Tabelle 1',
    fifthAbove: /: [6-9],\d\d % L\d/,
  },
};

const verdict = (page: Page, criterion: string) => page.getByTestId(`pq-verdict-${criterion}`).innerText();
const orderVerdict = (page: Page, order: number) =>
  page.getByTestId(`pq-harmonic-verdict-${order}`).innerText();

/** The harmonic table of a failing week: its heading, the 5th above 6 %, the 7th and 3rd within. */
async function expectFailingHarmonics(page: Page, lang: Lang): Promise<void> {
  const t = TEXTS[lang];
  const section = page.getByTestId('pq-harmonics');
  expect(await section.innerText()).toContain(t.harmonics);
  expect(await page.getByTestId('pq-harmonics-verdict').innerText()).toBe(t.fail);
  expect(await verdict(page, 'HARMONICS')).toBe(t.fail);
  expect(await orderVerdict(page, 5)).toBe(t.fail);
  expect(await orderVerdict(page, 7)).toBe(t.pass);
  expect(await orderVerdict(page, 3)).toBe(t.pass);
  expect(await page.getByTestId('pq-harmonics-table').locator('tbody tr.ant-table-row').count()).toBe(24);
}
const weekVerdict = (page: Page) => page.getByTestId('pq-week-verdict').innerText();

/** The frequency rows state the year to date they were judged over and keep the week's own share. */
async function expectYearToDate(page: Page, lang: Lang): Promise<void> {
  for (const c of ['FREQUENCY_995', 'FREQUENCY_ALWAYS']) {
    expect((await page.getByTestId(`pq-span-${c}`).innerText()).trim(), c).toMatch(TEXTS[lang].span);
    expect(await page.locator(`[data-row-key="${c}"]`).innerText(), c).toMatch(TEXTS[lang].weekShare);
  }
}

/** Picks the analyzer in the guard's hierarchy when no precision device is selected yet. */
async function pickAnalyzer(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/applied-precision/power-quality`);
  await treeNode(page, ANALYZER).locator('.hierarchy-node__title').click();
  await page.locator('.graph-toolbar').getByText(ANALYZER).waitFor();
}

/** Steps back from the last complete week to the demo's planted week, three weeks before this one. */
async function toPlantedWeek(page: Page, lang: Lang): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const before = await page.getByTestId('pq-week').innerText();
    await page.getByRole('button', { name: TEXTS[lang].previous }).click();
    await expect.poll(() => page.getByTestId('pq-week').innerText()).not.toBe(before);
  }
  await expect.poll(() => weekVerdict(page), { timeout: 20_000 }).toBe(TEXTS[lang].fail);
}

async function settledShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
  await screenshot(page, name);
}

describe('power quality (EN 50160)', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'demo', 'demo');
    page = app.page;
  });
  afterAll(() => browser.close());

  it('shows a passing week and the planted week that fails, in English', async () => {
    await chooseLanguage(page, 'en');
    await pickAnalyzer(page);
    const item = page.locator('.ant-layout-sider li[data-menu-id$="-/applied-precision/power-quality"]');
    expect((await item.innerText()).trim()).toBe(TEXTS.en.menu);
    await item.click();
    // The last complete week of the simulated analyzer passes.
    await expect.poll(() => weekVerdict(page), { timeout: 20_000 }).toBe('Pass');
    for (const c of ['VOLTAGE_95', 'VOLTAGE_ALWAYS', 'FREQUENCY_995', 'THD_95', 'UNBALANCE_95'])
      expect(await verdict(page, c), c).toBe('Pass');
    for (const c of ['FLICKER', 'DIPS'])
      expect(await verdict(page, c), c).toBe('Not measured by this device');
    // The polled spectra of the week pass every order of the EN 50160 table.
    expect(await verdict(page, 'HARMONICS')).toBe('Pass');
    expect(await page.getByTestId('pq-harmonics-verdict').innerText()).toBe('Pass');
    for (const order of [2, 3, 5, 7, 15, 25])
      expect(await orderVerdict(page, order), String(order)).toBe('Pass');
    expect(await page.getByTestId('pq-harmonics-coverage').innerText()).toMatch(
      /^Spectra polled for [\d,]+ of 1,0\d\d 10-minute intervals/,
    );
    const table = page.getByTestId('pq-criteria');
    expect(await table.locator('thead').innerText()).toContain('Worst intervals');
    expect(await page.getByTestId('pq-coverage').innerText()).toMatch(/10-minute intervals assessed/);
    await expect.poll(() => page.getByText('one-minute means', { exact: false }).count()).toBeGreaterThan(0);
    await expectYearToDate(page, 'en');
    await settledShot(page, 'power-quality-en-01-passing-week');

    await toPlantedWeek(page, 'en');
    expect(await verdict(page, 'VOLTAGE_95')).toBe('Fail');
    expect(await verdict(page, 'VOLTAGE_ALWAYS')).toBe('Fail');
    expect(await verdict(page, 'THD_95')).toBe('Fail');
    expect(await verdict(page, 'UNBALANCE_95')).toBe('Pass');
    // The sag's worst interval reads about 184 V (80 % of the supply), the distortion 9.50 %.
    const voltageRow = table.locator('tr.ant-table-row', { hasText: 'Supply voltage, 10-minute means' });
    expect(await voltageRow.innerText()).toMatch(/18\d\.\d\d V L\d/);
    const thdRow = table.locator('tr.ant-table-row', { hasText: 'Voltage THD' });
    expect(await thdRow.innerText()).toContain('9.50 %');
    expect(await voltageRow.innerText()).toMatch(/\d+\.\d+ % \/ 95 %/);
    await expectFailingHarmonics(page, 'en');
    // The 5th's row: limit 6 %, its worst phase's share below 95 %, its highest interval above 6 %.
    const fifth = page.getByTestId('pq-harmonics-table').locator('tr[data-row-key="5"]');
    expect(await fifth.innerText()).toMatch(/≤ 6\.0 %/);
    expect(await fifth.innerText()).toMatch(/\d+\.\d+ % L\d\s+[\d,]+ of [\d,]+ within/);
    expect(await fifth.innerText()).toMatch(TEXTS.en.fifthAbove);
    await settledShot(page, 'power-quality-en-02-planted-week');
    await expectNoRawKeys(page);
    expect(app.problems).toEqual([]);
  }, 120_000);

  it.each(['sk', 'de'] as const)(
    'shows the planted week in %s',
    async (lang) => {
      await chooseLanguage(page, lang);
      const t = TEXTS[lang];
      await page.goto(`${baseUrl}/applied-precision/power-quality`);
      await expect.poll(() => weekVerdict(page), { timeout: 20_000 }).toBe(t.pass);
      expect(await verdict(page, 'FLICKER')).toBe(t.notMeasured);
      // Counts are written in the language's digits: 1.008 in German, 1 008 in Slovak.
      expect(await page.getByTestId('pq-coverage').innerText()).toMatch(
        lang === 'de' ? /\b1\.0\d\d\b/ : /\b1\s0\d\d\b/,
      );
      await settledShot(page, `power-quality-${lang}-01-passing-week`);
      await toPlantedWeek(page, lang);
      expect(await verdict(page, 'THD_95')).toBe(t.fail);
      expect(await verdict(page, 'FREQUENCY_995')).toBe(t.pass);
      await expectYearToDate(page, lang);
      await expectFailingHarmonics(page, lang);
      const fifth = page.getByTestId('pq-harmonics-table').locator('tr[data-row-key="5"]');
      expect(await fifth.innerText()).toMatch(t.fifthAbove);
      await settledShot(page, `power-quality-${lang}-02-planted-week`);
      await expectNoRawKeys(page);
      expect(app.problems).toEqual([]);
    },
    90_000,
  );

  it.each(['en', 'sk', 'de'] as const)(
    'fits a 390 px phone in %s',
    async (lang) => {
      const { phone, errors } = await phonePage(browser, baseUrl, 'demo', 'demo', true);
      await chooseLanguage(phone, lang);
      await pickAnalyzer(phone);
      await toPlantedWeek(phone, lang);
      // On a phone the shares and worst intervals open under each criterion.
      await phone.locator('[data-row-key="VOLTAGE_95"] .ant-table-row-expand-icon').click();
      await phone.locator('.ant-table-expanded-row .pq-worst').first().waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await settledShot(phone, `power-quality-phone-${lang}`);
      // The harmonic orders: the 5th opens to its worst phase's share and its highest interval.
      await expectFailingHarmonics(phone, lang);
      const harmonicsTable = phone.getByTestId('pq-harmonics-table');
      await harmonicsTable.locator('[data-row-key="5"] .ant-table-row-expand-icon').click();
      const opened = harmonicsTable.locator('.ant-table-expanded-row').first();
      await opened.waitFor();
      expect(await opened.innerText()).toMatch(TEXTS[lang].fifthAbove);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await screenshot(phone, `power-quality-phone-${lang}-harmonics`);
      expect(errors).toEqual([]);
      await phone.close();
    },
    90_000,
  );
});
