/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startDevice, type SimDevice } from '@meterportal/simulator';
import { launchBrowser, screenshot } from './browser';
import { addMeterByCommand } from './meters';
import {
  chooseLanguage,
  clickUntilShown,
  expectNoRawKeys,
  signedInPage,
  type AppPage,
  type Lang,
  phonePage,
} from './app';
import { startPortal, type Portal } from './portal';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

/** The demo smart meter with a LoRa radio and the workshop meter without one (seed.ts); admin owns both. */
const LORA_METER = 'Family house';
const PLAIN_METER = 'Workshop main';
const APP_KEY = '2B7E151628AED2A6ABF7158809CF4F3C';
const NET_KEY = '000102030405060708090A0B0C0D0E0F';

/** What each language calls the things the test looks for. */
const TEXTS: Record<Lang, { menu: string; lora: string; wifi: string; saved: string; set: string }> = {
  en: {
    menu: 'Settings',
    lora: 'LoRa settings',
    wifi: 'WiFi settings',
    saved: 'Settings successfully saved',
    set: 'Set (hidden)',
  },
  sk: {
    menu: 'Nastavenia',
    lora: 'Nastavenia LoRa',
    wifi: 'Nastavenia WiFi',
    saved: 'Nastavenia boli úspešne uložené',
    set: 'Nastavený (skrytý)',
  },
  de: {
    menu: 'Einstellungen',
    lora: 'LoRa-Einstellungen',
    wifi: 'WLAN-Einstellungen',
    saved: 'Einstellungen erfolgreich gespeichert',
    set: 'Gesetzt (verborgen)',
  },
};

/** Chooses a device in the screen's device list. */
async function chooseDevice(page: Page, title: string): Promise<void> {
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: title });
  // A list opened while the page still settles (just after a language switch) may close at once:
  // open it again, as a person would.
  await clickUntilShown((o) => page.locator('.settings-page .ant-select').first().click(o), option);
  await option.click();
  await page.locator('.settings-page .ant-select', { hasText: title }).first().waitFor();
  // A list that re-rendered while closing (a language switch just before) stays open: close it as a person would.
  if (await page.locator('.ant-select-dropdown:visible').count()) await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count(), { timeout: 5_000 }).toBe(0);
}

/** Waits for the success toast, then closes every toast so the next one is read alone. */
async function expectSaved(page: Page, text: string, shotName?: string): Promise<void> {
  await page.locator('.ant-notification-notice', { hasText: text }).first().waitFor();
  if (shotName) await screenshot(page, shotName);
  for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click();
  await expect.poll(() => page.locator('.ant-notification-notice').count()).toBe(0);
}

/** Saves the page from its top once no reading is under way. */
async function shot(page: Page, name: string): Promise<void> {
  await expect.poll(() => page.locator('.settings-page .ant-btn-loading').count()).toBe(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** The card of one section. */
const card = (page: Page, section: 'lora' | 'wifi' | 'measurement') => page.locator(`.settings-${section}`);

describe('device settings: LoRa, WiFi and measurement', () => {
  let browser: Browser;
  let app: AppPage;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    await chooseLanguage(app.page, 'en');
  });
  afterAll(async () => {
    await browser.close();
  });

  it('reads the LoRa settings from the device and saves the keys write-only, once the device confirmed', async () => {
    const { page } = app;
    await page.locator('.ant-menu-item', { hasText: 'Settings' }).click();
    await page.waitForURL('**/devices/settings');
    await chooseDevice(page, LORA_METER);
    const lora = card(page, 'lora');
    await lora.waitFor();
    // Read from the device: its factory intervals.
    await expect.poll(() => lora.getByLabel('Echo interval').inputValue()).toBe('60');
    expect(await lora.getByLabel('Alive interval').inputValue()).toBe('900');
    expect(await lora.locator('.settings-secret-state').allInnerTexts()).toEqual(['Not set', 'Not set']);
    await shot(page, 'settings-01-read-en');

    // A wrong key is refused in the form with a clear message, and nothing is saved.
    await lora.getByLabel('Application key').fill('ABC');
    await lora.getByRole('button', { name: 'Save' }).click();
    await lora.getByText('Must be 32 hexadecimal digits (0-9, A-F)').waitFor();
    await lora.getByLabel('Echo interval').fill('5');
    await lora.getByText('Must be from 10 to 86400').waitFor();
    await shot(page, 'settings-02-invalid-en');
    expect(await page.locator('.ant-notification-notice').count()).toBe(0);

    await lora.getByLabel('Application key').fill(APP_KEY.toLowerCase());
    await lora.getByLabel('Network key').fill(NET_KEY);
    await lora.getByLabel('Echo interval').fill('30');
    await lora.getByRole('button', { name: 'Save' }).click();
    await expectSaved(page, 'Settings successfully saved', 'settings-03a-lora-saving-en');
    // The keys are masked and never come back: the fields are empty, the tags say they are set.
    expect(await lora.locator('.settings-secret-state').allInnerTexts()).toEqual([
      'Set (hidden)',
      'Set (hidden)',
    ]);
    expect(await lora.getByLabel('Application key').inputValue()).toBe('');
    expect(await lora.getByLabel('Application key').getAttribute('type')).toBe('password');
    expect((await page.content()).toUpperCase()).not.toContain(APP_KEY);

    // Read again from the device: it kept what it confirmed.
    await page.getByRole('button', { name: 'Read from device' }).click();
    await expect.poll(() => lora.getByLabel('Echo interval').inputValue()).toBe('30');
    expect(await lora.locator('.settings-secret-state').allInnerTexts()).toEqual([
      'Set (hidden)',
      'Set (hidden)',
    ]);
    await expectNoRawKeys(page);
    await shot(page, 'settings-03-lora-saved-en');
  }, 60_000);

  it('saves a static IP address and the measurement settings, and shows no LoRa for a device without it', async () => {
    const { page } = app;
    await chooseDevice(page, PLAIN_METER);
    const wifi = card(page, 'wifi');
    await wifi.waitFor();
    expect(await card(page, 'lora').count()).toBe(0);
    await wifi.getByText('Static address').click();
    await wifi.getByLabel('IP address').fill('10.20.0.17');
    await wifi.getByLabel('Subnet mask').fill('255.255.255.0');
    await wifi.getByLabel('Gateway').fill('10.20.1.1');
    await wifi.getByLabel('DNS server').fill('1.1.1.1');
    await wifi.getByRole('button', { name: 'Save' }).click();
    await wifi.getByText('The gateway must lie in the subnet of the IP address').waitFor();
    await wifi.getByLabel('Gateway').fill('10.20.0.1');
    await wifi.getByRole('button', { name: 'Save' }).click();
    await expectSaved(page, 'Settings successfully saved');

    const measurement = card(page, 'measurement');
    await measurement.getByLabel('Transformation ratio').fill('40');
    await measurement.getByLabel('Active power threshold').fill('5.5');
    await measurement.getByLabel('Energy offset').fill('1250000');
    await measurement.getByRole('button', { name: 'Save' }).click();
    await expectSaved(page, 'Settings successfully saved');

    await page.getByRole('button', { name: 'Read from device' }).click();
    await expect.poll(() => wifi.getByLabel('Gateway').inputValue()).toBe('10.20.0.1');
    expect(await measurement.getByLabel('Transformation ratio').inputValue()).toBe('40');
    expect(await measurement.getByLabel('Energy offset').inputValue()).toBe('1250000');
    await expectNoRawKeys(page);
    await shot(page, 'settings-04-wifi-measurement-en');
  }, 60_000);

  it('reads and saves in Slovak and German', async () => {
    const { page } = app;
    for (const lang of ['sk', 'de'] as const) {
      const text = TEXTS[lang];
      await chooseLanguage(page, lang);
      await page.locator('.ant-menu-item', { hasText: text.menu }).click();
      await chooseDevice(page, LORA_METER);
      const lora = card(page, 'lora');
      await lora.locator('.ant-card-head', { hasText: text.lora }).waitFor();
      await card(page, 'wifi').locator('.ant-card-head', { hasText: text.wifi }).waitFor();
      expect(await lora.locator('.settings-secret-state').first().innerText()).toBe(text.set);
      await lora.getByRole('button').last().click();
      await expectSaved(page, text.saved);
      await expectNoRawKeys(page);
      await shot(page, `settings-05-${lang}`);
    }
    await chooseLanguage(page, 'en');
  }, 60_000);

  it('fits a 390 px phone', async () => {
    const { phone } = await phonePage(browser, baseUrl, 'admin', adminPassword);
    await phone.goto(`${baseUrl}/devices/settings`);
    await chooseDevice(phone, LORA_METER);
    await card(phone, 'lora').waitFor();
    await card(phone, 'measurement').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, 'settings-06-390');
    await phone.close();
  }, 60_000);
});

describe('device settings of a device that is offline or does not answer', () => {
  const OFFLINE = 'Cellar meter';
  const HUNG = 'Attic meter';
  let portal: Portal;
  let browser: Browser;
  let app: AppPage;
  let hung: SimDevice;

  beforeAll(async () => {
    portal = await startPortal({ DEMO: 'false' });
    addMeterByCommand(portal, '02-4D-50-00-78-01', OFFLINE, ['--lora']);
    const login = addMeterByCommand(portal, '02-4D-50-00-78-02', HUNG, ['--lora']);
    // A real simulated meter that stays connected and online but answers no command.
    hung = startDevice({
      brokerUrl: portal.mqttUrl,
      mac: '02-4D-50-00-78-02',
      type: 1,
      ...login,
      outages: false,
    });
    await hung.connected;
    browser = await launchBrowser();
    app = await signedInPage(browser, portal.baseUrl, 'admin', portal.adminPassword);
    await chooseLanguage(app.page, 'en');
  }, 180_000);
  afterAll(async () => {
    await hung?.stop();
    await browser?.close();
    await portal?.stop();
  });

  it('says the device is not responding or offline, for an offline device at once and for a silent one after the timeout', async () => {
    const { page } = app;
    await page.goto(`${portal.baseUrl}/devices/settings`);
    await chooseDevice(page, OFFLINE);
    const alert = page.locator('.settings-error');
    await alert.waitFor({ timeout: 5000 });
    expect(await alert.innerText()).toContain('Device not responding or is offline');
    expect(await card(page, 'lora').count()).toBe(0);
    await shot(page, 'settings-07-offline-en');

    hung.hang(true);
    await chooseDevice(page, HUNG);
    const started = Date.now();
    await alert.waitFor({ timeout: 20_000 });
    expect(Date.now() - started).toBeGreaterThan(8000);
    expect(await alert.innerText()).toContain('Device not responding or is offline');

    // Once it answers again the settings are read; a save it does not confirm is not reported saved.
    hung.hang(false);
    await page.getByRole('button', { name: 'Read from device' }).click();
    const lora = card(page, 'lora');
    await lora.waitFor({ timeout: 15_000 });
    hung.hang(true);
    await lora.getByLabel('Echo interval').fill('120');
    await lora.getByRole('button', { name: 'Save' }).click();
    // Saving until the device's silence runs out, then the seed's text instead of the success.
    await lora.locator('.ant-btn-loading').waitFor();
    await expect.poll(() => lora.locator('.ant-btn-loading').count(), { timeout: 20_000 }).toBe(0);
    await page.locator('.ant-message-notice', { hasText: 'Device not responding or is offline' }).waitFor();
    expect(
      await page.locator('.ant-notification-notice', { hasText: 'Settings successfully saved' }).count(),
    ).toBe(0);
    await expectNoRawKeys(page);
    await shot(page, 'settings-08-not-confirmed-en');
    hung.hang(false);
  }, 90_000);
});
