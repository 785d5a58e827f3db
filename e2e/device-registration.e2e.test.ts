/// <reference lib="dom" />
// Registering a real meter in the browser: the user manager adds a Shelly, reads the settings the
// portal shows once, a real MQTT client connects with exactly those settings and publishes Shelly
// Pro 3EM status objects, and the device's first chart draws them. Then a new password (the old
// connection ends, the old password is refused) and revocation; Tasmota and P1 settings in Slovak
// and German; the screen on a 390 px phone.
import fs from 'node:fs';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';
import {
  closeSettings as closeDialog,
  connectAsShown as connect,
  firstChartShows,
  keepPublishing,
  pickInForm as pick,
  scrollToTop as top,
  settingsDialog,
  shownSettings,
  type ShownSettings as Shown,
} from './meters';
import { chooseLanguage, expectNoRawKeys, signedInPage, type AppPage, phonePage } from './app';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const ROUTE = '/applications/user-manager/devices';
/** Real Shelly Pro 3EM payloads, kept with the server's decoder tests. */
const FIXTURES = path.join(import.meta.dirname, '../apps/server/src/adapters/fixtures/shelly');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

/** Identifiers unique to this run, so a rerun against the same portal registers new devices. */
const RUN = (Date.now() % 0xffffff).toString(16).padStart(6, '0').toUpperCase();
const mac = (kind: string) => `02-${kind}-5A-${RUN.slice(0, 2)}-${RUN.slice(2, 4)}-${RUN.slice(4, 6)}`;
const SHELLY = { mac: mac('A1'), title: `Board ${RUN}`, prefix: `shellypro3em-${RUN.toLowerCase()}` };

/** Answers yes to the confirmation asking `question`. */
async function confirm(page: Page, question: string): Promise<void> {
  await page.locator('.ant-popconfirm:visible', { hasText: question }).locator('.ant-btn-primary').click();
}

describe('registering a device in the browser', () => {
  let browser: Browser;
  let app: AppPage;
  let shown: Shown;
  let device: MqttClient | null = null;
  let stopPublishing: () => void = () => undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    await chooseLanguage(app.page, 'en');
  });
  afterAll(async () => {
    stopPublishing();
    await device?.endAsync(true);
    await browser.close();
  });

  it('registers a Shelly and shows the settings to enter on it once, with copy buttons', async () => {
    const { page } = app;
    await page.locator('.ant-menu-item', { hasText: 'Device registration' }).click();
    await page.waitForURL(`**${ROUTE}`);
    const form = page.locator('.registration-form');
    // Shelly is the family offered first; the zone is asked only of local-time families.
    await form.getByText('Shelly', { exact: true }).waitFor();
    expect(await form.getByText('Time zone of the device clock').count()).toBe(0);
    // As printed on the device, with colons and in small letters.
    await form.getByLabel('Identifier (MAC or serial)').fill(SHELLY.mac.toLowerCase().replace(/-/g, ':'));
    await form.getByLabel('Title').fill(SHELLY.title);
    await form.getByLabel('MQTT prefix').fill(SHELLY.prefix);
    await top(page);
    await screenshot(page, 'registration-01-form-en');
    await form.getByRole('button', { name: 'Register' }).click();

    shown = await shownSettings(page);
    const port = new URL(baseUrl).hostname;
    expect(shown.server).toMatch(new RegExp(`^${port.replace(/\./g, '\\.')}:\\d+$`));
    expect(shown).toMatchObject({
      client_id: `meter-${SHELLY.mac}`,
      username: SHELLY.mac,
      prefix: SHELLY.prefix,
    });
    expect(shown.password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const dialog = settingsDialog(page);
    expect(await dialog.innerText()).toContain('The password is shown only this once');
    expect(await dialog.innerText()).toContain('RPC status notifications over MQTT');
    expect(await dialog.locator('.ant-typography-copy').count()).toBe(5);
    await expectNoRawKeys(page);
    await top(page);
    await screenshot(page, 'registration-02-shelly-settings-en');
    await closeDialog(page, 'Done');
    // The list shows the device, never its password.
    const row = page.locator('.registered-devices tr.ant-table-row', { hasText: SHELLY.mac });
    await row.waitFor();
    expect(await row.innerText()).toMatch(
      new RegExp(`${SHELLY.title}\\s+${SHELLY.mac}\\s+Shelly\\s+${SHELLY.prefix}\\s+Offline`),
    );
    expect(await page.locator('body').innerText()).not.toContain(shown.password);
  });

  it('takes the Shelly connecting with the shown settings: online, and its first chart', async () => {
    const { page } = app;
    device = await connect(shown);
    await device.publishAsync(`${SHELLY.prefix}/online`, 'true', { qos: 1, retain: true });
    const publish = async () => {
      await device?.publishAsync(
        `${SHELLY.prefix}/status/emdata:0`,
        fixture('pro3em_triphase_fw1.7.5_emdata0.json'),
        { qos: 1 },
      );
      await device?.publishAsync(
        `${SHELLY.prefix}/status/em:0`,
        fixture('pro3em_triphase_fw1.7.5_em0.json'),
        { qos: 1 },
      );
    };
    stopPublishing = await keepPublishing(publish);
    const row = page.locator('.registered-devices tr.ant-table-row', { hasText: SHELLY.mac });
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain('Online');
    await top(page);
    await screenshot(page, 'registration-03-online-en');

    // The new device is in the manager's tree; its live voltage chart draws the Shelly's values.
    const card = await firstChartShows(page, baseUrl, SHELLY.title, '232.7');
    await top(page);
    await screenshot(page, 'registration-04-first-chart-en');
    await card.locator('button[aria-pressed="true"]').click();
  }, 60_000);

  it('issues a new password: the old connection ends and the old password is refused; then revokes', async () => {
    const { page } = app;
    await page.goto(`${baseUrl}${ROUTE}`);
    const row = page.locator('.registered-devices tr.ant-table-row', { hasText: SHELLY.mac });
    const closed = new Promise<void>((resolve) => device!.once('close', () => resolve()));
    await row.getByRole('button', { name: `New password ${SHELLY.title}` }).click();
    await confirm(page, 'The old one stops working at once');
    const rotated = await shownSettings(page);
    expect(rotated.password).not.toBe(shown.password);
    expect(rotated.username).toBe(SHELLY.mac);
    await closed;
    stopPublishing();
    await expect(connect(shown)).rejects.toThrow();
    const again = await connect(rotated);
    await top(page);
    await screenshot(page, 'registration-05-new-password-en');
    await closeDialog(page, 'Done');

    const ended = new Promise<void>((resolve) => again.once('close', () => resolve()));
    await row.getByRole('button', { name: `Revoke ${SHELLY.title}` }).click();
    await confirm(page, 'The device can no longer connect');
    await ended;
    await expect(connect(rotated)).rejects.toThrow();
    await expect.poll(() => row.innerText()).toContain('Revoked');
    await expectNoRawKeys(page);
    await top(page);
    await screenshot(page, 'registration-06-revoked-en');
  }, 60_000);

  it('shows a Tasmota console line in Slovak and a P1 bridge topic in German', async () => {
    const { page } = app;
    for (const [lang, family, kind, topicLabel, done, expected] of [
      ['sk', 'Tasmota', 'B2', 'Téma', 'Hotovo', `Backlog MqttHost`],
      ['de', 'P1-Smart-Meter (DSMR)', 'C3', 'Topic', 'Fertig', `p1/p1-${RUN.toLowerCase()}`],
    ] as const) {
      await chooseLanguage(page, lang);
      await page.goto(`${baseUrl}${ROUTE}`);
      const form = page.locator('.registration-form');
      await form.waitFor();
      await pick(page, lang === 'sk' ? 'Rodina' : 'Familie', family);
      const topic = lang === 'sk' ? `plug-${RUN.toLowerCase()}` : `p1-${RUN.toLowerCase()}`;
      await form.locator('input#mac').fill(mac(kind));
      await form.locator('input#title').fill(`${family} ${RUN}`);
      await form.locator('.ant-form-item', { hasText: topicLabel }).locator('input').first().fill(topic);
      await form
        .locator('.ant-form-item', { hasText: lang === 'sk' ? 'Časové pásmo' : 'Zeitzone' })
        .locator('.ant-select')
        .click();
      await page.keyboard.type('Europe/Berlin');
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Europe/Berlin' })
        .click();
      await expectNoRawKeys(page);
      await top(page);
      await screenshot(page, `registration-07-form-${lang}`);
      await form.locator('button[type=submit]').click();
      const s = await shownSettings(page);
      expect(s.username).toBe(mac(kind));
      const dialog = settingsDialog(page);
      expect(await dialog.innerText()).toContain(expected);
      if (lang === 'sk')
        expect(await dialog.locator('.registration-command').innerText()).toContain(
          `MqttUser ${mac(kind)}; MqttPassword ${s.password}; MqttClient meter-${mac(kind)}; Topic ${topic};`,
        );
      await expectNoRawKeys(page);
      await top(page);
      await screenshot(page, `registration-08-settings-${lang}`);
      await closeDialog(page, done);
      await page.locator('.registered-devices tr.ant-table-row', { hasText: mac(kind) }).waitFor();
      await top(page);
      await screenshot(page, `registration-09-list-${lang}`);
    }
    await chooseLanguage(page, 'en');
  }, 90_000);

  it('fits on a 390 px phone, the settings dialog included', async () => {
    const { phone } = await phonePage(browser, baseUrl, 'admin', adminPassword);
    await phone.goto(`${baseUrl}${ROUTE}`);
    const form = phone.locator('.registration-form');
    await form.waitFor();
    await phone.locator('.registered-devices tr.ant-table-row').first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await top(phone);
    await screenshot(phone, 'registration-10-page-390');
    await form.locator('input#mac').fill(mac('D4'));
    await form.locator('input#title').fill(`Phone ${RUN}`);
    await form.locator('input#topic').fill(`phone-${RUN.toLowerCase()}`);
    await form.locator('button[type=submit]').click();
    await shownSettings(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await settingsDialog(phone).boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    await top(phone);
    await screenshot(phone, 'registration-11-settings-390');
    await phone.close();
  }, 60_000);
});
