/// <reference lib="dom" />
// A Belgian P1 meter's own record of the capacity tariff on the capacity-peaks screen: registered in
// the browser, a real MQTT client publishes Fluvius-style telegrams with its running demand, this
// month's peak and the closed months' peaks, and the screen shows the meter's peaks and the
// 12-month average it bills beside the portal's, in English, Slovak and German and on a 390 px phone.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { p1Telegram, type P1Capacity } from '../apps/server/src/adapters/testing';
import { startOfMonth } from '../apps/server/src/history/calendar';
import {
  chooseLanguage,
  expectNoRawKeys,
  phonePage,
  PHONE,
  signedInPage,
  treeNode,
  type AppPage,
  type Lang,
} from './app';
import { launchBrowser, screenshot } from './browser';
import { drawn, recordCanvasTexts } from './canvasTexts';
import { closeSettings, connectAsShown, keepPublishing, pickInForm, shownSettings } from './meters';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const RUN = (Date.now() % 0xffffff).toString(16).padStart(6, '0').toUpperCase();
const METER = {
  mac: `02-F1-CA-${RUN.slice(0, 2)}-${RUN.slice(2, 4)}-${RUN.slice(4, 6)}`,
  title: `Fluvius ${RUN}`,
  topic: `fluvius-${RUN.toLowerCase()}`,
};
const TZ = 'Europe/Bratislava';

/** What the screen calls things, and how it writes the meter's figures, per language. */
const TEXTS: Record<
  Lang,
  { record: string; billed: string; running: string; lastMonth: string; avg: string }
> = {
  en: {
    record: 'The meter’s own record',
    billed: '12-month average billed (meter)',
    running: 'Meter’s running average',
    lastMonth: '4.927 kW',
    avg: '3.521',
  },
  sk: {
    record: 'Vlastný záznam elektromera',
    billed: 'Účtovaný priemer 12 mesiacov (elektromer)',
    running: 'Priebežný priemer elektromera',
    lastMonth: '4,927 kW',
    avg: '3,521',
  },
  de: {
    record: 'Eigene Aufzeichnung des Zählers',
    billed: 'Abgerechnetes 12-Monats-Mittel (Zähler)',
    running: 'Laufender Mittelwert des Zählers',
    lastMonth: '4,927 kW',
    avg: '3,521',
  },
};

/**
 * The meter's capacity record now: this month's peak of 3.064 kW, and 4.927, 4.229 and 1.862 kW
 * in the three months before (their 12-month average with this month is 3.521 kW).
 */
function capacityNow(nowSec: number): P1Capacity {
  const starts = [startOfMonth(nowSec, TZ)];
  for (let k = 1; k <= 3; k++) starts.push(startOfMonth(starts[k - 1]! - 1, TZ));
  return {
    averageKw: 0.052,
    monthPeak: { atSec: Math.max(starts[0]!, Math.floor((nowSec - 1800) / 900) * 900), kw: 3.064 },
    history: [4.927, 4.229, 1.862].map((kw, i) => ({
      closedSec: starts[i]!,
      atSec: starts[i + 1]! + 9 * 86400 + 18 * 3600,
      kw,
    })),
  };
}

/** Picks the meter in the toolbar's hierarchy drawer. */
async function pickMeter(page: Page, device: string): Promise<void> {
  const node = treeNode(page, METER.title).locator('.hierarchy-node__title');
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await node.isVisible())) await page.getByRole('button', { name: device }).click();
      await node.click({ timeout: 5_000 });
      await node.waitFor({ state: 'hidden', timeout: 5_000 });
      break;
    } catch (e) {
      if (attempt === 6) throw e;
    }
  }
  await expect.poll(() => page.getByRole('button', { name: device }).innerText()).toContain(METER.title);
}

/** Waits for the charts' entry animation and saves the page from its top. */
async function settledShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(1500);
  await screenshot(page, name);
}

describe('a Belgian P1 meter’s own capacity peaks', () => {
  let browser: Browser;
  let app: AppPage;
  let stop: (() => void) | undefined;
  let end: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    await app.page.addInitScript(recordCanvasTexts);
    await chooseLanguage(app.page, 'en');
  });
  afterAll(async () => {
    stop?.();
    await end?.();
    await browser.close();
  });

  it('registers a P1 meter that publishes its capacity record over MQTT', async () => {
    const { page } = app;
    await page.goto(`${baseUrl}/applications/user-manager/devices`);
    const form = page.locator('.registration-form');
    await form.waitFor();
    await pickInForm(page, 'Family', 'P1 smart meter (DSMR)');
    await form.locator('input#mac').fill(METER.mac);
    await form.locator('input#title').fill(METER.title);
    await form.locator('.ant-form-item', { hasText: 'Topic' }).locator('input').first().fill(METER.topic);
    await form.locator('button[type=submit]').click();
    const settings = await shownSettings(page);
    await closeSettings(page, 'Done');
    const device = await connectAsShown(settings);
    end = async () => {
      await device.endAsync(true);
    };
    let kwh = 5100;
    stop = await keepPublishing(() => {
      const now = Math.floor(Date.now() / 1000);
      const telegram = p1Telegram(
        now,
        TZ,
        isSummer(now),
        { t1Kwh: (kwh += 0.001), t2Kwh: 2300, exportKwh: 3, powerKw: 0.4, voltageV: 230.4 },
        capacityNow(now),
      );
      return device.publishAsync(`p1/${METER.topic}`, telegram, { qos: 1 });
    });
  }, 60_000);

  it.each(['en', 'sk', 'de'] as const)(
    'shows the meter’s peaks and the average it bills beside the portal’s (%s)',
    async (lang) => {
      const { page } = app;
      const t = TEXTS[lang];
      if (lang === 'en') {
        await page.goto(`${baseUrl}/costs/peaks`);
        await pickMeter(page, 'Device');
      }
      await chooseLanguage(page, lang);
      const record = page.getByTestId('meter-record');
      await record.getByText(t.record).waitFor({ timeout: 20_000 });
      await expect
        .poll(() => page.getByTestId('meter-avg12').innerText(), { timeout: 20_000 })
        .toContain(t.avg);
      expect(await record.innerText()).toContain(t.billed);
      expect(await page.getByTestId('meter-average').innerText()).toContain(t.running);
      // Last month's row: the meter's peak beside the portal's (which has no data that month).
      const rows = page.getByTestId('peaks-table').locator('tbody tr.ant-table-row');
      await expect.poll(() => rows.count()).toBe(13);
      expect(await rows.nth(1).innerText()).toContain(t.lastMonth);
      if (lang === 'en') {
        // Each month is a column of its own under its name, not a bar on a time axis of days.
        const nowSec = Math.floor(Date.now() / 1000);
        const lastMonth = new Intl.DateTimeFormat('en', { month: 'short', year: '2-digit', timeZone: TZ })
          .format(new Date((startOfMonth(nowSec, TZ) - 86400) * 1000))
          .replace(/\s+/g, ' ');
        await expect
          .poll(async () => (await drawn(page)).includes(lastMonth), { timeout: 10_000 })
          .toBe(true);
        expect((await drawn(page)).filter((text) => /^\d{1,2}\.\d{1,2}\.$/.test(text))).toEqual([]);
      }
      await expectNoRawKeys(page);
      await settledShot(page, `p1-capacity-peaks-${lang}`);
      expect(app.problems).toEqual([]);
    },
    60_000,
  );

  it.each(['en', 'sk', 'de'] as const)(
    'fits a 390 px phone (%s)',
    async (lang) => {
      const { phone, errors } = await phonePage(browser, baseUrl, 'admin', adminPassword, true);
      await phone.goto(`${baseUrl}/costs/peaks`);
      await pickMeter(phone, 'Device');
      await chooseLanguage(phone, lang);
      await phone.getByTestId('meter-record').getByText(TEXTS[lang].record).waitFor({ timeout: 20_000 });
      await expect.poll(() => phone.getByTestId('meter-avg12').innerText()).toContain(TEXTS[lang].avg);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await settledShot(phone, `p1-capacity-peaks-390-${lang}`);
      expect(errors).toEqual([]);
      await phone.close();
    },
    60_000,
  );
});

/** Whether the installation's zone is on summer time at tsSec (the telegram's S/W flag). */
function isSummer(tsSec: number): boolean {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: TZ, timeZoneName: 'longOffset' }).formatToParts(
    new Date(tsSec * 1000),
  );
  return parts.find((p) => p.type === 'timeZoneName')?.value === 'GMT+02:00';
}
