/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { signedInPage, treeNode, type AppPage } from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');

/** The demo fleet's precision device (apps/server/src/seed/seed.ts) and a factory meter of it. */
const PRECISION = 'Test bench analyzer';
const FACTORY_SERIAL = '40012345';
const FACTORY_PRODUCERS = ['Landis+Gyr', 'Iskra'];

/** Raw translation keys of the meter screens must never show. */
const RAW_METER_KEY = /\bmeters\.[a-z_]+(?:\.[A-Za-z0-9_]+)*\b/;

/** Picks an option of the antd select labelled `label` (its dropdown renders outside the field). */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
    .first()
    .click();
}

/** The table row of a meter, found by its serial number. */
function meterRow(page: Page, serial: string): Locator {
  return page.locator('.meters-table tr.ant-table-row').filter({
    has: page.locator('[data-field="SNUM"]', { hasText: new RegExp(`^${serial}$`) }),
  });
}

/** Serial numbers on the current page of the table. */
async function serials(page: Page): Promise<string[]> {
  return page.locator('.meters-table tr.ant-table-row [data-field="SNUM"]').allInnerTexts();
}

/** The time column runs backwards (dates shown as DD/MM/YYYY HH:mm:ss). */
async function expectNewestFirst(page: Page): Promise<void> {
  const times = await page.locator('.meters-table tr.ant-table-row td:first-child').allInnerTexts();
  const parsed = times.map((s) => {
    const [d, t] = s.split(' ');
    const [dd, mm, yyyy] = (d ?? '').split('/');
    return Date.parse(`${yyyy}-${mm}-${dd}T${t}`);
  });
  expect(parsed.every(Number.isFinite)).toBe(true);
  expect(parsed).toEqual([...parsed].sort((a, b) => b - a));
}

async function expectNoRawKeys(page: Page): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text.match(RAW_METER_KEY)?.[0] ?? null).toBeNull();
}

/** A success dialog shows, then closes by itself after 2 s. */
async function expectSelfClosingSuccess(page: Page, text: string, shot?: string): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm-success', { hasText: text });
  await dialog.waitFor({ timeout: 20_000 });
  if (shot) await screenshot(page, shot);
  const shownAt = Date.now();
  await dialog.waitFor({ state: 'detached', timeout: 6_000 });
  expect(Date.now() - shownAt).toBeGreaterThan(1_000);
}

describe('precision meters', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;
  /** Serial number of a meter with stored tests, once one has appeared. */
  let tested: string | undefined;
  const serial = `E2E${Date.now().toString(36).slice(-6).toUpperCase()}`;
  let png: Buffer;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'demo', 'demo');
    page = app.page;
    // A small real PNG: the brand corner of the first screen, once the shell has drawn it.
    await page.locator('.ant-layout-sider').getByText('Meter Portal').waitFor();
    png = await page.screenshot({ clip: { x: 12, y: 8, width: 48, height: 32 } });
  });
  afterAll(() => browser.close());

  it('lists the factory meters of the precision device, newest first, five per page', async () => {
    await page.goto(`${baseUrl}/applied-precision/meters`);
    // A fresh session may have another device selected: the guard then offers the hierarchy.
    const pick = treeNode(page, PRECISION).locator('.hierarchy-node__title');
    await page.locator('.meters-table').or(pick).first().waitFor();
    if (await pick.isVisible()) {
      await pick.click();
      await page.goto(`${baseUrl}/applied-precision/meters`);
    }
    await page.waitForURL('**/applied-precision/meters');
    await expect
      .poll(() => page.getByRole('button', { name: 'Device', exact: true }).innerText())
      .toContain(PRECISION);
    await meterRow(page, FACTORY_SERIAL).waitFor();
    for (const p of FACTORY_PRODUCERS)
      await page.locator('.meters-table').getByText(p, { exact: true }).waitFor();
    expect(await page.getByText('Communication with the server failed').count()).toBe(0);
    // The sidebar lists the screen in the applied-precision group, and the top bar names it.
    await page.locator('.ant-layout-sider li.ant-menu-item-selected', { hasText: /^Meters$/ }).waitFor();
    await expect.poll(() => page.locator('h4').first().innerText()).toBe('Meters');
    // No source or date menu in this toolbar.
    expect(await page.getByLabel('Data source').count()).toBe(0);
    expect(await page.locator('.graph-toolbar').getByText('Today').count()).toBe(0);
    await page.locator('.ant-pagination').getByText('5 / page').waitFor();
    // Empty values show as '-'.
    expect(await meterRow(page, FACTORY_SERIAL).locator('[data-field="AREA"]').innerText()).toBe('-');
    await expectNewestFirst(page);
    await expectNoRawKeys(page);
    await screenshot(page, 'meters-01-list');
  });

  it('loads the database from the device after a warning', async () => {
    const load = page.getByRole('button', { name: 'Load from device' });
    // Enabled once the live state says ONLINE over the Bluetooth-MQTT link.
    await expect.poll(() => load.isEnabled(), { timeout: 20_000 }).toBe(true);
    await load.click();
    await page.getByText('The database in the PC will be overwritten').waitFor();
    await page.waitForTimeout(400); // let the dialog finish fading in
    await screenshot(page, 'meters-02-load-confirm');
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Yes' }).click();
    await expectSelfClosingSuccess(page, 'Database loaded from the device');
    // The device holds the factory meters: the list is the same afterwards.
    await meterRow(page, FACTORY_SERIAL).waitFor();
    for (const p of FACTORY_PRODUCERS)
      await page.locator('.meters-table').getByText(p, { exact: true }).waitFor();
    await expectNewestFirst(page);
    await screenshot(page, 'meters-03-loaded');
  });

  it('adds a meter through the three validated steps, then its image', async () => {
    await page.getByRole('button', { name: 'ADD Meter' }).click();
    await page.waitForURL('**/applied-precision/meter/add');
    await page.getByRole('tab', { name: '1/3 Meter' }).waitFor();
    expect(await page.getByRole('link', { name: /Back/ }).getAttribute('href')).toBe(
      '/applied-precision/meters',
    );
    // Defaults of seed 001 section 9.
    expect(await page.getByLabel('Constant', { exact: true }).inputValue()).toBe('1000');
    expect(await page.getByLabel('Type', { exact: true }).inputValue()).toBe('1');

    // Step 1 refuses to move on without a serial number and with a year past 2199.
    await page.getByLabel('Year', { exact: true }).fill('2200');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Required, 1 to 20 characters').waitFor();
    await page.getByText('Digits only, at most 4, between 0 and 2199').waitFor();
    expect(await page.getByRole('tab', { name: '1/3 Meter' }).getAttribute('aria-selected')).toBe('true');
    await expectNoRawKeys(page);
    await screenshot(page, 'meters-04-wizard-step1-errors');

    await page.getByLabel('Serial number', { exact: true }).fill(serial);
    await page.getByLabel('Year', { exact: true }).fill('2024');
    await page.getByLabel('Producer', { exact: true }).fill('Elster');
    await page.getByLabel('Class', { exact: true }).fill('0.5');
    await choose(page, 'Connection', '3P3W');
    await choose(page, 'Energy', 'Reactive');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 2: a ratio recomputes the primary and the protocol text.
    await page.getByRole('tab', { name: '2/3 Transformers', selected: true }).waitFor();
    await page.getByLabel('CT secondary nominal (A)', { exact: true }).fill('5');
    await page.getByLabel('CT ratio', { exact: true }).fill('200');
    await expect.poll(() => page.getByLabel('Current side', { exact: true }).inputValue()).toBe('3x1000/5 A');
    expect(await page.getByLabel('CT primary (A)', { exact: true }).inputValue()).toBe('1000');
    await page.getByLabel('VT secondary nominal (V)', { exact: true }).fill('100');
    await page.getByLabel('VT primary (V)', { exact: true }).fill('22000');
    await expect.poll(() => page.getByLabel('VT ratio', { exact: true }).inputValue()).toBe('220');
    expect(await page.getByLabel('Voltage side', { exact: true }).inputValue()).toBe('3x22000/100 V');
    await page.getByLabel('I max (A)', { exact: true }).fill('-5');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('A non-negative decimal number').waitFor();
    await screenshot(page, 'meters-05-wizard-step2');
    await page.getByLabel('I max (A)', { exact: true }).fill('60');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 3: texts up to 40 characters; its validation saves the meter.
    await page.getByRole('tab', { name: '3/3 Customer', selected: true }).waitFor();
    expect(await page.getByLabel('Frequency (Hz)', { exact: true }).inputValue()).toBe('50');
    await page.getByLabel('Customer', { exact: true }).fill('x'.repeat(41));
    await page.getByRole('button', { name: 'Save meter' }).click();
    await page.getByText('At most 40 characters').waitFor();
    await page.getByLabel('Customer', { exact: true }).fill('E2E Bakery');
    await page.getByLabel('Location', { exact: true }).fill('Test cellar');
    await screenshot(page, 'meters-06-wizard-step3');
    await page.getByRole('button', { name: 'Save meter' }).click();
    await expectSelfClosingSuccess(page, 'Meter successfully saved');

    // Images: a text file and an oversized picture are refused with the seed's toasts.
    await page.getByRole('tab', { name: 'Images', selected: true }).waitFor();
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    await page.getByText('file format not supported').first().waitFor();
    await input.setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(1_000_001, 1),
    });
    await page.getByText('file too large').first().waitFor();
    await input.setInputFiles({ name: 'meter.png', mimeType: 'image/png', buffer: png });
    await page.locator('.ant-upload-list').getByText('meter.png').waitFor();
    expect(await page.locator('.ant-upload-list').getByText('huge.png').count()).toBe(0);
    await screenshot(page, 'meters-07-wizard-images');
    await page.getByRole('button', { name: 'Finish' }).click();
    await expectSelfClosingSuccess(page, 'Images successfully uploaded');

    // Done: every step is reset and the wizard is back on its first tab.
    await page.getByRole('tab', { name: '1/3 Meter', selected: true }).waitFor();
    expect(await page.getByLabel('Serial number', { exact: true }).inputValue()).toBe('');
    await screenshot(page, 'meters-08-wizard-reset');
  });

  it('finds the new meter by a fuzzy search over several columns', async () => {
    await page.getByRole('link', { name: /Back/ }).click();
    await page.waitForURL('**/applied-precision/meters');
    const search = page.getByLabel('Search', { exact: true });
    await search.fill('E2E Bakrey');
    await expect.poll(() => serials(page)).toEqual([serial]);
    await search.fill('Iskra');
    await expect.poll(() => serials(page)).toEqual(['71100042']);
    await screenshot(page, 'meters-09-search');
    await search.fill(serial);
    await expect.poll(() => serials(page)).toEqual([serial]);
    const row = meterRow(page, serial);
    expect(await row.locator('[data-field="CONTYPE"]').innerText()).toBe('3P3W');
    expect(await row.locator('[data-field="MENERGYTYPE"]').innerText()).toBe('Reactive');
    expect(await row.locator('[data-field="ISIDE"]').innerText()).toBe('3x1000/5 A');
    expect(await row.locator('[data-field="AREA"]').innerText()).toBe('-');
  });

  it('edits cells in place: Enter saves the whole meter, a select saves its choice', async () => {
    const row = meterRow(page, serial);
    // The time cell does not turn into a field.
    await row.locator('td').first().dblclick();
    expect(await row.locator('input').count()).toBe(0);

    await row.locator('[data-field="LOCATION"]').dblclick();
    const field = row.getByLabel('Location', { exact: true });
    await field.fill('Switch room 4');
    await screenshot(page, 'meters-10-cell-edit');
    const put = page.waitForRequest(
      (r) => r.method() === 'PUT' && r.url().endsWith('/applied-precision/meters'),
    );
    await field.press('Enter');
    const body = (await put).postDataJSON() as { ID_meter: number; meter: Record<string, unknown> };
    // The whole meter goes, not only the edited field.
    expect(body.meter).toMatchObject({
      SNUM: serial,
      LOCATION: 'Switch room 4',
      CUSTOMER: 'E2E Bakery',
      CONTYPE: 1,
      ISIDE: '3x1000/5 A',
    });
    await page.getByText('Database successfully updated').first().waitFor();
    await row.locator('[data-field="LOCATION"]', { hasText: 'Switch room 4' }).waitFor();

    // A dash is sent back as empty.
    await row.locator('[data-field="CUSTOMER"]').dblclick();
    await row.getByLabel('Customer', { exact: true }).fill('-');
    const put2 = page.waitForRequest(
      (r) => r.method() === 'PUT' && r.url().endsWith('/applied-precision/meters'),
    );
    await row.getByLabel('Customer', { exact: true }).press('Enter');
    expect(((await put2).postDataJSON() as { meter: { CUSTOMER: string } }).meter.CUSTOMER).toBe('');
    await row.locator('[data-field="CUSTOMER"]', { hasText: /^-$/ }).waitFor();

    // Enumerations are edited with a select.
    await row.locator('[data-field="CONTYPE"]').dblclick();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '1P2W' }).click();
    await row.locator('[data-field="CONTYPE"]', { hasText: '1P2W' }).waitFor();
    await screenshot(page, 'meters-11-cell-saved');
  });

  it('sends the database to the device and loads it back, each after a warning', async () => {
    await page.getByLabel('Search', { exact: true }).fill('');
    const send = page.getByRole('button', { name: 'Send to device' });
    await expect.poll(() => send.isEnabled(), { timeout: 15_000 }).toBe(true);
    await send.click();
    await page.getByText('The database in the device will be overwritten').waitFor();
    await page.waitForTimeout(400); // let the dialog finish fading in
    await screenshot(page, 'meters-12-send-confirm');
    // The real answer is held back a moment in the browser, so that the progress can be seen.
    await page.route('**/api/write/applied-precision/upload-database', async (route) => {
      const response = await route.fetch();
      await new Promise((r) => setTimeout(r, 1_500));
      await route.fulfill({ response });
    });
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Yes' }).click();
    await page.getByRole('status').getByText('The device is working, please wait…').waitFor();
    expect(await page.getByRole('button', { name: 'Load from device' }).isDisabled()).toBe(true);
    await screenshot(page, 'meters-13-device-working');
    await expectSelfClosingSuccess(page, 'Database sent to the device', 'meters-14-sent');
    await page.unroute('**/api/write/applied-precision/upload-database');

    await page.getByRole('button', { name: 'Load from device' }).click();
    await page.getByText('The database in the PC will be overwritten').waitFor();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Yes' }).click();
    await expectSelfClosingSuccess(page, 'Database loaded from the device');
    // The device had just been sent our meter, so loading keeps it with its edits.
    await page.getByLabel('Search', { exact: true }).fill(serial);
    await expect.poll(() => serials(page)).toEqual([serial]);
    await meterRow(page, serial).locator('[data-field="LOCATION"]', { hasText: 'Switch room 4' }).waitFor();
  });

  it('opens the stored tests of a meter with derived values', { timeout: 180_000 }, async () => {
    // The portal's simulated analyzer tests the next meter of its database every minute.
    await page.getByLabel('Search', { exact: true }).fill('');
    const deadline = Date.now() + 150_000;
    while (!tested && Date.now() < deadline) {
      const counts = await page.locator('.meters-table tr.ant-table-row').evaluateAll((rows) =>
        rows.map((r) => ({
          serial: r.querySelector('[data-field="SNUM"]')?.textContent ?? '',
          points: Number(r.querySelector('td:nth-last-child(2)')?.textContent ?? '0'),
        })),
      );
      tested = counts.find((c) => c.points > 0)?.serial;
      if (!tested) {
        await page.waitForTimeout(10_000);
        await page.reload();
        await page.locator('.meters-table').waitFor();
        await page.waitForTimeout(1_000);
      }
    }
    if (!tested) throw new Error('no stored load point appeared within 2.5 minutes');
    await page.getByLabel('Search', { exact: true }).fill(tested);
    await expect.poll(() => serials(page)).toEqual([tested]);
    await meterRow(page, tested)
      .getByRole('button', { name: `Load points ${tested}` })
      .click();
    await page.waitForURL(/\/applied-precision\/meter\/tests\/\d+$/);
    await page.getByText(`Tests of meter ${tested}`).waitFor();
    for (const title of [
      'Stored tests',
      'Meter error',
      'Basic values',
      'Power',
      'Energy',
      'Maximum Demand',
    ]) {
      await page
        .locator('.ant-card-head-title', { hasText: new RegExp(`^${title}$`) })
        .first()
        .waitFor();
    }
    // The error shows two decimals and a percent sign, in the list and on its card.
    const items = page.locator('.meter-test-item');
    expect(await items.count()).toBeGreaterThan(0);
    expect(await items.first().innerText()).toMatch(/-?\d+\.\d{2} %$/);
    expect(await page.locator('.meter-error-value').innerText()).toMatch(/^-?\d+\.\d{2} %$/);
    expect(await page.getByText(/^L1-L[23]-L[23]$/).count()).toBe(1);
    // Z = U / I on L1, from the two numbers shown above it.
    const basic = page.locator('.ant-card', {
      has: page.locator('.ant-card-head-title', { hasText: /^Basic values$/ }),
    });
    const l1 = async (label: string) =>
      Number(
        await basic
          .locator('tr', { has: page.getByRole('cell', { name: label, exact: true }) })
          .locator('td')
          .nth(1)
          .innerText(),
      );
    const u = await l1('U (V)');
    const i = await l1('I (A)');
    expect(u).toBeGreaterThan(0);
    expect(i).toBeGreaterThan(0);
    expect(await l1('Z (Ω)')).toBeCloseTo(u / i, 1);
    await expectNoRawKeys(page);
    await screenshot(page, 'meters-15-tests');
  });

  it('shows the new meter with its image', async () => {
    await page.getByRole('link', { name: /Back to meters/ }).click();
    await page.getByLabel('Search', { exact: true }).fill(serial);
    await expect.poll(() => serials(page)).toEqual([serial]);
    await meterRow(page, serial)
      .getByRole('button', { name: `Load points ${serial}` })
      .click();
    await page.getByText(`Tests of meter ${serial}`).waitFor();
    const img = page.locator('img[alt="meter.png"]');
    await img.waitFor();
    // The bytes came back from the server: the picture has the size it was uploaded with.
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(48);
    await screenshot(page, 'meters-16-tests-with-image');
  });

  it("shows 'No stored load points' for a meter without tests", async () => {
    await page.getByRole('link', { name: /Back to meters/ }).click();
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.locator('.meters-table tr.ant-table-row').first().waitFor();
    const untested = await page
      .locator('.meters-table tr.ant-table-row')
      .evaluateAll(
        (rows) =>
          rows
            .filter((r) => r.querySelector('td:nth-last-child(2)')?.textContent === '0')
            .map((r) => r.querySelector('[data-field="SNUM"]')?.textContent ?? '')[0],
      );
    if (!untested) throw new Error('every meter has stored tests');
    await meterRow(page, untested)
      .getByRole('button', { name: `Load points ${untested}` })
      .click();
    await page.getByText('No stored load points').waitFor();
    expect(await page.locator('.meter-error-value').count()).toBe(0);
    await screenshot(page, 'meters-17-tests-empty');
  });

  it('looks right in the dark theme', async () => {
    await page.getByRole('button', { name: 'demo' }).first().click();
    await page.getByText('Dark theme').click();
    await page.goto(`${baseUrl}/applied-precision/meters`);
    await meterRow(page, FACTORY_SERIAL).waitFor();
    const bg = await page
      .locator('.meters-table .ant-table')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r = 255, g = 255, b = 255] = (bg.match(/\d+/g) ?? []).map(Number);
    expect(r + g + b).toBeLessThan(200);
    await screenshot(page, 'meters-18-list-dark');
    await page.getByRole('button', { name: 'ADD Meter' }).click();
    await page.getByRole('tab', { name: '1/3 Meter' }).waitFor();
    await screenshot(page, 'meters-19-wizard-dark');
    await page.goBack();
    if (!tested) throw new Error('no meter with stored tests');
    await page.getByLabel('Search', { exact: true }).fill(tested);
    await meterRow(page, tested)
      .getByRole('button', { name: `Load points ${tested}` })
      .click();
    await page.locator('.meter-error-value').waitFor();
    await screenshot(page, 'meters-20-tests-dark');
    await page.getByRole('button', { name: 'demo' }).first().click();
    await page.getByText('Light theme').click();
  });

  it('deletes the new meter after asking', async () => {
    await page.goto(`${baseUrl}/applied-precision/meters`);
    await page.getByLabel('Search', { exact: true }).fill(serial);
    await expect.poll(() => serials(page)).toEqual([serial]);
    await meterRow(page, serial)
      .getByRole('button', { name: `Delete meter ${serial}` })
      .click();
    await page.getByText('Are you sure?').waitFor();
    await page.waitForTimeout(400); // let the pop-up finish fading in
    await screenshot(page, 'meters-21-delete-confirm');
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => serials(page)).toEqual([]);
    await page.getByText('No meters stored').waitFor();
    // 610 answers 404 by contract: an empty list or no tests is not a problem.
    expect(
      app.problems.filter(
        (p) => !/HTTP 404 .*\/applied-precision\/(meters|test-result|images\/list)$/.test(p),
      ),
    ).toEqual([]);
  });
});
