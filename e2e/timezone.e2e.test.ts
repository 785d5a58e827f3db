import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { VIEWPORT, chartCard, chartRows } from './app';
import { launchBrowser, screenshot } from './browser';
import { clearDrawn, drawn, recordCanvasTexts } from './canvasTexts';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

type Series = [number, number][];
interface EnergyAnswer {
  status: string;
  data: Record<string, { CUM: Series }>;
}

/**
 * The two daylight-saving days of the installation's zone (Europe/Bratislava, the portal's
 * default TZ), seen from a browser in New York, whose own days start five or six hours later.
 */
const DST_DAYS = [
  {
    day: '2026-03-29',
    at: '2026-03-29T10:00:00Z',
    // Midnight in Bratislava (UTC+1), and the start of the week's first day.
    fromSec: Date.UTC(2026, 2, 28, 23) / 1000,
    weekFromSec: Date.UTC(2026, 2, 22, 23) / 1000,
    hours: 23,
    firstRow: /^29\/03\/2026 00:00$/,
    // The axis label of the day's first tick: its midnight in Bratislava.
    midnightLabel: '29.3.',
  },
  {
    day: '2026-10-25',
    at: '2026-10-25T10:00:00Z',
    // Midnight in Bratislava (UTC+2 until 03:00).
    fromSec: Date.UTC(2026, 9, 24, 22) / 1000,
    weekFromSec: Date.UTC(2026, 9, 18, 22) / 1000,
    hours: 25,
    firstRow: /^25\/10\/2026 00:00$/,
    midnightLabel: '25.10.',
  },
] as const;

function energyAnswer(page: Page, period: string): Promise<Response> {
  return page.waitForResponse((r) => {
    if (!r.url().endsWith('/api/read/energy')) return false;
    const body = JSON.parse(r.request().postData() ?? '{}') as { period?: string };
    return body.period === period;
  });
}

const wh = (kwh: number) => Math.round(kwh * 1000);

describe('one time zone: the installation', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  describe.each(DST_DAYS)('on $day from a browser in America/New_York', (d) => {
    let context: BrowserContext;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      context = await browser.newContext({ viewport: VIEWPORT, timezoneId: 'America/New_York' });
      // The browser's clock starts on the DST day and runs on from there.
      await context.clock.install({ time: new Date(d.at) });
      await context.addInitScript(recordCanvasTexts);
      page = await context.newPage();
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await page.goto(`${baseUrl}/login`);
      await page.fill('input[name="login"]', 'admin');
      await page.fill('input[name="password"]', adminPassword);
      await page.press('input[name="password"]', 'Enter');
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    });
    afterAll(() => context.close());

    it('asks for the installation day, draws its hours in its time, and sums them to the server day total', async () => {
      const hourAnswer = energyAnswer(page, 'HOUR');
      await page.goto(`${baseUrl}/visualization/energy/active/hour`);
      await clearDrawn(page);
      const res = await hourAnswer;
      const sent = JSON.parse(res.request().postData() ?? '{}') as Record<string, unknown>;
      // "Today" is the installation's day, not New York's.
      expect(sent.from).toBe(d.fromSec);
      expect(sent.to).toBe(d.fromSec + d.hours * 3600);
      const hours = ((await res.json()) as EnergyAnswer).data.E_I!.CUM;
      expect(hours).toHaveLength(d.hours);

      // The server's own total of the same day.
      const day = (await (
        await context.request.post(`${baseUrl}/api/read/energy`, { data: { ...sent, period: 'DAY' } })
      ).json()) as EnergyAnswer;
      expect(day.status).toBe('OK');
      expect(day.data.E_I!.CUM).toHaveLength(1);
      expect(day.data.E_I!.CUM[0]![0]).toBe(d.fromSec * 1000);
      const hourSumWh = hours.reduce((s, [, v]) => s + wh(v), 0);
      expect(hourSumWh).toBe(wh(day.data.E_I!.CUM[0]![1]));

      // Times read in the installation's zone, and the zone is named beside the chart.
      await page.getByTestId('zone-note').getByText('Time zone: Europe/Bratislava').waitFor();
      await chartRows(page);
      // The axis ticks sit on the installation's midnight and whole hours, not on New York's:
      // from there a day tick used to fall on 06:00 Bratislava.
      const labels = await drawn(page);
      expect(labels).toContain(d.midnightLabel);
      const hourLabels = labels.filter((l) => /^\d\d:\d\d$/.test(l));
      expect(hourLabels.length).toBeGreaterThan(2);
      for (const h of hourLabels) expect(h).toMatch(/^(00|03|06|09|12|15|18|21):00$/);
      const card = chartCard(page);
      await card.getByRole('button', { name: 'View data table' }).click();
      const firstTime = card.locator('.ant-table-tbody tr.ant-table-row').first().locator('td').first();
      expect((await firstTime.innerText()).trim()).toMatch(d.firstRow);
      await screenshot(page, `tz-new-york-${d.day}-hours`);
      await card.locator('button[aria-pressed="true"]').click();
      expect(problems).toEqual([]);
    });

    it('builds the last seven days in the installation zone, the DST day last', async () => {
      const dayAnswer = energyAnswer(page, 'DAY');
      await page.goto(`${baseUrl}/visualization/energy/active/day`);
      const res = await dayAnswer;
      const sent = JSON.parse(res.request().postData() ?? '{}') as Record<string, unknown>;
      expect(sent.from).toBe(d.weekFromSec);
      expect(sent.to).toBe(d.fromSec + d.hours * 3600);
      const days = ((await res.json()) as EnergyAnswer).data.E_I!.CUM;
      expect(days).toHaveLength(7);
      expect(days.at(-1)![0]).toBe(d.fromSec * 1000);
      await chartRows(page);
      await screenshot(page, `tz-new-york-${d.day}-week`);
      expect(problems).toEqual([]);
    });

    it("puts each month of this year on the installation's month, not the one before", async () => {
      const monthAnswer = energyAnswer(page, 'MONTH');
      await page.goto(`${baseUrl}/visualization/energy/active/month`);
      const res = await monthAnswer;
      const sent = JSON.parse(res.request().postData() ?? '{}') as Record<string, unknown>;
      // This year from Bratislava's 1 January, which is still 31 December in New York.
      expect(sent.from).toBe(Date.UTC(2025, 11, 31, 23) / 1000);
      const months = ((await res.json()) as EnergyAnswer).data.E_I!.CUM;
      expect(months.length).toBeGreaterThanOrEqual(3);
      const card = chartCard(page);
      await card.locator('.chart-box canvas').first().waitFor({ state: 'visible' });
      await card.getByRole('button', { name: 'View data table' }).click();
      const rows = card.locator('.ant-table-tbody tr.ant-table-row');
      await rows.first().waitFor();
      // One row per month the server answered, January first, each with the server's value.
      const texts = (await rows.allInnerTexts()).map((t) => t.split('\t').map((c) => c.trim()));
      expect(texts.length).toBe(Math.min(10, months.length));
      expect(texts[0]![0]).toBe('January 2026');
      for (const [i, [, kwh]] of months.slice(0, texts.length).entries()) {
        expect(Number(texts[i]![1]!.replace(/,/g, ''))).toBeCloseTo(kwh, 2);
      }
      await screenshot(page, `tz-new-york-${d.day}-months`);
      await card.locator('button[aria-pressed="true"]').click();
      expect(problems).toEqual([]);
    });
  });
});
