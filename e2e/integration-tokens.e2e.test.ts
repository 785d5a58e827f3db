/// <reference lib="dom" />
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chooseLanguage, signIn as signInAt } from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

/** An industrial meter of the demo fleet, with a year of quarter-hour energy. */
const DEVICE = 'Workshop main';

const TEXTS = {
  en: { menu: 'Integration tokens', create: 'Create token', empty: 'No tokens available', revoke: 'Revoke' },
  sk: { menu: 'Tokeny pre integráciu', create: 'Vytvoriť token', empty: 'Žiadne tokeny', revoke: 'Zrušiť' },
  de: {
    menu: 'Integrations-Tokens',
    create: 'Token erstellen',
    empty: 'Keine Tokens vorhanden',
    revoke: 'Widerrufen',
  },
} as const;

const signIn = (page: Page, login: string, password: string) => signInAt(page, baseUrl, login, password);

/** Opens the user menu of the top bar. */
async function openUserMenu(page: Page): Promise<void> {
  await page.locator('.ant-layout-header button').last().click();
  await page.locator('.ant-dropdown:visible').waitFor();
}

/** Lets a dialog or popup finish its opening animation (0.3 s) before a screenshot. */
const settled = (page: Page) => page.waitForTimeout(400);

/** A token read through the API as a program would: no browser, no cookie, only the bearer. */
async function bearerGet(path: string, secret: string, accept?: string): Promise<Response> {
  return fetch(`${baseUrl}/api/read/v1${path}`, {
    headers: { authorization: `Bearer ${secret}`, ...(accept ? { accept } : {}) },
  });
}

describe('integration tokens', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let secret = '';
  const name = `Grafana ${Date.now().toString(36)}`;
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (r) => {
      // 610 (no hierarchy saved yet) answers 404 by contract; the app builds the tree then.
      if (r.status() === 404 && r.url().endsWith('/facility/devices-hierarchy')) return;
      if (r.status() >= 400 && r.url().includes('/api/')) errors.push(`HTTP ${r.status()} ${r.url()}`);
    });
    await signIn(page, 'admin', adminPassword);
  });
  afterAll(() => browser.close());
  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });

  it('opens from the user menu and says when there are no tokens', async () => {
    await openUserMenu(page);
    const item = page.locator('.ant-dropdown [data-menu-id$="-integration"]');
    expect(await item.innerText()).toBe('Integration tokens');
    await item.click();
    await page.waitForURL('**/user/integration-tokens');
    await page.getByText('No tokens available').waitFor();
    await screenshot(page, 'integration-01-empty-en');
  });

  it('creates a token for one device and shows its secret once, with a copy button', async () => {
    await page.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Devices').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: DEVICE }).click();
    await page.keyboard.press('Escape');
    await settled(page);
    await screenshot(page, 'integration-02-create-en');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const secretField = page.getByLabel('Token', { exact: true });
    await secretField.waitFor();
    secret = await secretField.inputValue();
    expect(secret).toMatch(/^mpt_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Token copied').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByText(`curl -H "Authorization: Bearer ${secret}"`).waitFor();
    await settled(page);
    await screenshot(page, 'integration-03-secret-en');
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.getByText(DEVICE).waitFor();
    await row.getByText('Never').waitFor();
    // The list never shows the secret again.
    expect(await page.getByText(secret).count()).toBe(0);
  });

  it('pulls the device list and an hourly energy CSV with the token, like curl', async () => {
    const list = await bearerGet('/devices', secret);
    expect(list.status).toBe(200);
    const devices = ((await list.json()) as { data: { mac: string; title: string }[] }).data;
    expect(devices.map((d) => d.title)).toEqual([DEVICE]);
    const toSec = Math.floor(Date.now() / 1000 / 3600) * 3600;
    const csv = await bearerGet(
      `/devices/${devices[0]!.mac}/energy?period=HOUR&from=${toSec - 6 * 3600}&to=${toSec}`,
      secret,
      'text/csv',
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^time_utc,time_local \[[A-Za-z_/]+\],E_I \[kWh\],E_E \[kWh\]$/);
    expect(lines).toHaveLength(7);
    for (const [i, line] of lines.slice(1).entries()) {
      const [utc, local, imported] = line.split(',');
      expect(Date.parse(utc!) / 1000).toBe(toSec - (6 - i) * 3600);
      expect(Date.parse(local!)).toBe(Date.parse(utc!));
      expect(Number(imported)).toBeGreaterThanOrEqual(0);
    }
    // The portal's own session is no bearer.
    expect((await bearerGet('/devices', 'not-a-token')).status).toBe(401);
  });

  it('shows the last use, in every language', async () => {
    await page.reload();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.waitFor();
    expect(await row.getByText('Never').count()).toBe(0);
    for (const lang of ['sk', 'de', 'en'] as const) {
      await chooseLanguage(page, lang);
      await page.getByRole('button', { name: TEXTS[lang].create }).waitFor();
      await page.locator('.topbar-title', { hasText: TEXTS[lang].menu }).waitFor();
      await screenshot(page, `integration-04-list-${lang}`);
    }
  });

  it('fits a 390 px phone', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const p = await phone.newPage();
    p.on('pageerror', (e) => errors.push(e.message));
    await signIn(p, 'admin', adminPassword);
    await p.goto(`${baseUrl}/user/integration-tokens`);
    const row = p.getByRole('row', { name: new RegExp(name) });
    await row.waitFor();
    await row.getByRole('button', { name: `Revoke ${name}` }).waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(p, 'integration-05-phone-en');
    await p.getByRole('button', { name: 'Create token' }).click();
    await p.getByRole('dialog').getByLabel('Name').waitFor();
    await settled(p);
    await screenshot(p, 'integration-06-phone-create-en');
    await phone.close();
  });

  it('revokes the token after confirmation, and the token stops at once', async () => {
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.getByRole('button', { name: `Revoke ${name}` }).click();
    await settled(page);
    await screenshot(page, 'integration-07-revoke-confirm-en');
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Token revoked').first().waitFor();
    await row.waitFor({ state: 'detached' });
    const res = await bearerGet('/devices', secret);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: number }).code).toBe(601);
  });

  it('is not offered to the public demo account', async () => {
    const demo = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const p = await demo.newPage();
    await signIn(p, 'demo', 'demo');
    await openUserMenu(p);
    await p.locator('.ant-dropdown [data-menu-id$="-logout"]').waitFor();
    expect(await p.locator('.ant-dropdown [data-menu-id$="-integration"]').count()).toBe(0);
    await p.goto(`${baseUrl}/user/integration-tokens`);
    await p.waitForURL((u) => !u.pathname.startsWith('/user/integration-tokens'));
    await demo.close();
  });
});
