/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { canvasPixels, expectNoRawKeys, signedInPage, treeNode, type AppPage } from './app';
import { launchBrowser, screenshot } from './browser';
import { startPortal, type Portal } from './portal';

const baseUrl = inject('baseUrl');

/** The demo fleet's precision analyzer (type 3, apps/server/src/seed/seed.ts). */
const ANALYZER = 'Test bench analyzer';
const NUMBER3 = /^-?\d+\.\d{3}$/;
/** L1 voltage and L1 current colours of the area's charts. */
const L1_VOLTAGE: [number, number, number] = [0xd4, 0xa1, 0x06];
const L1_CURRENT: [number, number, number] = [0xfa, 0x8c, 0x16];

/** Opens a screen of the area through the sidebar, as a person would. */
async function openFromMenu(page: Page, label: string, path: string): Promise<void> {
  const item = page.locator(`.ant-layout-sider li[data-menu-id$="-/applied-precision/${path}"]`);
  expect((await item.innerText()).trim()).toBe(label);
  await item.click();
  await page.waitForURL((u) => u.pathname === `/applied-precision/${path}`);
  await expect.poll(() => page.locator('h4').first().innerText()).toBe(label);
}

/** Signs in, opens the dashboard and picks the analyzer from the guard's hierarchy. */
async function pickAnalyzer(page: Page, portalUrl: string): Promise<void> {
  await page.goto(`${portalUrl}/applied-precision`);
  await page.waitForURL('**/applied-precision/dashboard');
  await page.getByText('Select a precision device').waitFor();
  await treeNode(page, ANALYZER).locator('.hierarchy-node__title').click();
  await page.locator('.graph-toolbar').getByText(ANALYZER).waitFor();
}

/** A card of the dashboard by its title. */
function card(page: Page, title: string) {
  return page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });
}

/** The cells of a table row by the row's first cell text. */
async function rowCells(page: Page, cardTitle: string, label: string): Promise<string[]> {
  const row = card(page, cardTitle).locator('tr.ant-table-row').filter({ hasText: label }).first();
  return (await row.locator('td').allInnerTexts()).map((s) => s.trim());
}

/** Waits until no menu is shown, also one still sliding out from an earlier click. */
async function menusClosed(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('.ant-dropdown:visible, .ant-dropdown-menu-submenu-popup:visible').count(), {
      timeout: 5000,
    })
    .toBe(0);
}

async function setTheme(page: Page, mode: 'Dark theme' | 'Light theme'): Promise<void> {
  const wanted = mode === 'Dark theme' ? 'dark' : 'light';
  // A click while the menu still zooms in lands beside it: open it and choose again, as a person would.
  for (let attempt = 1; ; attempt++) {
    await menusClosed(page);
    await page.locator('.ant-layout-header button').last().click();
    await page.locator('.ant-dropdown:visible').getByText(mode, { exact: true }).click();
    try {
      await expect
        .poll(() => page.locator('html').getAttribute('data-theme'), { timeout: 5000 })
        .toBe(wanted);
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
  // Let the menu close and the colours settle before anyone looks.
  await menusClosed(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
}

describe('applied precision, live half', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'demo', 'demo');
    page = app.page;
    await pickAnalyzer(page, baseUrl);
  });
  afterAll(() => browser.close());

  it('lands on the dashboard and lists the area in the sidebar', async () => {
    await page.goto(`${baseUrl}/some/unknown/path`);
    await page.waitForURL('**/applied-precision/dashboard');
    const sider = page.locator('.ant-layout-sider');
    await sider.getByText('Applied precision').waitFor();
    const items = sider.locator('li[data-menu-id*="-/applied-precision/"]');
    await expect
      .poll(() => items.allInnerTexts())
      .toEqual([
        'Dashboard',
        'Vector diagram',
        'Harmonics',
        'Waveform',
        'Power quality (EN 50160)',
        'Meters',
      ]);
    await expect.poll(() => page.locator('h4').first().innerText()).toBe('Dashboard');
  });

  it('shows live values in the load, more and energy tables with 3 decimals', async () => {
    for (const title of ['Load values', 'More values', 'Energy values']) await card(page, title).waitFor();
    const updated = page.getByTestId('dashboard-updated');
    await updated.waitFor({ timeout: 15_000 });
    const firstUpdate = await updated.innerText();

    const voltage = await rowCells(page, 'Load values', 'Voltage');
    expect(voltage[0]).toContain('Voltage');
    for (const v of voltage.slice(1, 4)) {
      expect(v).toMatch(NUMBER3);
      expect(Number(v)).toBeGreaterThan(200);
      expect(Number(v)).toBeLessThan(260);
    }
    // Voltages have no total; powers and energies do.
    expect(voltage[4]).toBe('');
    expect(voltage[5]).toBe('V');
    const labels = await card(page, 'Load values').locator('tr.ant-table-row td:first-child').allInnerTexts();
    expect(labels.map((l) => l.replace(/\s+/g, ' ').trim())).toEqual([
      'Voltage U',
      'Current I',
      'Voltage angle F_U',
      'Current angle F_I',
      'Power factor PF',
      'Active power P',
      'Reactive power Q',
      'Apparent power S',
    ]);
    expect((await rowCells(page, 'More values', 'Phase-to-phase voltage U_PP'))[4]).toBe('V');
    expect((await rowCells(page, 'More values', 'Voltage distortion'))[4]).toBe('%');

    // Energies in kWh (kvarh, kVAh) with their SUM.
    const active = await rowCells(page, 'Energy values', 'Active energy');
    // English groups thousands with commas.
    const [l1, l2, l3, sum] = active.slice(1, 5).map((v) => Number(v.replace(/,/g, '')));
    expect(active[5]).toBe('kWh');
    expect(Math.abs(l1! + l2! + l3! - sum!)).toBeLessThan(0.0025);
    expect((await rowCells(page, 'Energy values', 'Reactive energy'))[5]).toBe('kvarh');
    expect((await rowCells(page, 'Energy values', 'Apparent energy'))[5]).toBe('kVAh');

    // The values follow the live stream.
    const before = app.liveFrames();
    await expect.poll(() => app.liveFrames(), { timeout: 10_000 }).toBeGreaterThan(before + 1);
    await expect.poll(() => updated.innerText(), { timeout: 10_000 }).not.toBe(firstUpdate);
    await expectNoRawKeys(page);
    await screenshot(page, 'precision-01-dashboard');
    await setTheme(page, 'Dark theme');
    await screenshot(page, 'precision-02-dashboard-dark');
    await setTheme(page, 'Light theme');
    expect(app.problems).toEqual([]);
  });

  it('speaks Slovak and Deutsch on the dashboard without raw keys', async () => {
    const choose = async (lang: 'en' | 'sk' | 'de') => {
      await page.locator('.ant-layout-header button').last().click();
      await page.locator('.ant-dropdown [data-menu-id$="-language"]').hover();
      await page.locator(`[data-menu-id$="-lang:${lang}"]`).click();
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(lang);
    };
    const expected = {
      sk: { group: 'Presné meranie', card: 'Hodnoty záťaže', row: 'Napätie' },
      de: { group: 'Präzisionsmessung', card: 'Lastwerte', row: 'Spannung' },
    } as const;
    for (const lang of ['sk', 'de'] as const) {
      await choose(lang);
      const e = expected[lang];
      await page.locator('.ant-layout-sider').getByText(e.group).waitFor();
      await card(page, e.card)
        .locator('td')
        .filter({ hasText: new RegExp(`^${e.row} U$`) })
        .waitFor();
      // Close the user menu and its language submenu before looking.
      await page.locator('h4').first().click();
      await menusClosed(page);
      await expectNoRawKeys(page);
      await screenshot(page, `precision-dashboard-${lang}`);
    }
    await choose('en');
    await card(page, 'Load values').waitFor();
  });

  it('draws the vector diagram with its data table', async () => {
    await openFromMenu(page, 'Vector diagram', 'vector');
    const chart = page.locator('.vector-card');
    await chart.locator('canvas').first().waitFor();
    // Voltages solid and currents dashed, in their phase colours.
    await expect.poll(() => canvasPixels(page, L1_VOLTAGE), { timeout: 10_000 }).toBeGreaterThan(50);
    expect(await canvasPixels(page, L1_CURRENT)).toBeGreaterThan(10);
    await screenshot(page, 'precision-03-vector');

    await chart.getByRole('button', { name: 'Show Data Table' }).click();
    const rows = page.getByTestId('phasor-table').locator('tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(6);
    const texts = await rows.allInnerTexts();
    expect(texts.map((t) => t.split('\t')[0]?.trim())).toEqual([
      'L1 voltage',
      'L1 current',
      'L2 voltage',
      'L2 current',
      'L3 voltage',
      'L3 current',
    ]);
    const [, magnitude, angle] = texts[0]!.split('\t').map((s) => s.trim());
    expect(magnitude).toMatch(/^\d+\.\d{3} V$/);
    const deg = Number(angle!.replace('°', ''));
    expect(deg).toBeGreaterThanOrEqual(0);
    expect(deg).toBeLessThan(360);
    expect(texts[1]!.split('\t')[1]?.trim()).toMatch(/^\d+\.\d{3} A$/);
    await screenshot(page, 'precision-04-vector-table');
    await chart.getByRole('button', { name: 'Hide Data Table' }).click();
    await page.getByTestId('phasor-table').waitFor({ state: 'detached' });
    expect(app.problems).toEqual([]);
  });

  it('applies and remembers the vector settings: zero position and rotation direction', async () => {
    const chart = page.locator('.vector-card');
    const before = await chart.locator('canvas').first().screenshot();
    await chart.getByRole('button', { name: 'Settings' }).click();
    const popover = page.locator('.ant-popover:visible');
    await popover.getByText('Zero position').waitFor();
    // Level 4 is hard-coded: both settings are editable.
    await popover.getByLabel('Zero position').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '0°' })
      .first()
      .click();
    await popover.getByLabel('Clockwise', { exact: true }).check();
    await screenshot(page, 'precision-05-vector-settings');
    await page.locator('h4').first().click();
    await popover.waitFor({ state: 'hidden' });
    await page.waitForTimeout(300);
    const after = await chart.locator('canvas').first().screenshot();
    expect(after.equals(before)).toBe(false);
    await screenshot(page, 'precision-06-vector-rotated');

    await page.reload();
    await page.locator('.vector-card canvas').first().waitFor();
    await page.locator('.vector-card').getByRole('button', { name: 'Settings' }).click();
    const again = page.locator('.ant-popover:visible');
    await again.getByText('0°', { exact: true }).waitFor();
    expect(await again.getByLabel('Clockwise', { exact: true }).isChecked()).toBe(true);
    await page.locator('h4').first().click();
    await again.waitFor({ state: 'hidden' });
    await setTheme(page, 'Dark theme');
    await page.locator('.vector-card canvas').first().waitFor();
    await page.waitForTimeout(500);
    await screenshot(page, 'precision-07-vector-dark');
    await setTheme(page, 'Light theme');
  });

  it('fetches harmonics on arrival and locks Refresh for 60 s', async () => {
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/read/applied-precision/harmonics'));
    await openFromMenu(page, 'Harmonics', 'harmonics');
    expect((await answered).ok()).toBe(true);
    const refresh = page.getByTestId('refresh');
    expect(await refresh.isDisabled()).toBe(true);
    const first = Number(/\((\d+) s\)/.exec(await refresh.innerText())?.[1]);
    expect(first).toBeGreaterThan(50);
    expect(first).toBeLessThanOrEqual(60);
    await page.locator('.command-chart').getByText('Harmonics chart').waitFor();
    await expect.poll(() => canvasPixels(page, L1_VOLTAGE), { timeout: 10_000 }).toBeGreaterThan(50);
    await expect
      .poll(async () => Number(/\((\d+) s\)/.exec(await refresh.innerText())?.[1]), { timeout: 5000 })
      .toBeLessThan(first);

    // The chart menu: its data table has order 1 at 100 % (values[0] is the fundamental).
    await page.locator('.command-chart').getByRole('button', { name: 'Export' }).click();
    const menu = page.locator('.ant-dropdown:visible');
    for (const item of [
      'View in full screen',
      'Print chart',
      'Download CSV',
      'Download XLSX',
      'Download PNG image',
      'Download PDF document',
    ])
      await menu.getByText(item, { exact: true }).waitFor();
    await menu.getByText('View data table', { exact: true }).click();
    await menusClosed(page);
    const firstRow = page.locator('.command-chart .ant-table-tbody tr.ant-table-row').first();
    const cells = (await firstRow.locator('td').allInnerTexts()).map((s) => s.trim());
    expect(cells[0]).toBe('1');
    expect(cells[1]).toBe('100.000');
    expect(await page.locator('.command-chart th').filter({ hasText: 'L1 voltage (%)' }).count()).toBe(1);
    await screenshot(page, 'precision-08-harmonics');
    const download = page.waitForEvent('download');
    await page.locator('.command-chart').getByRole('button', { name: 'Export' }).click();
    await page.locator('.ant-dropdown:visible').getByText('Download CSV', { exact: true }).click();
    expect((await download).suggestedFilename()).toBe('harmonics.csv');
    await setTheme(page, 'Dark theme');
    await page.waitForTimeout(500);
    await screenshot(page, 'precision-09-harmonics-dark');
    await setTheme(page, 'Light theme');
    expect(app.problems).toEqual([]);
  });

  it('draws the waveform and asks again once the 15 s lockout ends', async () => {
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/read/applied-precision/waveform'));
    await openFromMenu(page, 'Waveform', 'waveform');
    expect((await answered).ok()).toBe(true);
    const refresh = page.getByTestId('refresh');
    const first = Number(/\((\d+) s\)/.exec(await refresh.innerText())?.[1]);
    expect(first).toBeGreaterThan(10);
    expect(first).toBeLessThanOrEqual(15);
    await page.locator('.command-chart').getByText('Waveform chart').waitFor();
    await expect.poll(() => canvasPixels(page, L1_VOLTAGE), { timeout: 10_000 }).toBeGreaterThan(50);
    await screenshot(page, 'precision-10-waveform');

    await expect.poll(() => refresh.isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(await refresh.innerText()).toBe('Refresh');
    const again = page.waitForResponse((r) => r.url().endsWith('/api/read/applied-precision/waveform'));
    await refresh.click();
    expect((await again).ok()).toBe(true);
    expect(await refresh.isDisabled()).toBe(true);
    expect(app.problems).toEqual([]);
  });
});

describe('applied precision with the device not started', () => {
  let portal: Portal;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // A portal of its own whose demo devices never connect: the analyzer is really offline. The
    // demo login is off there too, so the administrator, who owns every device, looks at it.
    portal = await startPortal({ DEMO: 'false' });
    browser = await launchBrowser();
    page = (await signedInPage(browser, portal.baseUrl, 'admin', portal.adminPassword)).page;
    await pickAnalyzer(page, portal.baseUrl);
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('shows the offline empty state on the dashboard', async () => {
    await page.getByText('Device is Offline', { exact: true }).waitFor();
    await page.getByText('Dashboard will be shown when device will be Online', { exact: true }).waitFor();
    expect(await page.getByText('Load values').count()).toBe(0);
    await screenshot(page, 'precision-11-dashboard-offline');
  });

  it('cancels a pending harmonics request on leaving', async () => {
    const started = page.waitForRequest((r) => r.url().endsWith('/api/read/applied-precision/harmonics'));
    await openFromMenu(page, 'Harmonics', 'harmonics');
    const request = await started;
    await page.locator('.command-chart .ant-spin').waitFor();
    await screenshot(page, 'precision-12-harmonics-loading');
    const failed = page.waitForEvent('requestfailed', (r) => r === request);
    await openFromMenu(page, 'Dashboard', 'dashboard');
    expect((await failed).failure()?.errorText).toContain('ERR_ABORTED');
  });

  it("says the device is not responding when it does not answer (604), and waveform's request outlives the screen", async () => {
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/read/applied-precision/waveform'), {
      timeout: 20_000,
    });
    await openFromMenu(page, 'Waveform', 'waveform');
    await page.locator('.command-chart .ant-spin').waitFor();
    await openFromMenu(page, 'Dashboard', 'dashboard');
    const response = await answered;
    expect(response.status()).toBe(504);
    expect(((await response.json()) as { code: number }).code).toBe(604);
    const notResponding = page.getByText('Device not responding or is offline');
    await notResponding.first().waitFor();
    await notResponding.first().waitFor({ state: 'detached', timeout: 10_000 });

    const harmonics = page.waitForResponse((r) => r.url().endsWith('/api/read/applied-precision/harmonics'), {
      timeout: 20_000,
    });
    await openFromMenu(page, 'Harmonics', 'harmonics');
    expect((await harmonics).status()).toBe(504);
    await page.locator('.command-chart').getByText('No data: press Refresh to ask the device').waitFor();
    await page.getByText('Device not responding or is offline').first().waitFor();
    await screenshot(page, 'precision-13-harmonics-not-responding');
  });
});
