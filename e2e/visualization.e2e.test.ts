import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  canvasPixels,
  chartCard,
  chartRows,
  expectNoRawKeys,
  leaveChart,
  signedInPage,
  treeNode,
  type AppPage,
} from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');

// Every route of the visualization area, spelled as seed 000 section 2 writes them.
const REALTIME = [
  ['voltage', 'Voltage'],
  ['current', 'Current'],
  ['power/active', 'Active power'],
  ['power/reactive', 'Reactive power'],
  ['power/apparent', 'Apparent power'],
  ['energy/import', 'Active energy import'],
  ['energy/reactive', 'Reactive energy'],
  ['energy/apparent', 'Apparent energy'],
  ['frequency', 'Frequency'],
  ['power-factor', 'Power factor'],
  ['distortion-factor/voltage', 'Distortion factor of voltage'],
  ['distortion-factor/current', 'Distortion factor of current'],
] as const;
const PROFILE = [
  'voltage',
  'current',
  'power/active',
  'power/reactive',
  'power/apparent',
  'energy/import',
  'energy/reactive',
  'energy/apparent',
  'frequency',
  'power-factor',
  'distoration-factor/voltage',
  'distoration-factor/current',
] as const;
const ENERGY = [
  ['active/15min/maximum', 'Today'],
  ['active/15min', 'Today'],
  ['active/hour', 'Today'],
  ['active/day', 'Last 7 days'],
  ['active/month', 'This year'],
  ['reactive/day', 'Last 7 days'],
] as const;

const shotName = (route: string) => `vis-${route.replace(/\//g, '-')}`;

/** Opens a view through the sidebar, as a person would. */
async function openFromMenu(page: Page, group: 'realtime' | 'profile' | 'energy', route: string) {
  const path = `/visualization/${group}/${route}`;
  const item = page.locator(`li[data-menu-id$="-${path}"]`);
  if (!(await item.isVisible())) await page.locator(`[data-menu-id$="-${group}"]`).first().click();
  await leaveChart(page);
  await item.click();
  await page.waitForURL((u) => u.pathname === path);
}

/** Picks a device in the toolbar's hierarchy drawer. */
async function pickDevice(page: Page, title: string) {
  const node = treeNode(page, title).locator('.hierarchy-node__title');
  // Selecting a device closes the drawer with its tree. A tree still re-rendering under a live
  // update may lose the click: open the drawer and pick again.
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await node.isVisible())) await page.getByRole('button', { name: 'Device' }).click();
      await node.click({ timeout: 5_000 });
      await node.waitFor({ state: 'hidden', timeout: 5_000 });
      break;
    } catch (e) {
      if (attempt === 6) throw e;
    }
  }
  await expect.poll(() => page.getByRole('button', { name: 'Device' }).innerText()).toContain(title);
}

/** The column titles of the chart's data table (opened and closed again). */
async function tableColumns(page: Page): Promise<string[]> {
  await chartRows(page);
  const card = chartCard(page);
  await card.getByRole('button', { name: 'View data table' }).click();
  const head = card.locator('.ant-table-thead th');
  await head.first().waitFor();
  const titles = (await head.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  await card.locator('button[aria-pressed="true"]').click();
  await head.first().waitFor({ state: 'detached' });
  return titles;
}

/** No 'Data not found' anywhere (toast, snackbar or the chart's empty text). */
async function expectNoDataNotFound(page: Page) {
  expect(await page.getByText('Data not found').count()).toBe(0);
}

describe('visualization area', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'demo', 'demo');
    page = app.page;
  });
  afterAll(() => browser.close());

  it('draws live frames from the websocket on every real-time view', async () => {
    for (const [route, title] of REALTIME) {
      await openFromMenu(page, 'realtime', route);
      // The top bar names the kind of chart, so real time and profile read apart.
      await expect.poll(() => page.locator('h4').first().innerText()).toBe(`${title} – real time`);
      const before = app.liveFrames();
      // The simulated meter publishes about once a second.
      await expect.poll(() => app.liveFrames(), { timeout: 10_000 }).toBeGreaterThan(before + 1);
      await page.getByText('Waiting for live data…').waitFor({ state: 'hidden', timeout: 10_000 });
      const { rows } = await chartRows(page);
      expect(rows, route).toBeGreaterThan(0);
      // No date menu on real-time views.
      expect(await page.locator('.graph-toolbar').getByText('Today').count()).toBe(0);
      await expectNoDataNotFound(page);
      await screenshot(page, shotName(`realtime/${route}`));
    }
    // The energy export real-time view has no menu entry but a route.
    await page.goto(`${baseUrl}/visualization/realtime/energy/export`);
    await page.getByText('Waiting for live data…').waitFor({ state: 'hidden', timeout: 15_000 });
    expect((await chartRows(page)).rows).toBeGreaterThan(0);
    await screenshot(page, shotName('realtime/energy/export'));
    expect(app.problems).toEqual([]);
  });

  it('draws history on every profile view', async () => {
    for (const route of PROFILE) {
      await openFromMenu(page, 'profile', route);
      await page.locator('.graph-toolbar').getByText('Today').first().waitFor();
      const { rows, pages } = await chartRows(page);
      expect(rows, route).toBeGreaterThan(0);
      // Minute profiles of a day: many pages of ten rows, unless the day has just begun.
      expect(pages, route).toBeGreaterThanOrEqual(1);
      if (route === 'voltage') {
        // The voltage profile starts logarithmic.
        await expect(chartCard(page).locator('.ant-segmented-item-selected').innerText()).resolves.toBe(
          'Logarithmic axis',
        );
      }
      await expectNoDataNotFound(page);
      await screenshot(page, shotName(`profile/${route}`));
    }
    expect(app.problems).toEqual([]);
  });

  it('draws columns on every energy view', async () => {
    for (const [route, range] of ENERGY) {
      await openFromMenu(page, 'energy', route);
      await page.locator('.graph-toolbar').getByText(range).first().waitFor();
      const { rows } = await chartRows(page);
      expect(rows, route).toBeGreaterThan(0);
      await expectNoDataNotFound(page);
      await screenshot(page, shotName(`energy/${route}`));
    }
    expect(app.problems).toEqual([]);
  });

  it('lets the owner set MRK and RK and draws them pink and orange', async () => {
    await openFromMenu(page, 'energy', 'active/15min/maximum');
    await chartRows(page);
    const pink: [number, number, number] = [0xeb, 0x2f, 0x96];
    const orange: [number, number, number] = [0xfa, 0x8c, 0x16];
    await chartCard(page).getByRole('button', { name: 'Contract limits' }).click();
    const mrk = page.locator('input[name="MRK"]');
    const rk = page.locator('input[name="RK"]');
    const popover = page.locator('.ant-popover').filter({ has: mrk });
    const saveButton = popover.getByRole('button', { name: 'Save' });
    // Seed 000 section 5: at most three decimals, a single separator, MRK required.
    await mrk.fill('1.2345');
    await rk.fill('1');
    expect(await saveButton.isDisabled()).toBe(true);
    await mrk.fill('');
    expect(await saveButton.isDisabled()).toBe(true);
    await mrk.fill('1,5');
    await rk.fill('2.75');
    expect(await saveButton.isDisabled()).toBe(false);
    await saveButton.click();
    await page.getByText('Settings successfully saved').first().waitFor();
    await popover.waitFor({ state: 'hidden' });
    await expect.poll(() => canvasPixels(page, pink), { timeout: 10_000 }).toBeGreaterThan(50);
    await expect.poll(() => canvasPixels(page, orange), { timeout: 10_000 }).toBeGreaterThan(50);
    await page.waitForTimeout(1200); // the lines draw themselves from left to right
    await screenshot(page, 'vis-mrk-rk');
    // The values come back from the server after a reload.
    await page.reload();
    await chartRows(page);
    await expect.poll(() => canvasPixels(page, pink), { timeout: 10_000 }).toBeGreaterThan(50);
    await chartCard(page).getByRole('button', { name: 'Contract limits' }).click();
    await expect(page.locator('input[name="MRK"]').inputValue()).resolves.toBe('1.5');
    await expect(page.locator('input[name="RK"]').inputValue()).resolves.toBe('2.75');
    await page.keyboard.press('Escape');
    expect(app.problems).toEqual([]);
  });

  it('switches between English, Slovak and Deutsch without raw keys', async () => {
    await openFromMenu(page, 'profile', 'voltage');
    await chartRows(page);
    const choose = async (lang: 'en' | 'sk' | 'de') => {
      await page.locator('.ant-layout-header button').last().click();
      await page.locator('.ant-dropdown [data-menu-id$="-language"]').hover();
      await page.locator(`[data-menu-id$="-lang:${lang}"]`).click();
    };
    const expected = {
      sk: { group: 'Merania', range: 'Dnes', table: 'Zobraziť tabuľku dát', title: 'Napätie – profil' },
      de: { group: 'Messungen', range: 'Heute', table: 'Datentabelle anzeigen', title: 'Spannung – Profil' },
      en: { group: 'Measurements', range: 'Today', table: 'View data table', title: 'Voltage – profile' },
    } as const;
    for (const lang of ['sk', 'de', 'en'] as const) {
      await choose(lang);
      const e = expected[lang];
      await page.locator('.ant-layout-sider').getByText(e.group).waitFor();
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(lang);
      await page.locator('.graph-toolbar').getByText(e.range).waitFor();
      await chartCard(page).getByText(e.table).waitFor();
      await expect.poll(() => page.locator('h4').first().innerText()).toBe(e.title);
      // Open the other menus, so that every menu label is on screen for the check.
      for (const group of ['realtime', 'energy']) {
        const sub = page
          .locator('.ant-layout-sider li.ant-menu-submenu')
          .filter({ has: page.locator(`[data-menu-id$="-${group}"]`) })
          .first();
        if (!(await sub.getAttribute('class'))?.includes('ant-menu-submenu-open'))
          await page.locator(`.ant-layout-sider [data-menu-id$="-${group}"]`).first().click();
      }
      await expectNoRawKeys(page);
      await screenshot(page, `vis-language-${lang}`);
    }
  });
});

describe('every metering type charted', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  // The administrator owns one device of every type, in a tree no other test rearranges.
  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', inject('adminPassword'));
    page = app.page;
  });
  afterAll(() => browser.close());

  it("opens the first device that has data on its type's default view", async () => {
    await page.goto(`${baseUrl}/`);
    // The household meter (type 1) is first in the tree and has history: its daily energy.
    await page.waitForURL('**/visualization/energy/active/day');
    await expect
      .poll(() => page.getByRole('button', { name: 'Device' }).innerText())
      .toContain('Family house');
    expect((await chartRows(page)).rows).toBeGreaterThan(0);
    // The applied-precision area is an analyzer's: not in the menu of a household meter.
    expect(await page.locator('.ant-layout-sider li[data-menu-id*="-/applied-precision/"]').count()).toBe(0);
    await screenshot(page, 'vis-default-type1');
  });

  it.each([
    ['Family house', 1],
    ['Garage breaker', 2],
    ['Workshop main', 4],
    ['Solar sub-meter', 6],
  ] as const)('charts %s (type %i) in real time, as a profile and as energy', async (title, type) => {
    await openFromMenu(page, 'realtime', 'voltage');
    await pickDevice(page, title);
    // The device has the view, so it stays.
    expect(new URL(page.url()).pathname).toBe('/visualization/realtime/voltage');
    const before = app.liveFrames();
    await expect.poll(() => app.liveFrames(), { timeout: 10_000 }).toBeGreaterThan(before + 1);
    await page.getByText('Waiting for live data…').waitFor({ state: 'hidden', timeout: 10_000 });
    expect((await chartRows(page)).rows).toBeGreaterThan(0);
    await screenshot(page, `vis-type${type}-realtime-voltage`);
    await openFromMenu(page, 'profile', 'power/active');
    expect((await chartRows(page)).rows).toBeGreaterThan(0);
    await screenshot(page, `vis-type${type}-profile-power-active`);
    await openFromMenu(page, 'energy', 'active/hour');
    expect((await chartRows(page)).rows).toBeGreaterThan(0);
    await expectNoDataNotFound(page);
    await screenshot(page, `vis-type${type}-energy-hour`);
    expect(app.problems).toEqual([]);
  });

  it('keeps the view when the next device has it, and opens its default view when not', async () => {
    await openFromMenu(page, 'profile', 'current');
    await pickDevice(page, 'Workshop main');
    expect(new URL(page.url()).pathname).toBe('/visualization/profile/current');
    await pickDevice(page, 'Family house');
    expect(new URL(page.url()).pathname).toBe('/visualization/profile/current');
    expect((await chartRows(page)).rows).toBeGreaterThan(0);
    // The analyzer has the same chart: still there; its own area opens only from the menu.
    await pickDevice(page, 'Test bench analyzer');
    expect(new URL(page.url()).pathname).toBe('/visualization/profile/current');
    await page.locator('.ant-layout-sider li[data-menu-id$="-/applied-precision/harmonics"]').click();
    await page.waitForURL('**/applied-precision/harmonics');
    // A meter without the applied-precision area opens its own default view.
    await pickDevice(page, 'Workshop main');
    await page.waitForURL('**/visualization/energy/active/15min/maximum');
    expect(app.problems).toEqual([]);
  });

  it('gives the plug its one phase and only the quantities it measures', async () => {
    await openFromMenu(page, 'realtime', 'voltage');
    await pickDevice(page, 'Office plug');
    expect(new URL(page.url()).pathname).toBe('/visualization/realtime/voltage');
    const menu = (path: string) =>
      page.locator(`.ant-layout-sider li[data-menu-id$="-/visualization/${path}"]`);
    expect(await menu('realtime/power/active').count()).toBe(1);
    expect(await menu('realtime/power/reactive').count()).toBe(0);
    expect(await menu('realtime/distortion-factor/current').count()).toBe(0);
    await page.getByText('Waiting for live data…').waitFor({ state: 'hidden', timeout: 15_000 });
    expect(await tableColumns(page)).toEqual(['Time', 'L1 (V)']);
    await screenshot(page, 'vis-type5-realtime-voltage');
    await openFromMenu(page, 'profile', 'voltage');
    expect(await tableColumns(page)).toEqual(['Time', 'L1 (V)']);
    await openFromMenu(page, 'energy', 'active/hour');
    expect(await tableColumns(page)).toEqual(['Time', 'Import (kWh)']);
    await screenshot(page, 'vis-type5-energy-hour');
    // A chart of a quantity the plug lacks is not drawn as zeros: its default view opens.
    await page.goto(`${baseUrl}/visualization/profile/power/reactive`);
    await page.waitForURL('**/visualization/realtime/power/active');
    expect(app.problems).toEqual([]);
  });
});
