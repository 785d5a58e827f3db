// A meter whose clock is far ahead has its data refused; its user sees that in the device details,
// in every language and on a phone. The meter is a real MQTT client of the portal's broker.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Browser, Locator, Page } from 'playwright-core';
import { deviceTopic, encodePayload } from '@meterportal/protocol';
import { createMeterModel, createRegisters, meterProfile } from '@meterportal/simulator';
import { chooseLanguage, expectNoRawKeys, signedInPage, treeNode, type AppPage, type Lang } from './app';
import { launchBrowser, screenshot } from './browser';
import { addMeterByCommand, type MeterLogin } from './meters';
import { startPortal, type Portal } from './portal';

const MAC = '02-4D-50-00-77-01';
const TITLE = 'Clock test meter';
const AHEAD_SEC = 10 * 60;
const TEXTS: Record<Lang, { mark: string; refused: string; device: string }> = {
  en: {
    mark: 'Clock off by 10 min, ahead',
    refused: 'is refused until its clock is set right',
    device: 'Device',
  },
  sk: {
    mark: 'Hodiny idú napred o 10 min',
    refused: 'kým nebudú jeho hodiny nastavené správne',
    device: 'Zariadenie',
  },
  de: { mark: 'Uhr geht 10 min vor', refused: 'bis seine Uhr richtig gestellt ist', device: 'Gerät' },
};

/** Connects as the meter and publishes live frames stamped AHEAD_SEC ahead of now, at QoS 1. */
async function publishAhead(portal: Portal, login: MeterLogin): Promise<void> {
  const client = await mqtt.connectAsync(portal.mqttUrl, {
    clientId: `meter-${MAC}`,
    username: login.username,
    password: login.password,
    reconnectPeriod: 0,
  });
  const model = createMeterModel(meterProfile(1, MAC));
  const regs = createRegisters(1);
  const start = Math.floor(Date.now() / 1000) + AHEAD_SEC;
  for (let i = 0; i < 3; i++) {
    const s = model.sample(start + i);
    regs.integrate(s, 1);
    await client.publishAsync(
      deviceTopic(MAC, 'live'),
      encodePayload({ ts: start + i, ...s, ...regs.read() }),
      {
        qos: 1,
      },
    );
  }
  await client.endAsync();
}

/** Waits until the portal answers the meter's clock error (committed with the next ingest batch). */
async function refusalStored(portal: Portal): Promise<void> {
  const signIn = await fetch(`${portal.baseUrl}/api/read/auth/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      login: 'admin',
      password: crypto.createHash('sha256').update(portal.adminPassword).digest('hex'),
    }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { data } = (await signIn.json()) as { data: { mac: string; token: string }[] };
  const token = data.find((d) => d.mac === MAC)!.token;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await fetch(`${portal.baseUrl}/api/read/devices/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ token }),
    });
    const skewSec = ((await r.json()) as { data?: { skewSec: number | null } }).data?.skewSec;
    if (typeof skewSec === 'number' && skewSec >= AHEAD_SEC - 5) return;
    if (Date.now() > deadline) throw new Error(`the clock error was not stored: ${String(skewSec)}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

/** Opens the device details dialog from the node's action menu in the device drawer. */
async function openDetails(page: Page, lang: Lang): Promise<Locator> {
  await page.getByRole('button', { name: TEXTS[lang].device, exact: true }).click();
  const drawer = page.locator('.ant-drawer-body');
  await drawer.waitFor();
  const node = treeNode(drawer, TITLE);
  await node.hover();
  await node.locator('.hierarchy-node__button').click();
  await page.locator('.ant-dropdown:visible [data-menu-id$="-details"]').click();
  const dialog = page.locator('.ant-modal').filter({ hasText: TITLE }).first();
  await dialog.waitFor();
  return dialog;
}

/**
 * Closes the dialog with Escape, as a person would. Escape reaches the dialog only while focus is
 * inside it, which its opening animation may not have settled yet: focus it and press again.
 */
async function closeDialog(page: Page, dialog: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await dialog.isVisible()) {
          await dialog.focus().catch(() => undefined);
          await page.keyboard.press('Escape');
        }
        return dialog.isVisible();
      },
      { timeout: 15_000, interval: 500 },
    )
    .toBe(false);
}

describe('device clock', () => {
  let portal: Portal;
  let browser: Browser;
  let app: AppPage;

  beforeAll(async () => {
    portal = await startPortal({ DEMO: 'false' });
    await publishAhead(portal, addMeterByCommand(portal, MAC, TITLE));
    browser = await launchBrowser();
    app = await signedInPage(browser, portal.baseUrl, 'admin', portal.adminPassword);
    await refusalStored(portal);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it.each<[Lang]>([['en'], ['sk'], ['de']])(
    'warns in the details dialog that the clock is off and data is refused, in %s',
    async (lang) => {
      const { page } = app;
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${portal.baseUrl}/visualization/realtime/voltage`);
      await chooseLanguage(page, lang);
      const dialog = await openDetails(page, lang);
      const mark = dialog.getByTestId('device-clock-mark');
      await mark.waitFor({ timeout: 20_000 });
      expect(await mark.innerText()).toContain(TEXTS[lang].mark);
      expect(await mark.innerText()).toContain(TEXTS[lang].refused);
      await expectNoRawKeys(page);
      await screenshot(page, `device-clock-${lang}`);
      await closeDialog(page, dialog);
    },
  );

  it.each<[Lang]>([['en'], ['sk'], ['de']])(
    'shows the clock warning whole on a phone (390 px) in %s',
    async (lang) => {
      const { page } = app;
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${portal.baseUrl}/visualization/realtime/voltage`);
      await chooseLanguage(page, lang);
      const dialog = await openDetails(page, lang);
      const mark = dialog.getByTestId('device-clock-mark');
      await mark.waitFor({ timeout: 20_000 });
      expect(await mark.innerText()).toContain(TEXTS[lang].mark);
      const box = (await mark.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, `device-clock-phone-${lang}`);
      await closeDialog(page, dialog);
    },
  );

  it('made no failed API call and raised no page error', () => {
    // The new meter has no energy yet: /energy answers 610 (404) by contract.
    expect(app.problems.filter((p) => !/^HTTP 404 .*\/api\/read\/energy$/.test(p))).toEqual([]);
  });
});
