import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { chartRows, chooseLanguage, expectNoRawKeys, signedInPage, type AppPage } from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

const TEXTS = {
  en: {
    table: 'View data table',
    legend: ['Online', 'Partly offline', 'Offline', 'No data'],
    zone: 'Time zone',
  },
  sk: {
    table: 'Zobraziť tabuľku dát',
    legend: ['Online', 'Čiastočne offline', 'Offline', 'Bez údajov'],
    zone: 'Časové pásmo',
  },
  de: {
    table: 'Datentabelle anzeigen',
    legend: ['Online', 'Teilweise offline', 'Offline', 'Keine Daten'],
    zone: 'Zeitzone',
  },
} as const;

/** Clicks today's column of the week chart, found by ECharts' pointer as a person finds it. */
async function clickLastColumn(page: Page, chart: Locator): Promise<void> {
  const box = await chart.locator('canvas').first().boundingBox();
  if (!box) throw new Error('chart not drawn');
  const cursor = () =>
    chart
      .locator('.chart-box > div')
      .first()
      .evaluate((el) => (el as HTMLElement).style.cursor);
  for (let x = box.x + box.width - 20; x > box.x + 20; x -= 12) {
    for (let y = box.y + box.height - 40; y > box.y + 40; y -= 40) {
      await page.mouse.move(x, y);
      if ((await cursor()) === 'pointer') {
        await page.mouse.click(x, y);
        return;
      }
    }
  }
  throw new Error('no clickable column found');
}

async function openTimeline(page: Page): Promise<Locator> {
  await page.goto(`${baseUrl}/tools/monitoring`);
  const days = page.getByTestId('monitoring-days');
  await days.locator('canvas').first().waitFor();
  await page.waitForTimeout(800); // the columns grow in first
  await clickLastColumn(page, days);
  const timeline = page.getByTestId('monitoring-timeline');
  // Six demo devices, and what the registration tests added for the administrator.
  await expect.poll(() => timeline.getByTestId('timeline-row').count()).toBeGreaterThanOrEqual(6);
  await expect
    .poll(() => timeline.locator('[data-state="online"]').count(), { timeout: 15_000 })
    .toBeGreaterThan(0);
  return timeline;
}

describe('the screens of every metering type, the zone and the timeline in three languages and on a phone', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    page = app.page;
  });
  afterAll(async () => {
    await chooseLanguage(page, 'en');
    await browser.close();
  });

  it.each(['sk', 'de', 'en'] as const)(
    'reads in %s without raw keys',
    async (lang) => {
      await page.goto(`${baseUrl}/visualization/energy/active/hour`);
      await chooseLanguage(page, lang);
      const t = TEXTS[lang];
      expect((await chartRows(page, t.table)).rows).toBeGreaterThan(0);
      // The browser runs in UTC, the installation in Europe/Bratislava: the zone is named.
      expect(await page.getByTestId('zone-note').innerText()).toBe(`${t.zone}: Europe/Bratislava`);
      await expectNoRawKeys(page);
      await screenshot(page, `metering-${lang}-energy-hour`);
      const timeline = await openTimeline(page);
      const legend = await timeline.getByTestId('timeline-legend').innerText();
      for (const label of t.legend) expect(legend).toContain(label);
      await expectNoRawKeys(page);
      await screenshot(page, `metering-${lang}-monitoring-timeline`);
      expect(app.problems).toEqual([]);
    },
    120_000,
  );

  it('fits a phone 390 px wide', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/visualization/profile/voltage`);
    await page.locator('.chart-card canvas').first().waitFor();
    await screenshot(page, 'metering-390-profile-voltage');
    const timeline = await openTimeline(page);
    // Each row's states fit the screen: no cell runs past its right edge.
    const cells = timeline.getByTestId('timeline-row').first().locator('.state-timeline__cell');
    const last = await cells.last().boundingBox();
    expect(last).not.toBeNull();
    expect(last!.width).toBeGreaterThan(0);
    expect(last!.x + last!.width).toBeGreaterThan(300);
    expect(last!.x + last!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await timeline.scrollIntoViewIfNeeded();
    await screenshot(page, 'metering-390-monitoring-timeline');
    expect(app.problems).toEqual([]);
  }, 120_000);
});
