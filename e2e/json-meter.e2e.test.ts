/// <reference lib="dom" />
// A generic JSON meter registered in the browser: the user manager picks "Generic JSON", fills in
// the Eastron SDM630 preset, reads the settings shown once; a real MQTT client connects with them
// and publishes SDM630 polls as a Modbus-to-MQTT gateway does; the device's first chart draws
// them. The mapping is edited later from the registration list (Slovak), the form is shown in
// German, and everything fits a 390 px phone.
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';
import {
  connectAsShown,
  firstChartShows,
  keepPublishing,
  pickInForm as pick,
  scrollToTop as top,
  settingsDialog,
  shownSettings,
} from './meters';
import { chooseLanguage, expectNoRawKeys, signedInPage, type AppPage, phonePage } from './app';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const ROUTE = '/applications/user-manager/devices';

/** Identifiers unique to this run, so a rerun against the same portal registers new devices. */
const RUN = (Date.now() % 0xffffff).toString(16).padStart(6, '0').toUpperCase();
const mac = (kind: string) => `02-${kind}-5B-${RUN.slice(0, 2)}-${RUN.slice(2, 4)}-${RUN.slice(4, 6)}`;
const SDM = { mac: mac('E1'), title: `SDM630 ${RUN}`, topic: `sdm630-${RUN.toLowerCase()}` };

/** One SDM630 poll as a Modbus-to-MQTT gateway publishes it (energies in kWh). */
const poll = (importKwh: number) =>
  JSON.stringify({
    Timestamp: new Date().toISOString(),
    VoltageL1: 231.2,
    VoltageL2: 229.8,
    VoltageL3: 230.5,
    CurrentL1: 4.51,
    CurrentL2: 1.02,
    CurrentL3: 0.48,
    PowerL1: 1012.3,
    PowerL2: 221.7,
    PowerL3: 95.2,
    CosphiL1: 0.97,
    CosphiL2: 0.95,
    CosphiL3: 0.86,
    Frequency: 50.01,
    Import: importKwh,
    Export: 1.5,
  });

/** Fills the add form for a JSON meter with the SDM630 preset. */
async function fillJsonForm(
  page: Page,
  family: string,
  familyLabel: string,
  m: string,
  title: string,
  topic: string,
) {
  const form = page.locator('.registration-form');
  await form.waitFor();
  await pick(page, familyLabel, family);
  await form.locator('input#mac').fill(m);
  await form.locator('input#title').fill(title);
  await form.locator('input#topic').fill(topic);
  await form.locator('.json-mapping-preset').click();
  await expect.poll(() => form.locator('.json-mapping-row').count()).toBe(21);
}

describe('a generic JSON meter in the browser', () => {
  let browser: Browser;
  let app: AppPage;
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

  it('registers an SDM630 gateway with the preset, a gateway publishes, and its first chart draws', async () => {
    const { page } = app;
    await page.goto(`${baseUrl}${ROUTE}`);
    await fillJsonForm(page, 'Generic JSON', 'Family', SDM.mac, SDM.title, SDM.topic);
    const form = page.locator('.registration-form');
    const first = form.locator('.json-mapping-row').first();
    expect(await first.locator('input[aria-label="JSON path"]').inputValue()).toBe('VoltageL1');
    expect(await form.locator('input[aria-label="Path of the time (optional)"]').inputValue()).toBe(
      'Timestamp',
    );
    await expectNoRawKeys(page);
    await top(page);
    await screenshot(page, 'json-meter-01-form-en');
    await form.getByRole('button', { name: 'Register' }).click();

    const shown = await shownSettings(page);
    expect(shown).toMatchObject({
      client_id: `meter-${SDM.mac}`,
      username: SDM.mac,
      topic: `json/${SDM.topic}`,
      port: expect.stringMatching(/^\d+$/) as string,
    });
    expect(await settingsDialog(page).innerText()).toContain("In the gateway's MQTT settings:");
    await expectNoRawKeys(page);
    await top(page);
    await screenshot(page, 'json-meter-02-settings-en');
    await settingsDialog(page).getByRole('button', { name: 'Done' }).click();
    const row = page.locator('.registered-devices tr.ant-table-row', { hasText: SDM.mac });
    await row.waitFor();
    expect(await row.innerText()).toContain('Generic JSON');

    // The gateway's settings page asks for server and port apart, as the dialog shows them.
    device = await connectAsShown(shown);
    let kwh = 1200;
    const publish = () => device!.publishAsync(`json/${SDM.topic}`, poll((kwh += 0.01)), { qos: 1 });
    stopPublishing = await keepPublishing(publish);

    const card = await firstChartShows(page, baseUrl, SDM.title, '231.2');
    await top(page);
    await screenshot(page, 'json-meter-03-first-chart-en');
    await card.locator('button[aria-pressed="true"]').click();
  }, 90_000);

  it('edits the mapping from the registration list, in Slovak', async () => {
    const { page } = app;
    await chooseLanguage(page, 'sk');
    await page.goto(`${baseUrl}${ROUTE}`);
    const row = page.locator('.registered-devices tr.ant-table-row', { hasText: SDM.mac });
    await row.getByRole('button', { name: `Upraviť priradenie ${SDM.title}` }).click();
    const dialog = page.locator('.ant-modal', { hasText: `Priradenie pre ${SDM.title}` });
    await dialog.waitFor();
    expect(await dialog.locator('.json-mapping-row').count()).toBe(21);
    // A path that is no JSON path cannot be saved.
    const path = dialog.locator('.json-mapping-row').first().locator('input[aria-label="Cesta JSON"]');
    await path.fill('data..voltage');
    await dialog.getByText('niektorá cesta nie je cestou JSON').waitFor();
    expect(await dialog.getByRole('button', { name: 'Uložiť' }).isDisabled()).toBe(true);
    await path.fill('data.voltage[0]');
    await expectNoRawKeys(page);
    await top(page);
    await screenshot(page, 'json-meter-04-edit-sk');
    await dialog.getByRole('button', { name: 'Uložiť' }).click();
    await page.getByText('Priradenie uložené').waitFor();
    await dialog.waitFor({ state: 'detached' });
    // Opened again, the dialog shows the stored mapping.
    await row.getByRole('button', { name: `Upraviť priradenie ${SDM.title}` }).click();
    await expect
      .poll(() =>
        page
          .locator('.ant-modal .json-mapping-row')
          .first()
          .locator('input[aria-label="Cesta JSON"]')
          .inputValue(),
      )
      .toBe('data.voltage[0]');
    await page.locator('.ant-modal').getByRole('button', { name: 'Zrušiť' }).click();
  }, 60_000);

  it('shows the form with the preset in German', async () => {
    const { page } = app;
    await chooseLanguage(page, 'de');
    await page.goto(`${baseUrl}${ROUTE}`);
    await fillJsonForm(
      page,
      'Generisches JSON',
      'Familie',
      mac('E2'),
      `Garage ${RUN}`,
      `garage-${RUN.toLowerCase()}`,
    );
    expect(await page.locator('.registration-form').innerText()).toContain('Zuordnung der JSON-Werte');
    await expectNoRawKeys(page);
    await top(page);
    await screenshot(page, 'json-meter-05-form-de');
    await page.locator('.registration-form button[type=submit]').click();
    const shown = await shownSettings(page);
    expect(shown.topic).toBe(`json/garage-${RUN.toLowerCase()}`);
    expect(await settingsDialog(page).innerText()).toContain('In den MQTT-Einstellungen des Gateways:');
    await expectNoRawKeys(page);
    await top(page);
    await screenshot(page, 'json-meter-06-settings-de');
    await settingsDialog(page).getByRole('button', { name: 'Fertig' }).click();
    await chooseLanguage(page, 'en');
  }, 60_000);

  it('fits on a 390 px phone: the mapping editor and its edit dialog', async () => {
    const { phone } = await phonePage(browser, baseUrl, 'admin', adminPassword);
    await phone.goto(`${baseUrl}${ROUTE}`);
    await fillJsonForm(
      phone,
      'Generic JSON',
      'Family',
      mac('E3'),
      `Phone ${RUN}`,
      `phone-${RUN.toLowerCase()}`,
    );
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.locator('.registration-form .json-mapping').scrollIntoViewIfNeeded();
    await screenshot(phone, 'json-meter-07-form-390');
    const row = phone.locator('.registered-devices tr.ant-table-row', { hasText: SDM.mac });
    await row.getByRole('button', { name: `Edit mapping ${SDM.title}` }).click();
    const dialog = phone.locator('.ant-modal', { hasText: `Mapping of ${SDM.title}` });
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await top(phone);
    await screenshot(phone, 'json-meter-08-edit-390');
    await phone.close();
  }, 60_000);
});
