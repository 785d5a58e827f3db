import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { signedInPage, type AppPage } from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

/** Offset of a zone's wall clock from UTC at an instant, ms. */
function zoneOffsetMs(ms: number, tz: string): number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/** Half-hours of today in a zone, from its midnight to the next. */
function halfHoursOfToday(tz: string): number {
  const local = new Date(Date.now() + zoneOffsetMs(Date.now(), tz));
  const midnight = (dayOffset: number) => {
    const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + dayOffset);
    return wall - zoneOffsetMs(wall - zoneOffsetMs(wall, tz), tz);
  };
  return (midnight(1) - midnight(0)) / 1_800_000;
}

/**
 * Clicks the rightmost column (today's). ECharts shows a pointer over a clickable column, which is
 * how a person finds one too, so the scan moves from the right until the pointer appears.
 */
async function clickLastColumn(page: Page, chart: Locator): Promise<void> {
  const box = await chart.locator('canvas').first().boundingBox();
  if (!box) throw new Error('chart not drawn');
  const cursor = () =>
    chart
      .locator('.chart-box > div')
      .first()
      .evaluate((el) => (el as HTMLElement).style.cursor);
  for (let x = box.x + box.width - 30; x > box.x + 30; x -= 10) {
    for (let y = box.y + box.height - 50; y > box.y + 60; y -= 30) {
      await page.mouse.move(x, y);
      if ((await cursor()) === 'pointer') {
        await page.mouse.click(x, y);
        return;
      }
    }
  }
  throw new Error('no clickable column found');
}

describe('monitoring: a state timeline per device per day', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    page = app.page;
  });
  afterAll(() => browser.close());

  it("draws every device's day on one 24-hour axis with a legend, and a slot's minutes", async () => {
    await page.goto(`${baseUrl}/tools/monitoring`);
    const days = page.getByTestId('monitoring-days');
    await days.locator('canvas').first().waitFor();
    await page.waitForTimeout(800); // let the columns finish their entry animation
    await screenshot(page, 'monitoring-01-week');
    await clickLastColumn(page, days);

    const timeline = page.getByTestId('monitoring-timeline');
    await timeline.getByText(/^Every device on /).waitFor();
    const rows = timeline.getByTestId('timeline-row');
    // The administrator has one demo device of every type, and owns what the registration tests added.
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(6);
    // Today in the installation's zone, in half-hours: 48, or 46 and 50 on its DST days.
    const { tz } = (await (await page.request.get(`${baseUrl}/config.json`)).json()) as { tz: string };
    const first = rows.first();
    await expect.poll(() => first.locator('.state-timeline__cell').count()).toBe(halfHoursOfToday(tz));
    // The simulated meters report: their slots up to now are online.
    await expect
      .poll(() => first.locator('[data-state="online"]').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    const axis = await timeline.locator('.state-timeline__axis').innerText();
    for (const label of ['00:00', '12:00', '24:00']) expect(axis).toContain(label);
    expect(await timeline.getByTestId('timeline-legend').innerText()).toMatch(
      /Online[\s\S]*Partly offline[\s\S]*Offline[\s\S]*No data/,
    );
    await screenshot(page, 'monitoring-02-day-timeline');

    // The latest reported slot of the first device opens its minutes.
    const reported = first.locator('.state-timeline__cell:not([data-state="none"])');
    await reported.last().click();
    const minutes = page.getByTestId('monitoring-minutes');
    await minutes.getByText(/^Minutes /).waitFor();
    await expect.poll(() => minutes.locator('.state-timeline__cell').count()).toBe(30);
    await expect
      .poll(() => minutes.locator('.state-timeline__cell:not([data-state="none"])').count(), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    await screenshot(page, 'monitoring-03-slot-minutes');
    await minutes.getByRole('button', { name: 'Back to the day' }).click();
    await minutes.waitFor({ state: 'detached' });
    expect(await page.getByTestId('monitoring-pie').count()).toBe(0);
    expect(app.problems).toEqual([]);
  }, 120_000);

  it('says "Data not found" once to a user without devices', async () => {
    const userToken = await page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('mp.userToken') ?? '{}') as { value?: { token?: string } }).value
          ?.token,
    );
    const login = `mon${Date.now().toString(36)}`;
    const password = 'monitoring-pw';
    const added = await page.request.post(`${baseUrl}/api/write/applications/usermanager/user/add`, {
      data: { user_token: userToken, login, password: createHash('sha256').update(password).digest('hex') },
    });
    expect(added.ok()).toBe(true);
    const empty = await signedInPage(browser, baseUrl, login, password);
    await empty.page.goto(`${baseUrl}/tools/monitoring`);
    await empty.page.getByText('Data not found').first().waitFor();
    await empty.page.waitForTimeout(1000); // any late toast or second empty chart would be up by now
    expect(await empty.page.getByText('Data not found').count()).toBe(1);
    await screenshot(empty.page, 'monitoring-04-no-devices');
    expect(empty.problems).toEqual([]);
    await empty.page.close();
  });
});
