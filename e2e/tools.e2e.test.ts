/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';
import { treeNode } from './app';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const webexUrl = inject('webexUrl');
const webexToken = inject('webexToken');

/** Messages the Webex stand-in has received so far. */
async function webexReceived(): Promise<{ roomId: string; markdown: string }[]> {
  const r = await fetch(`${webexUrl}/_received`, { headers: { authorization: `Bearer ${webexToken}` } });
  return ((await r.json()) as { items: { roomId: string; markdown: string }[] }).items;
}

/** Titles of the demo fleet (apps/server/src/seed/seed.ts). */
const ASSIGNED = 'Office plug';
const OTHERS = ['Family house', 'Garage breaker', 'Test bench analyzer', 'Workshop main', 'Solar sub-meter'];

async function signIn(page: Page, login: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', password);
  await page.press('input[name="password"]', 'Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

/** Picks an option of the antd select labelled `label` (its dropdown renders outside the field). */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
    .first()
    .click();
}

/** Where a chart draws: its canvas box and the element that shows ECharts' hover cursor. */
async function chartBox(chart: Locator) {
  const box = await chart.locator('canvas').first().boundingBox();
  if (!box) throw new Error('chart not drawn');
  const cursor = () =>
    chart
      .locator('.chart-box > div')
      .first()
      .evaluate((el) => (el as HTMLElement).style.cursor);
  return { box, cursor };
}

/**
 * Clicks the rightmost column (today's). ECharts shows a pointer over a clickable column, which is
 * how a person finds one too, so the scan moves from the right until the pointer appears.
 */
async function clickLastColumn(page: Page, chart: Locator): Promise<void> {
  const { box, cursor } = await chartBox(chart);
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

/**
 * Clicks the latest slot of a pie. The ring starts at the top and runs clockwise up to now, so
 * the latest slot (which has data: the device is online) ends just left of the top.
 */
async function clickLatestSlot(page: Page, chart: Locator): Promise<void> {
  const { box, cursor } = await chartBox(chart);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const r = (Math.min(box.width, box.height) / 2) * 0.55; // inside the 38 %-72 % ring
  const a = (1.5 * Math.PI) / 180;
  const x = cx - r * Math.sin(a);
  const y = cy - r * Math.cos(a);
  await page.mouse.move(x, y);
  expect(await cursor()).toBe('pointer');
  await page.mouse.click(x, y);
}

describe('tools and applications', () => {
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page;
  const login = `e2e${Date.now().toString(36)}`;
  let password = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await admin.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    page = await admin.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await signIn(page, 'admin', adminPassword);
  });
  afterAll(() => browser.close());

  it('routes /applications to the user manager and lists the link in the sidebar', async () => {
    await page.goto(`${baseUrl}/applications`);
    await page.waitForURL('**/applications/user-manager');
    await page.getByRole('menuitem', { name: 'User manager' }).waitFor();
    await page.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    await screenshot(page, 'tools-01-user-manager');
  });

  it('creates a user with a generated password', async () => {
    await page.fill('input[name="new-login"]', login);
    await page.getByRole('button', { name: 'Generate password' }).click();
    await page.getByText('Generated password has been copied to clipboard').first().waitFor();
    password = await page.inputValue('input[name="password"]');
    expect(password).toMatch(/^[A-Za-z0-9]{14}$/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await screenshot(page, 'tools-02-generated-password');
    await page.getByRole('button', { name: 'Create new user' }).click();
    await page.getByRole('cell', { name: login, exact: true }).waitFor();
  });

  it('assigns a device with a validity of one month', async () => {
    await page.getByRole('button', { name: `Add device ${login}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await choose(page, 'Device', ASSIGNED);
    await choose(page, 'Validity', '1 month');
    await screenshot(page, 'tools-03-add-device');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('row', { name: new RegExp(login) });
    await row.getByText(`${ASSIGNED} · until`).waitFor();
    await screenshot(page, 'tools-04-device-assigned');
  });

  it('shows exactly that device to the new user, and drops it when the assignment is removed', async () => {
    const userContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const userPage = await userContext.newPage();
    await signIn(userPage, login, password);
    await userPage.getByText(ASSIGNED).first().waitFor();
    for (const title of OTHERS) expect(await userPage.getByText(title).count(), title).toBe(0);
    await screenshot(userPage, 'tools-05-user-sees-device');

    const row = page.getByRole('row', { name: new RegExp(login) });
    await row.getByLabel('Remove device').click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await row.getByText(ASSIGNED).waitFor({ state: 'detached' });
    await screenshot(page, 'tools-06-device-removed');

    // The live stream of the removed device is cut (720), which sends the user to sign in again.
    await userPage.waitForURL('**/login', { timeout: 15_000 });
    await signIn(userPage, login, password);
    await userPage.getByText('Any assigned device').first().waitFor();
    expect(await userPage.getByText(ASSIGNED).count()).toBe(0);
    await screenshot(userPage, 'tools-07-user-without-device');
    await userContext.close();
  });

  it('pairs a Device status notification to the cloud', async () => {
    await page.goto(`${baseUrl}/tools/notifications`);
    await page.getByText('No paired notifications').waitFor();
    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.getByLabel('Destination', { exact: true }).isDisabled()).toBe(true);
    await choose(page, 'Source', 'Device status');
    await choose(page, 'Destination', 'Cloud');
    await screenshot(page, 'tools-08-add-pair');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const pairRow = page.getByRole('row', { name: /Device status/ });
    await pairRow.getByText('Cloud').waitFor();
    await screenshot(page, 'tools-09-paired');

    // The cloud is now taken for Device status: the dialog offers only the Webex space.
    await page.getByRole('button', { name: 'Add' }).click();
    await choose(page, 'Source', 'Device status');
    await page.getByLabel('Destination', { exact: true }).click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    // (the source list may still be fading out, so wait for the destination list alone)
    await expect.poll(() => options.allInnerTexts()).toEqual(['Webex (space: Operations)']);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  });

  it('delivers a disconnector event to the bell and to the paired Webex space', async () => {
    await page.goto(`${baseUrl}/tools/notifications`);
    // Pick the disconnector in the toolbar's device drawer.
    await page.getByRole('button', { name: 'Device', exact: true }).click();
    const drawer = page.locator('.ant-drawer:visible');
    await treeNode(drawer, 'Garage breaker').locator('.hierarchy-node__title').click();
    await page.getByRole('button', { name: 'Device', exact: true }).getByText('Garage breaker').waitFor();
    await drawer.waitFor({ state: 'hidden' });
    // A device of another type takes the shell to that type's default view; come back.
    await page.goto(`${baseUrl}/tools/notifications`);
    await page.getByRole('button', { name: 'Device', exact: true }).getByText('Garage breaker').waitFor();

    for (const destination of ['Cloud', 'Webex (space: Operations)']) {
      await page.getByRole('button', { name: /\bAdd$/ }).click();
      await page.getByRole('dialog').waitFor();
      await choose(page, 'Source', 'Disconnector');
      await choose(page, 'Destination', destination);
      await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
      await page.getByRole('row', { name: new RegExp(destination.replace(/[()]/g, '\\$&')) }).waitFor();
    }
    await screenshot(page, 'tools-10-disconnector-paired');
    const before = (await webexReceived()).length;

    // The owner opens the relay from the device details; the device reports it as an event.
    await page.getByRole('button', { name: 'Device', exact: true }).click();
    const node = treeNode(drawer, 'Garage breaker');
    await node.hover();
    await node.getByRole('button', { name: 'Actions' }).click();
    await page.locator('.ant-dropdown:visible').getByText('Device details', { exact: true }).click();
    const details = page.getByRole('dialog', { name: /Garage breaker/ });
    await details.getByRole('button', { name: 'Open relay' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Yes' }).click();
    await details.getByText('The device reports the relay open').waitFor();
    await screenshot(page, 'tools-11-relay-opened');

    // In-app: the info toast and the bell.
    await page.locator('.ant-notification-notice').filter({ hasText: 'Disconnector' }).first().waitFor({ timeout: 15_000 });
    await details.getByRole('button', { name: 'Close relay' }).click();
    await details.getByText('The device reports the relay closed').waitFor();
    await details.locator('.ant-modal-footer').getByRole('button', { name: 'Close', exact: true }).click();
    await details.waitFor({ state: 'hidden' });
    await drawer.locator('.ant-drawer-close').click();
    await page.getByRole('button', { name: 'Notifications' }).click();
    const bell = page.locator('.ant-popover:visible');
    await bell.getByText(/Disconnector/).first().waitFor();
    await screenshot(page, 'tools-12-bell');

    // Webex: the stand-in received the events in the paired space.
    await expect
      .poll(async () => (await webexReceived()).slice(before).filter((m) => m.roomId === 'space-ops').length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    const sent = (await webexReceived()).slice(before);
    expect(sent.map((m) => m.markdown).join('\n')).toMatch(/Garage breaker/);
    await page.keyboard.press('Escape');
  });

  it('walks the monitoring drill-down: week, day slots, minutes', async () => {
    await page.goto(`${baseUrl}/tools`);
    await page.waitForURL('**/tools/monitoring');
    const days = page.getByTestId('monitoring-days');
    await days.locator('canvas').first().waitFor();
    await page.getByText('Online and offline time per day').waitFor();
    await page.waitForTimeout(800); // let the columns finish their entry animation
    await screenshot(page, 'tools-13-monitoring-week');

    await clickLastColumn(page, days);
    const pie = page.getByTestId('monitoring-pie');
    await pie.getByText(/30-minute slots of/).waitFor();
    await pie.locator('canvas').first().waitFor();
    await page.waitForTimeout(800);
    await screenshot(page, 'tools-14-monitoring-day-slots');

    await clickLatestSlot(page, pie);
    await pie.getByText(/^Minutes /).waitFor();
    await page.waitForTimeout(800);
    await screenshot(page, 'tools-15-monitoring-slot-minutes');
    await pie.getByRole('button', { name: 'Back to the day' }).click();
    await pie.getByText(/30-minute slots of/).waitFor();
  });
});
