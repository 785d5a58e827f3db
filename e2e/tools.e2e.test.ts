/// <reference lib="dom" />
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';
import { chooseLanguage, treeNode } from './app';

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

describe('tools and applications', () => {
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page;
  const login = `e2e${Date.now().toString(36)}`;
  let password = '';
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await admin.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    page = await admin.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, 'admin', adminPassword);
  });
  afterAll(() => browser.close());
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it('routes /applications to the user manager and lists the link in the sidebar', async () => {
    await page.goto(`${baseUrl}/applications`);
    await page.waitForURL('**/applications/user-manager');
    await page.getByRole('menuitem', { name: 'User manager' }).waitFor();
    await page.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    await screenshot(page, 'tools-01-user-manager');
  });

  it('refuses a new login that mixes Latin with Cyrillic look-alikes, before asking the server', async () => {
    // "аdmin" begins with the Cyrillic а.
    await page.fill('input[name="new-login"]', '\u0430dmin');
    await page.getByRole('button', { name: 'Create new user' }).click();
    await page.getByText('Do not mix Latin, Cyrillic and Greek letters in one login').waitFor();
    await screenshot(page, 'tools-01b-mixed-script-login');
    expect(await page.getByRole('cell', { name: '\u0430dmin', exact: true }).count()).toBe(0);
    await page.fill('input[name="new-login"]', '');
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

  it("offers no 'Delete user' on the administrator's own row, and does on another's", async () => {
    const dialog = page.getByRole('dialog');
    await page.getByRole('button', { name: 'Edit user admin', exact: true }).click();
    await dialog.getByRole('button', { name: 'Change password' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Delete user' }).count()).toBe(0);
    await screenshot(page, 'tools-02b-own-row');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: `Edit user ${login}`, exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete user' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
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

    // The cloud is now taken for Device status: the dialog offers the Webex space and e-mail.
    await page.getByRole('button', { name: 'Add' }).click();
    await choose(page, 'Source', 'Device status');
    await page.getByLabel('Destination', { exact: true }).click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    // (the source list may still be fading out, so wait for the destination list alone)
    await expect.poll(() => options.allInnerTexts()).toEqual(['Webex (space: Operations)', 'E-mail']);
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
    // The drawer closes, and this screen (not about one device) stays for a device of another type.
    await treeNode(drawer, 'Garage breaker').waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/tools/notifications');

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
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: 'Disconnector' })
      .first()
      .waitFor({ timeout: 15_000 });
    await details.getByRole('button', { name: 'Close relay' }).click();
    await details.getByText('The device reports the relay closed').waitFor();
    await details.locator('.ant-modal-footer').getByRole('button', { name: 'Close', exact: true }).click();
    await details.waitFor({ state: 'hidden' });
    await drawer.locator('.ant-drawer-close').click();
    await page.getByRole('button', { name: 'Notifications' }).click();
    const bell = page.locator('.ant-popover:visible');
    await bell
      .getByText(/Disconnector/)
      .first()
      .waitFor();
    await screenshot(page, 'tools-12-bell');

    // Webex: the stand-in received the events in the paired space.
    await expect
      .poll(
        async () => (await webexReceived()).slice(before).filter((m) => m.roomId === 'space-ops').length,
        { timeout: 20_000 },
      )
      .toBeGreaterThanOrEqual(2);
    const sent = (await webexReceived()).slice(before);
    expect(sent.map((m) => m.markdown).join('\n')).toMatch(/Garage breaker/);
    // The device sends the event time in seconds; the message dates it this year, not in 1970.
    const year = new Date().getUTCFullYear();
    const events = sent.filter((m) => / DISCONNECTOR: /.test(m.markdown));
    expect(events.length).toBeGreaterThanOrEqual(2);
    for (const m of events) expect(m.markdown).toMatch(new RegExp(` ${year}-\\d\\d-\\d\\dT`));
    await page.keyboard.press('Escape');
  });

  it('shows the latest five notifications after a reload, in the language chosen, each linked to its device', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Device', exact: true }).getByText('Garage breaker').waitFor();
    const texts = {
      en: {
        bell: 'Notifications',
        opened: 'Relay opened · by command',
        closed: 'Relay closed · by command',
        kind: 'Disconnector',
      },
      sk: {
        bell: 'Notifikácie',
        opened: 'Relé rozopnuté · príkazom',
        closed: 'Relé zopnuté · príkazom',
        kind: 'Odpínač',
      },
      de: {
        bell: 'Benachrichtigungen',
        opened: 'Relais geöffnet · per Befehl',
        closed: 'Relais geschlossen · per Befehl',
        kind: 'Trennschalter',
      },
    } as const;
    const bell = page.locator('.ant-popover:visible');
    for (const lang of ['sk', 'de', 'en'] as const) {
      await chooseLanguage(page, lang);
      const x = texts[lang];
      await page.getByRole('button', { name: x.bell, exact: true }).click();
      await bell.getByText(x.opened).first().waitFor();
      await bell.getByText(x.closed).first().waitFor();
      await bell.getByText(x.kind).first().waitFor();
      const items = bell.locator('.notification-list .ant-list-item');
      await expect.poll(() => items.count()).toBeGreaterThanOrEqual(2);
      expect(await items.count()).toBeLessThanOrEqual(5);
      // The device's codes are not shown as they are.
      expect(await bell.innerText()).not.toMatch(/\b(COMMAND|OPEN|CLOSED)\b/);
      await screenshot(page, `tools-13-bell-after-reload-${lang}`);
      await page.keyboard.press('Escape');
      await bell.waitFor({ state: 'hidden' });
    }
    // Each entry links to its device: the link selects it and opens its view.
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await bell.getByRole('link', { name: 'Show device Garage breaker' }).first().click();
    await bell.waitFor({ state: 'hidden' });
    await page.waitForURL((u) => !u.pathname.startsWith('/tools/notifications'));
    expect(
      await page.evaluate(() => JSON.parse(localStorage.getItem('mp.selectedDevice') ?? 'null')),
    ).toMatchObject({
      value: '02-4D-50-00-00-02',
    });
  });
});
