import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { VIEWPORT, chartCard, signedInPage, treeNode } from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** Expiry of an owner's assignment (OWNER_LIFETIME_SEC). */
const OWNER = 32535215940;

interface DeviceEntry {
  mac: string;
  title: string;
}

/**
 * The administrator's session for the user manager's calls. It needs a cookie jar of its own
 * (a request context of another browser context): a session cookie is per browser.
 */
async function adminApi(request: APIRequestContext) {
  const r = await request.post(`${baseUrl}/api/read/auth/local`, {
    data: { login: 'admin', password: sha256(adminPassword) },
  });
  const body = (await r.json()) as { user: { token: string } };
  const userToken = body.user.token;
  const call = async (path: string, data: Record<string, unknown>) => {
    const res = await request.post(`${baseUrl}/api${path}`, { data: { user_token: userToken, ...data } });
    expect(res.ok(), `${path} ${await res.text()}`).toBe(true);
    return (await res.json()) as { data: unknown };
  };
  const all = (await call('/read/applications/usermanager/device/list', {})).data as {
    MAC: string;
    title: string;
  }[];
  return {
    devices: all.map((d): DeviceEntry => ({ mac: d.MAC, title: d.title })),
    addUser: (login: string, password: string) =>
      call('/write/applications/usermanager/user/add', { login, password: sha256(password) }),
    assign: (login: string, mac: string) =>
      call('/write/applications/usermanager/assign', { login, device: mac, lifeTime: OWNER }),
    logins: async () =>
      ((await call('/read/applications/usermanager/user/list', {})).data as { login: string }[]).map(
        (u) => u.login,
      ),
  };
}

const deviceButton = (page: Page) => page.getByRole('button', { name: 'Device' });

async function signIn(page: Page, login: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', password);
  await page.press('input[name="password"]', 'Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/login') && u.pathname.startsWith('/visualization'));
  await deviceButton(page).waitFor();
}

async function signOut(page: Page): Promise<void> {
  await page.locator('.ant-layout-header button').last().click();
  await page.locator('.ant-dropdown:visible').getByText('Logout', { exact: true }).click();
  await page.waitForURL('**/login');
  await page.locator('input[name="login"]').waitFor();
}

/** Real-time rows of the open data table (the window grows by one row per live frame). */
const tableRows = (page: Page) => chartCard(page).locator('.ant-table-tbody tr.ant-table-row');

describe('a page stays as the person left it', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('keeps a chart table open while live frames refresh its data', async () => {
    const app = await signedInPage(browser, baseUrl, 'demo', 'demo');
    const page = app.page;
    await page.goto(`${baseUrl}/visualization/realtime/voltage`);
    const viewData = chartCard(page).getByRole('button', { name: 'View data table' });
    await expect.poll(() => viewData.isEnabled(), { timeout: 20_000 }).toBe(true);
    await viewData.click();
    await tableRows(page).first().waitFor();

    // Live refreshes of the chart's data: the table follows them and stays open.
    const frames = app.liveFrames();
    await expect.poll(() => app.liveFrames(), { timeout: 15_000 }).toBeGreaterThan(frames + 2);
    const rows = await tableRows(page).count();
    await expect
      .poll(() => tableRows(page).count(), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(Math.min(rows + 2, 10));
    expect(await chartCard(page).locator('button[aria-pressed="true"]').count()).toBe(1);
    await screenshot(page, 'continuity-table-live');
    expect(app.problems).toEqual([]);
    await page.close();
  });

  it("opens each person's last device after sign-in, and not another person's", async () => {
    const adminContext = await browser.newContext();
    const api = await adminApi(adminContext.request);
    const devices = ['Family house', 'Workshop main'].map((t) => api.devices.find((d) => d.title === t)!);
    const stamp = Date.now().toString(36);
    const people = [`ann${stamp}`, `ben${stamp}`];
    for (const p of people) {
      await api.addUser(p, `${p}-pw`);
      for (const d of devices) await api.assign(p, d.mac);
    }
    await adminContext.close();

    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const [ann, ben] = people as [string, string];

    await signIn(page, ann, `${ann}-pw`);
    const first = await deviceButton(page).innerText();
    const other = devices.find((d) => !first.includes(d.title))!.title;
    await deviceButton(page).click();
    const node = treeNode(page, other).locator('.hierarchy-node__title');
    await node.click();
    await node.waitFor({ state: 'hidden' });
    await expect.poll(() => deviceButton(page).innerText()).toContain(other);
    await signOut(page);

    // Another person on the same browser starts from their own first device.
    await signIn(page, ben, `${ben}-pw`);
    await expect.poll(() => deviceButton(page).innerText()).toContain(first.trim());
    await screenshot(page, 'continuity-next-person');
    await signOut(page);

    // The first person finds the device they used last.
    await signIn(page, ann, `${ann}-pw`);
    await expect.poll(() => deviceButton(page).innerText()).toContain(other);
    await screenshot(page, 'continuity-last-device');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
