/// <reference lib="dom" />
// A P1 smart meter shows only what it reports: registered in the browser, a real MQTT client
// publishes DSMR telegrams with its issued credentials, and the meter's menus offer no frequency
// or power factor view (a typed path to one opens the meter's default view), its live voltage
// has its one phase and no zero lines, in English, Slovak and German and on a 390 px phone.
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { p1Telegram } from '../apps/server/src/adapters/testing';
import { launchBrowser, screenshot } from './browser';
import {
  chartCard,
  chartRows,
  chooseLanguage,
  expectNoRawKeys,
  signIn,
  signedInPage,
  treeNode,
  type AppPage,
  type Lang,
} from './app';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const ROUTE = '/applications/user-manager/devices';
const RUN = (Date.now() % 0xffffff).toString(16).padStart(6, '0').toUpperCase();
const P1 = {
  mac: `02-F1-5C-${RUN.slice(0, 2)}-${RUN.slice(2, 4)}-${RUN.slice(4, 6)}`,
  title: `P1 house ${RUN}`,
  topic: `p1-house-${RUN.toLowerCase()}`,
};
const TZ = 'Europe/Bratislava';
/** The menu labels of the views a P1 meter lacks and of one it has, per language. */
const LABELS: Record<Lang, { frequency: string; voltage: string; time: string; table: string }> = {
  en: { frequency: 'Frequency', voltage: 'Voltage', time: 'Time', table: 'View data table' },
  sk: { frequency: 'Frekvencia', voltage: 'Napätie', time: 'Čas', table: 'Zobraziť tabuľku dát' },
  de: { frequency: 'Frequenz', voltage: 'Spannung', time: 'Zeit', table: 'Datentabelle anzeigen' },
};

const sider = (page: Page, path: string) =>
  page.locator(`.ant-layout-sider li[data-menu-id$="-/visualization/${path}"]`);

/** Opens the sidebar's real-time group (once) and its voltage view. */
async function openRealtimeVoltage(page: Page): Promise<void> {
  const item = sider(page, 'realtime/voltage');
  if (!(await item.isVisible()))
    await page.locator('.ant-layout-sider [data-menu-id$="-realtime"]').first().click();
  await item.click();
  await page.waitForURL((u) => u.pathname === '/visualization/realtime/voltage');
}

/** The column titles of the chart's data table (opened and closed again). */
async function tableColumns(page: Page, label: string): Promise<string[]> {
  const card = chartCard(page);
  await expect.poll(async () => (await chartRows(page, label)).rows, { timeout: 20_000 }).toBeGreaterThan(0);
  await card.getByRole('button', { name: label }).click();
  const head = card.locator('.ant-table-thead th');
  await head.first().waitFor();
  const titles = (await head.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  await card.locator('button[aria-pressed="true"]').click();
  await head.first().waitFor({ state: 'detached' });
  return titles;
}

/** Picks the meter in the toolbar's hierarchy drawer (the English toolbar). */
async function pickMeter(page: Page): Promise<void> {
  const node = treeNode(page, P1.title).locator('.hierarchy-node__title');
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
  await expect.poll(() => page.getByRole('button', { name: 'Device' }).innerText()).toContain(P1.title);
}

describe('a P1 meter in the browser', () => {
  let browser: Browser;
  let app: AppPage;
  let device: MqttClient | null = null;
  let publishing: ReturnType<typeof setInterval> | undefined;
  const shown: Record<string, string> = {};

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    await chooseLanguage(app.page, 'en');
  });
  afterAll(async () => {
    clearInterval(publishing);
    await device?.endAsync(true);
    await browser.close();
  });

  it('registers a P1 meter whose telegrams arrive over MQTT', async () => {
    const { page } = app;
    await page.goto(`${baseUrl}${ROUTE}`);
    const form = page.locator('.registration-form');
    await form.waitFor();
    await form.locator('.ant-form-item', { hasText: 'Family' }).locator('.ant-select').first().click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'P1 smart meter (DSMR)' })
      .click();
    await form.locator('input#mac').fill(P1.mac);
    await form.locator('input#title').fill(P1.title);
    await form.locator('.ant-form-item', { hasText: 'Topic' }).locator('input').first().fill(P1.topic);
    await form.locator('button[type=submit]').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.locator('.registration-settings') });
    await dialog.waitFor();
    const cells = dialog.locator('[data-setting]');
    for (let i = 0; i < (await cells.count()); i += 1) {
      const cell = cells.nth(i);
      shown[(await cell.getAttribute('data-setting'))!] = ((await cell.textContent()) ?? '').trim();
    }
    await dialog.getByRole('button', { name: 'Done' }).click();
    device = await mqtt.connectAsync(`mqtt://${shown.server}:${shown.port}`, {
      username: shown.username,
      password: shown.password,
      clientId: shown.client_id,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    let kwh = 4200;
    const publish = () => {
      const now = Math.floor(Date.now() / 1000);
      const telegram = p1Telegram(now, TZ, summerIn(now), {
        t1Kwh: (kwh += 0.001),
        t2Kwh: 1800,
        exportKwh: 12,
        powerKw: 0.84,
        voltageV: 231.7,
      });
      return device!.publishAsync(`p1/${P1.topic}`, telegram, { qos: 1 });
    };
    await publish();
    publishing = setInterval(() => void publish().catch(() => undefined), 1000);
  }, 60_000);

  it.each(['en', 'sk', 'de'] as const)(
    'offers no frequency and draws one voltage phase (%s)',
    async (lang) => {
      const { page } = app;
      if (lang === 'en') {
        await page.goto(`${baseUrl}/visualization/realtime/power/active`);
        await pickMeter(page);
      }
      await chooseLanguage(page, lang);
      await openRealtimeVoltage(page);
      const l = LABELS[lang];
      expect(await sider(page, 'realtime/voltage').innerText()).toBe(l.voltage);
      // No view of a quantity the meter lacks: not in the menu, not by a typed path.
      expect(await sider(page, 'realtime/frequency').count()).toBe(0);
      expect(await sider(page, 'profile/frequency').count()).toBe(0);
      expect(await sider(page, 'realtime/power-factor').count()).toBe(0);
      expect(await sider(page, 'profile/power-factor').count()).toBe(0);
      expect(await page.locator('.ant-layout-sider').getByText(l.frequency, { exact: true }).count()).toBe(0);
      // Its one phase: no L2 or L3 line of zeros.
      expect(await tableColumns(page, l.table)).toEqual([l.time, 'L1 (V)']);
      await expectNoRawKeys(page);
      await screenshot(page, `p1-quantities-voltage-${lang}`);
    },
    60_000,
  );

  it('opens the default view for a typed frequency path', async () => {
    const { page } = app;
    await chooseLanguage(page, 'en');
    await page.goto(`${baseUrl}/visualization/realtime/frequency`);
    await page.waitForURL((u) => !u.pathname.endsWith('/frequency'));
    await page.goto(`${baseUrl}/visualization/profile/frequency`);
    await page.waitForURL((u) => !u.pathname.endsWith('/frequency'));
    expect(app.problems).toEqual([]);
  }, 30_000);

  it('fits on a 390 px phone', async () => {
    const phone = await browser.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await signIn(phone, baseUrl, 'admin', adminPassword);
    await phone.goto(`${baseUrl}/visualization/realtime/voltage`);
    await pickMeter(phone);
    await phone.goto(`${baseUrl}/visualization/realtime/frequency`);
    await phone.waitForURL((u) => !u.pathname.endsWith('/frequency'));
    await phone.goto(`${baseUrl}/visualization/realtime/voltage`);
    await chartCard(phone).locator('.chart-box canvas').first().waitFor();
    await phone.getByText('Waiting for live data…').waitFor({ state: 'hidden', timeout: 15_000 });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'p1-quantities-voltage-390');
    await phone.close();
  }, 60_000);
});

/** Whether the installation's zone is on summer time at tsSec (the telegram's S/W flag). */
function summerIn(tsSec: number): boolean {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: TZ, timeZoneName: 'longOffset' }).formatToParts(
    new Date(tsSec * 1000),
  );
  return parts.find((p) => p.type === 'timeZoneName')?.value === 'GMT+02:00';
}
