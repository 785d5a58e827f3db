import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chooseLanguage, expectNoRawKeys, treeNode, type Lang } from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

/** A common phone: 390 x 844 CSS pixels. */
const PHONE = { width: 390, height: 844 };
const PRECISION = 'Test bench analyzer';
const PRECISION_MAC = '02-4D-50-00-00-03';
/** Every signed-in area of the demo user: a route and what shows that it has drawn (the user manager and the profile page are the administrator's). */
const SCREENS: { name: string; path: string; ready: string }[] = [
  { name: 'dashboard', path: '/applied-precision/dashboard', ready: '.ant-card' },
  { name: 'vector', path: '/applied-precision/vector', ready: 'canvas' },
  { name: 'harmonics', path: '/applied-precision/harmonics', ready: '.ant-card' },
  { name: 'waveform', path: '/applied-precision/waveform', ready: '.ant-card' },
  { name: 'meters', path: '/applied-precision/meters', ready: '.meters-table tr.ant-table-row' },
  { name: 'meter-add', path: '/applied-precision/meter/add', ready: 'form' },
  { name: 'realtime-power', path: '/visualization/realtime/power/active', ready: '.chart-card canvas' },
  {
    name: 'realtime-df-current',
    path: '/visualization/realtime/distortion-factor/current',
    ready: '.chart-card canvas',
  },
  {
    name: 'profile-energy-reactive',
    path: '/visualization/profile/energy/reactive',
    ready: '.chart-card canvas',
  },
  {
    name: 'energy-15min-max',
    path: '/visualization/energy/active/15min/maximum',
    ready: '.chart-card canvas',
  },
  { name: 'monitoring', path: '/tools/monitoring', ready: '.ant-card' },
  { name: 'notifications', path: '/tools/notifications', ready: '.ant-card' },
];

async function phonePage(browser: Browser, login: string, password: string, errors: string[]): Promise<Page> {
  const page = await browser.newPage({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${baseUrl}/login`);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', password);
  await page.press('input[name="password"]', 'Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return page;
}

interface Fit {
  text: string;
  width: number;
  scrollWidth: number;
  clientWidth: number;
}

/** Width and overflow of the elements a selector finds. */
async function fits(page: Page, selector: string): Promise<Fit[]> {
  return page.locator(selector).evaluateAll((els) =>
    els.map((el) => ({
      text: (el as HTMLElement).innerText,
      width: el.getBoundingClientRect().width,
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    })),
  );
}

/**
 * What is not shown whole: the page title and every card title must be neither cut nor squeezed,
 * and nothing may push the page wider than the phone.
 */
async function notWhole(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  const titles = [
    ...(await fits(page, '.ant-layout-header h4')),
    ...(await fits(page, '.ant-card-head-title')),
  ];
  for (const t of titles) {
    if (!t.text.trim()) continue;
    if (t.scrollWidth > t.clientWidth + 1)
      found.push(`${where}: "${t.text}" is cut (${t.scrollWidth} > ${t.clientWidth})`);
    if (t.width < 40) found.push(`${where}: "${t.text}" is squeezed to ${t.width} px`);
  }
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > PHONE.width) found.push(`${where}: the page is ${width} px wide`);
  return found;
}

describe('phones (390 px)', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await phonePage(browser, 'demo', 'demo', errors);
    // Choose the analyzer, so that every area has its data.
    await page.goto(`${baseUrl}/visualization`);
    await page.locator('.chart-card').first().waitFor();
    const device = page.getByRole('button', { name: 'Device' });
    if (!(await device.innerText()).includes(PRECISION)) {
      await device.click();
      const node = treeNode(page, PRECISION).locator('.hierarchy-node__title');
      await node.click();
      await node.waitFor({ state: 'hidden' });
    }
    await page.waitForFunction(
      (mac) =>
        (JSON.parse(localStorage.getItem('mp.selectedDevice') ?? '{}') as { value?: string }).value === mac,
      PRECISION_MAC,
    );
  });
  afterAll(() => browser.close());

  it.each<[Lang]>([['en'], ['sk'], ['de']])(
    'shows every area whole in %s',
    { timeout: 300_000 },
    async (lang) => {
      await chooseLanguage(page, lang);
      const found: string[] = [];
      for (const s of SCREENS) {
        await page.goto(`${baseUrl}${s.path}`);
        await page.locator(s.ready).first().waitFor({ timeout: 20_000 });
        await page.locator('.ant-layout-header h4').waitFor();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `phone-${lang}-${s.name}`);
        found.push(...(await notWhole(page, `${s.name} ${lang}`)));
        await expectNoRawKeys(page);
      }
      expect(found).toEqual([]);
      expect(errors.splice(0)).toEqual([]);
    },
  );

  it('reaches the actions of every user in the user manager', { timeout: 120_000 }, async () => {
    const admin = await phonePage(browser, 'admin', adminPassword, errors);
    await admin.goto(`${baseUrl}/applications/user-manager`);
    const edit = admin.getByRole('button', { name: 'Edit user admin', exact: true });
    await edit.waitFor();
    expect(await notWhole(admin, 'user manager')).toEqual([]);
    // In sight without scrolling the table sideways: the actions stay at the right edge.
    const box = (await edit.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await edit.click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Change password' }).waitFor();
    await screenshot(admin, 'phone-en-user-manager-edit');
    await admin.keyboard.press('Escape');
    await admin.goto(`${baseUrl}/applications/user-manager`);
    await edit.waitFor();
    await screenshot(admin, 'phone-en-user-manager');
    // The profile page belongs to local accounts such as the administrator's.
    await admin.goto(`${baseUrl}/user/edit-profile`);
    await admin.locator('form').waitFor();
    await screenshot(admin, 'phone-en-edit-profile');
    expect(await notWhole(admin, 'edit profile')).toEqual([]);
    await admin.close();
    expect(errors.splice(0)).toEqual([]);
  });
});
