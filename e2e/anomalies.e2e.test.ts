import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { enAnomalies } from '../apps/web/src/i18n/en.anomalies';
import { skAnomalies } from '../apps/web/src/i18n/sk.anomalies';
import { deAnomalies } from '../apps/web/src/i18n/de.anomalies';
import {
  chartCard,
  chooseLanguage,
  expectNoRawKeys,
  signedInPage,
  treeNode,
  type AppPage,
  type Lang,
  phonePage,
  PHONE,
} from './app';
import { launchBrowser, screenshot } from './browser';
import { clearDrawn, drawn, recordCanvasTexts } from './canvasTexts';
import { startPortal, type Portal } from './portal';

const TEXTS = { en: enAnomalies.anomalies, sk: skAnomalies.anomalies, de: deAnomalies.anomalies } as const;
/** The demo household meter (type 1), with a year of simulated history. */
const HOUSE = 'Family house';
const HOUSE_MAC = '02-4D-50-00-00-01';
const HOUR = 3600;

async function settledShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(1500);
  await screenshot(page, name);
}

/**
 * A fault in the meter's recent past, written into the portal's store: 4 kW more for three hours
 * ending three hours ago. The model then watches from twelve hours back, as if it had been
 * trained then, so its next check walks over the fault.
 */
function injectFault(portal: Portal): { faultFrom: number; faultTo: number } {
  const db = new Database(path.join(portal.dataDir, 'portal.db'));
  try {
    const device = db.prepare('SELECT id FROM devices WHERE mac = ?').get(HOUSE_MAC) as { id: number };
    const hour = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
    const faultFrom = hour - 6 * HOUR;
    const faultTo = hour - 3 * HOUR;
    db.prepare(
      'UPDATE energy_quarters SET e_i_wh = e_i_wh + 1000, e_i_l1_wh = e_i_l1_wh + 1000 WHERE device_id = ? AND ts_sec >= ? AND ts_sec < ?',
    ).run(device.id, faultFrom, faultTo);
    db.prepare('UPDATE anomaly_models SET checked_to_sec = ? WHERE device_id = ?').run(
      hour - 12 * HOUR,
      device.id,
    );
    return { faultFrom, faultTo };
  } finally {
    db.close();
  }
}

/** The stored anomalies of the household meter. */
function storedAnomalies(portal: Portal) {
  const db = new Database(path.join(portal.dataDir, 'portal.db'), { readonly: true });
  try {
    return db
      .prepare(
        'SELECT a.start_sec, a.end_sec, a.hours, a.direction FROM anomalies a JOIN devices d ON d.id = a.device_id WHERE d.mac = ?',
      )
      .all(HOUSE_MAC) as { start_sec: number; end_sec: number | null; hours: number; direction: string }[];
  } finally {
    db.close();
  }
}

describe('anomaly models', () => {
  let portal: Portal;
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    // A portal of its own: completed hours are checked every two seconds and its store is at hand.
    portal = await startPortal({ ANOMALY_CHECK_SEC: '2' });
    browser = await launchBrowser();
    app = await signedInPage(browser, portal.baseUrl, 'admin', portal.adminPassword);
    page = app.page;
    await page.addInitScript(recordCanvasTexts);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('trains a model from the menu, finds an injected fault and lists it', async () => {
    await chooseLanguage(page, 'en');
    await page.locator('.ant-menu-item', { hasText: TEXTS.en.menu }).click();
    await page.waitForURL(/\/anomalies$/);
    await page.getByText(TEXTS.en.no_model).waitFor();
    await page.getByText(TEXTS.en.no_anomalies).waitFor();
    await settledShot(page, 'anomalies-en-01-no-model');
    await page.getByTestId('anomaly-train').click();
    const model = page.getByTestId('anomaly-model');
    await model.waitFor();
    const text = await model.innerText();
    expect(text).toContain(TEXTS.en.trained_by_owner);
    // Eight weeks of hours, each with data (the simulated power cuts still have quarter rows).
    expect(text).toContain('1,344');
    await settledShot(page, 'anomalies-en-02-trained');

    const { faultFrom, faultTo } = injectFault(portal);
    await expect
      .poll(
        () =>
          storedAnomalies(portal).filter(
            (a) =>
              a.start_sec <= faultFrom &&
              a.end_sec !== null &&
              a.end_sec >= faultTo &&
              a.direction === 'HIGH',
          ).length,
        { timeout: 30_000 },
      )
      .toBe(1);
    await page.reload();
    const list = page.getByTestId('anomaly-list');
    await list.getByText(TEXTS.en.direction_HIGH).first().waitFor();
    await settledShot(page, 'anomalies-en-03-found');
    await expectNoRawKeys(page);
    // The notification history tells its start with the band and what was seen, and its end.
    await page.locator('.ant-menu-item', { hasText: 'Notification history' }).click();
    await page
      .getByText(/Unusual consumption: [\d.,]+ kWh seen, [\d.,]+ to [\d.,]+ kWh expected/)
      .first()
      .waitFor();
    await page.getByText(TEXTS.en.bell_ended).first().waitFor();
    await settledShot(page, 'anomalies-en-06-notification-history');
    expect(app.problems).toEqual([]);
  }, 120_000);

  it('draws the expected band behind the hourly energy of the household meter', async () => {
    await page.goto(`${portal.baseUrl}/visualization/energy/active/hour`);
    const device = page.getByRole('button', { name: 'Device' });
    await device.waitFor();
    if (!(await device.innerText()).includes(HOUSE)) {
      await device.click();
      const node = treeNode(page, HOUSE).locator('.hierarchy-node__title');
      await node.click();
      await node.waitFor({ state: 'hidden' });
      await device.filter({ hasText: HOUSE }).waitFor();
    }
    for (const lang of ['en', 'sk', 'de'] as const) {
      await chooseLanguage(page, lang);
      await clearDrawn(page);
      await page.reload();
      await chartCard(page).locator('canvas').first().waitFor();
      await expect
        .poll(async () => (await drawn(page)).includes(TEXTS[lang].band_legend), { timeout: 15_000 })
        .toBe(true);
      await settledShot(page, `anomalies-${lang}-04-energy-band`);
    }
    await chooseLanguage(page, 'en');
    expect(app.problems).toEqual([]);
  }, 120_000);

  it.each(['sk', 'de'] as const)('shows the model and the anomaly in %s', async (lang: Lang) => {
    await chooseLanguage(page, lang);
    await page.goto(`${portal.baseUrl}/anomalies`);
    await page.getByTestId('anomaly-model').getByText(TEXTS[lang].trained_by_owner).waitFor();
    await page.getByTestId('anomaly-list').getByText(TEXTS[lang].direction_HIGH).first().waitFor();
    await settledShot(page, `anomalies-${lang}-05-screen`);
    await expectNoRawKeys(page);
    expect(app.problems).toEqual([]);
  });

  it.each(['en', 'sk', 'de'] as const)('fits a 390 px phone in %s', async (lang: Lang) => {
    const { phone, errors } = await phonePage(browser, portal.baseUrl, 'admin', portal.adminPassword, true);
    await chooseLanguage(phone, lang);
    await phone.goto(`${portal.baseUrl}/anomalies`);
    await phone.getByTestId('anomaly-model').waitFor();
    await phone.getByTestId('anomaly-list').getByText(TEXTS[lang].direction_HIGH).first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await settledShot(phone, `anomalies-phone-${lang}`);
    expect(errors).toEqual([]);
    await phone.close();
  });
});
