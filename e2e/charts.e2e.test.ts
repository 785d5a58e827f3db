/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import {
  canvasPixels,
  chartCard,
  chooseLanguage,
  expectNoRawKeys,
  leaveChart,
  signedInPage,
  treeNode,
  type AppPage,
} from './app';
import { launchBrowser, screenshot } from './browser';
import { clearDrawn, drawn, recordCanvasTexts } from './canvasTexts';

const baseUrl = inject('baseUrl');

/** The demo fleet's precision analyzer: it measures every quantity the charts show. */
const ANALYZER = 'Test bench analyzer';
const IMPORT_BLUE: [number, number, number] = [0x16, 0x68, 0xdc];
const RK_ORANGE: [number, number, number] = [0xfa, 0x8c, 0x16];

async function openView(page: Page, group: 'realtime' | 'profile' | 'energy', route: string): Promise<void> {
  const path = `/visualization/${group}/${route}`;
  const item = page.locator(`li[data-menu-id$="-${path}"]`);
  if (!(await item.isVisible())) await page.locator(`[data-menu-id$="-${group}"]`).first().click();
  await leaveChart(page);
  await item.click();
  await page.waitForURL((u) => u.pathname === path);
  await chartCard(page).locator('.chart-box canvas').first().waitFor();
}

async function openPrecision(page: Page, path: string): Promise<void> {
  const item = page.locator(`.ant-layout-sider li[data-menu-id$="-/applied-precision/${path}"]`);
  if (!(await item.isVisible()))
    await page.locator('.ant-layout-sider [data-menu-id$="-applied-precision"]').first().click();
  await item.click();
  await page.waitForURL((u) => u.pathname === `/applied-precision/${path}`);
}

/** Value cells of the first data-table row (the time column left out). */
async function firstRowValues(page: Page, viewData: string): Promise<string[]> {
  const card = chartCard(page);
  const button = card.getByRole('button', { name: viewData });
  await expect.poll(() => button.isEnabled(), { timeout: 15_000 }).toBe(true);
  await button.click();
  const row = card.locator('.ant-table-tbody tr.ant-table-row').first();
  await row.waitFor();
  const cells = (await row.locator('td').allInnerTexts()).map((s) => s.trim());
  return cells.slice(1);
}

async function closeTable(page: Page): Promise<void> {
  await chartCard(page).locator('button[aria-pressed="true"]').click();
  await chartCard(page).locator('.ant-table').waitFor({ state: 'detached' });
}

/** Header cells of the chart's data table. */
async function tableHeaders(page: Page): Promise<string[]> {
  const card = chartCard(page);
  await card.getByRole('button', { name: 'View data table' }).click();
  await card.locator('.ant-table-thead th').first().waitFor();
  const headers = (await card.locator('.ant-table-thead th').allInnerTexts()).map((s) => s.trim());
  await closeTable(page);
  return headers;
}

/** Sets MRK and RK through the owner's contract limits menu. */
async function setLimits(page: Page, mrk: string, rk: string): Promise<void> {
  await chartCard(page).getByRole('button', { name: 'Contract limits' }).click();
  const popover = page.locator('.ant-popover').filter({ has: page.locator('input[name="MRK"]') });
  await popover.locator('input[name="MRK"]').fill(mrk);
  await popover.locator('input[name="RK"]').fill(rk);
  await popover.getByRole('button', { name: 'Save' }).click();
  await popover.waitFor({ state: 'hidden' });
}

describe('charts that read right, in the user language', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;
  const sockets: WebSocketRoute[] = [];
  let socketsDown = false;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'demo', 'demo');
    page = app.page;
    await page.addInitScript(recordCanvasTexts);
    // The live socket passes through, so that the test can cut it like a lost network.
    await page.routeWebSocket(/.*/, (ws) => {
      if (socketsDown) return ws.close();
      ws.connectToServer();
      sockets.push(ws);
    });
    await page.goto(`${baseUrl}/visualization/profile/voltage`);
    await chartCard(page).locator('.chart-box canvas').first().waitFor();
    // Every chart here is the analyzer's, the one device with the applied-precision screens too.
    const device = page.getByRole('button', { name: 'Device' });
    if (!(await device.innerText()).includes(ANALYZER)) {
      await device.click();
      const node = treeNode(page, ANALYZER).locator('.hierarchy-node__title');
      await node.click();
      await node.waitFor({ state: 'hidden' });
      await device.filter({ hasText: ANALYZER }).waitFor();
    }
    // Start each test from another view, so that the first one's chart is drawn anew.
    await page.goto(`${baseUrl}/visualization/realtime/voltage`);
    await chartCard(page).locator('.chart-box canvas').first().waitFor();
  });
  afterAll(() => browser.close());

  it('fits the voltage axis to the data, offers AVG but no SUM, and titles profile and live apart', async () => {
    await clearDrawn(page);
    await openView(page, 'profile', 'voltage');
    await page.locator('.graph-toolbar').getByText('Today').first().waitFor();
    await expect(chartCard(page).locator('.ant-segmented-item-selected').innerText()).resolves.toBe(
      'Logarithmic axis',
    );
    await chartCard(page).locator('.ant-card-head-title').getByText('Voltage – profile').waitFor();
    // Axis labels around the measured 230 V, not the decades 100 and 1,000 of a bare log axis.
    await expect
      .poll(async () => (await drawn(page)).filter((s) => /^2\d\d$/.test(s)).length, { timeout: 15_000 })
      .toBeGreaterThan(1);
    const labels = await drawn(page);
    expect(labels).not.toContain('1,000');
    expect(labels).not.toContain('100');
    expect(labels).toContain('AVG');
    expect(labels).not.toContain('SUM');
    const headers = await tableHeaders(page);
    expect(headers).toContain('AVG (V)');
    expect(headers).not.toContain('SUM (V)');
    await page
      .getByTestId('chart-maximum')
      .getByText(/^Maximum \d{3}(\.\d{1,3})? V at /)
      .waitFor();
    await screenshot(page, 'charts-profile-voltage');

    await openView(page, 'profile', 'power/active');
    const power = await tableHeaders(page);
    expect(power).toContain('SUM (W)');
    expect(power).not.toContain('AVG (W)');

    await openView(page, 'realtime', 'voltage');
    await chartCard(page).locator('.ant-card-head-title').getByText('Voltage – real time').waitFor();
    await openView(page, 'realtime', 'power/reactive');
    await chartCard(page).locator('.ant-card-head-title').getByText('Reactive power – real time').waitFor();
    await page.getByText('Waiting for live data…').waitFor({ state: 'hidden', timeout: 15_000 });
    // The charts write the reactive unit as the visualization specification does.
    expect(await tableHeaders(page)).toContain('L1 (VAr)');
    expect(app.problems).toEqual([]);
  });

  it('keeps the power factor axis from blowing up noise', async () => {
    await clearDrawn(page);
    await openView(page, 'profile', 'power-factor');
    await chartCard(page).getByText('Linear axis').click();
    // Ticks of at least 0.01 apart: a span of 0.1 or more, never 0.8925 to 0.8929.
    await expect
      .poll(async () => (await drawn(page)).filter((s) => /^-?[01](\.\d{1,2})?$/.test(s)).length, {
        timeout: 15_000,
      })
      .toBeGreaterThan(2);
    expect((await drawn(page)).filter((s) => /^-?0\.\d{3,}$/.test(s))).toEqual([]);
    await screenshot(page, 'charts-profile-power-factor');
  });

  it('writes Slovak and German numbers on an axis, in a table and in a tooltip', async () => {
    const texts = {
      sk: { viewData: 'Zobraziť tabuľku dát', range: 'Dnes' },
      de: { viewData: 'Datentabelle anzeigen', range: 'Heute' },
    } as const;
    try {
      for (const lang of ['sk', 'de'] as const) {
        await chooseLanguage(page, lang);

        // Tooltip: the voltages under the pointer, with a decimal comma.
        await openView(page, 'profile', 'voltage');
        await page.locator('.graph-toolbar').getByText(texts[lang].range).first().waitFor();
        const box = chartCard(page).locator('.chart-box');
        await expect
          .poll(() => canvasPixels(page, [0xd4, 0xa1, 0x06]), { timeout: 15_000 })
          .toBeGreaterThan(20);
        const rect = (await box.boundingBox())!;
        await expect
          .poll(
            async () => {
              await page.mouse.move(rect.x + rect.width * 0.5, rect.y + rect.height * 0.55);
              await page.mouse.move(rect.x + rect.width * 0.55, rect.y + rect.height * 0.5);
              return box.innerText();
            },
            { timeout: 10_000 },
          )
          .toMatch(/\b2\d\d,\d{3} V\b/);
        expect(await box.innerText()).not.toMatch(/\b2\d\d\.\d{3} V\b/);
        await expectNoRawKeys(page);
        await screenshot(page, `charts-voltage-tooltip-${lang}`);
        await page.mouse.move(0, 0);

        // Axis: decimal commas (0,86), no decimal points, as drawn when the view opens.
        await clearDrawn(page);
        await openView(page, 'profile', 'power-factor');
        await page.locator('.graph-toolbar').getByText(texts[lang].range).first().waitFor();
        await expect
          .poll(async () => (await drawn(page)).filter((s) => /^0,\d{1,2}$/.test(s)).length, {
            timeout: 15_000,
          })
          .toBeGreaterThan(1);
        expect((await drawn(page)).filter((s) => /^0\.\d+$/.test(s))).toEqual([]);
        // Table: three decimals after a comma.
        const values = await firstRowValues(page, texts[lang].viewData);
        expect(values.filter((v) => v !== '-').length).toBeGreaterThan(0);
        for (const v of values.filter((x) => x !== '-')) expect(v).toMatch(/^-?\d+,\d{3}$/);
        await screenshot(page, `charts-power-factor-table-${lang}`);
        await closeTable(page);
      }
    } finally {
      await chooseLanguage(page, 'en');
    }
    expect(app.problems).toEqual([]);
  });

  it('shows last year as twelve month columns', async () => {
    await openView(page, 'energy', 'active/month');
    await page.locator('.graph-toolbar').getByText('This year').first().click();
    await clearDrawn(page);
    await page.locator('.ant-popover:visible').getByRole('button', { name: 'Last year' }).click();
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    await expect
      .poll(
        async () => {
          const texts = new Set(await drawn(page));
          return months.filter((m) => texts.has(m));
        },
        { timeout: 15_000 },
      )
      .toEqual(months);
    await page.waitForTimeout(1200); // the columns grow into place
    await screenshot(page, 'charts-energy-month-last-year');
    expect(app.problems).toEqual([]);
  });

  it('colours quarter-hours above MRK and RK and marks the running quarter as partial', async () => {
    await openView(page, 'energy', 'active/15min/maximum');
    await setLimits(page, '0', '0');
    await page
      .getByTestId('chart-maximum')
      .getByText(/^Maximum [\d.,]+ kW at /)
      .waitFor();
    await expect.poll(() => canvasPixels(page, IMPORT_BLUE), { timeout: 15_000 }).toBeGreaterThan(200);
    await page.waitForTimeout(1200); // the columns grow into place
    const blue = await canvasPixels(page, IMPORT_BLUE);
    // Every quarter-hour lies above an RK of 2 W: all columns turn orange.
    await clearDrawn(page);
    await setLimits(page, '0.001', '0.002');
    await page.waitForTimeout(1200);
    await expect.poll(() => canvasPixels(page, IMPORT_BLUE), { timeout: 10_000 }).toBeLessThan(blue / 4);
    expect(await canvasPixels(page, RK_ORANGE)).toBeGreaterThan(blue / 2);
    expect(await drawn(page)).toContain('partial');
    await screenshot(page, 'charts-15min-maximum-highlighted');
    await setLimits(page, '1.5', '2.75');
    expect(app.problems).toEqual([]);
  });

  it('offers a logarithmic harmonics axis, hides the fundamental and shows THD per phase', async () => {
    await openPrecision(page, 'harmonics');
    const card = page.locator('.command-chart');
    await card.locator('canvas').first().waitFor();
    await expect.poll(() => canvasPixels(page, [0xd4, 0xa1, 0x06]), { timeout: 15_000 }).toBeGreaterThan(20);
    await page
      .getByTestId('harmonics-thd')
      .getByText(/^THD L1 voltage: \d+\.\d{2} %$/)
      .waitFor();
    await clearDrawn(page);
    await card.getByText('Logarithmic axis').click();
    // Decades below 1 % exist only on the logarithmic axis.
    await expect
      .poll(async () => (await drawn(page)).some((t) => t === '0.1' || t === '0.01' || t === '0.001'), {
        timeout: 10_000,
      })
      .toBe(true);
    await screenshot(page, 'charts-harmonics-log');
    // Linear again, without the fundamental: the axis fits the orders 2..40, far below 100 %.
    await card.getByText('Linear axis').click();
    await expect.poll(async () => (await drawn(page)).includes('100'), { timeout: 10_000 }).toBe(true);
    await clearDrawn(page);
    await card.getByText('Hide fundamental').click();
    await expect.poll(async () => (await drawn(page)).includes('2'), { timeout: 10_000 }).toBe(true);
    expect(await drawn(page)).not.toContain('100');
    await screenshot(page, 'charts-harmonics-without-fundamental');
    expect(app.problems).toEqual([]);
  });

  it('reads right in English, Slovak and German, on a desktop and on a 390 px phone', async () => {
    const views = [
      ['dashboard', '/applied-precision/dashboard', '[data-testid="dashboard-updated"]'],
      ['harmonics', '/applied-precision/harmonics', '[data-testid="harmonics-thd"]'],
      ['profile-voltage', '/visualization/profile/voltage', '.chart-box canvas'],
      ['energy-15min-maximum', '/visualization/energy/active/15min/maximum', '.chart-box canvas'],
      ['energy-month', '/visualization/energy/active/month', '.chart-box canvas'],
    ] as const;
    try {
      for (const lang of ['en', 'sk', 'de'] as const) {
        if (lang !== 'en') await chooseLanguage(page, lang);
        for (const [size, viewport] of [
          ['desktop', { width: 1440, height: 900 }],
          ['phone', { width: 390, height: 844 }],
        ] as const) {
          await page.setViewportSize(viewport);
          for (const [name, path, ready] of views) {
            await page.goto(`${baseUrl}${path}`);
            await page.locator(ready).first().waitFor({ timeout: 20_000 });
            await page.waitForTimeout(1500); // charts animate into place
            await expectNoRawKeys(page);
            await screenshot(page, `charts-${size}-${name}-${lang}`);
          }
        }
        await page.setViewportSize({ width: 1440, height: 900 });
      }
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
      await chooseLanguage(page, 'en');
    }
    expect(app.problems).toEqual([]);
  }, 300_000);

  it('totals P, Q and S, shows the frequency, and greys the dashboard when the socket drops', async () => {
    await openPrecision(page, 'dashboard');
    await page.getByTestId('dashboard-updated').waitFor({ timeout: 15_000 });
    const row = (label: string) =>
      page
        .locator('.ant-card')
        .filter({ hasText: 'Load values' })
        .locator('tr.ant-table-row')
        .filter({ hasText: label })
        .first();
    const num = (s: string) => Number(s.replace(/,/g, ''));
    const cells = (await row('Active power P').locator('td').allInnerTexts()).map((s) => s.trim());
    const [l1, l2, l3, total] = cells.slice(1, 5).map(num);
    expect(Math.abs(l1! + l2! + l3! - total!)).toBeLessThan(0.0025);
    expect((await row('Reactive power Q').locator('td').allInnerTexts())[5]?.trim()).toBe('var');
    const angles = (await row('Voltage angle F_U').locator('td').allInnerTexts())
      .slice(1, 4)
      .map((s) => num(s));
    for (const a of angles) {
      expect(a).toBeGreaterThanOrEqual(0);
      expect(a).toBeLessThan(360);
    }
    await page
      .getByTestId('dashboard-frequency')
      .getByText(/^Frequency (49|50)\.\d{3} Hz$/)
      .waitFor();
    await screenshot(page, 'charts-dashboard-totals');

    socketsDown = true;
    // Sockets of earlier page loads are closed already; closing them again changes nothing.
    for (const ws of sockets.splice(0)) await ws.close().catch(() => undefined);
    await page.getByTestId('dashboard-stale').waitFor({ timeout: 10_000 });
    await expect
      .poll(() =>
        page
          .locator('.dashboard--stale .live-value')
          .first()
          .evaluate((el) => getComputedStyle(el).opacity),
      )
      .toBe('0.45');
    await screenshot(page, 'charts-dashboard-stale');
  });
});
