import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { signedInPage, treeNode, type AppPage } from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const PRECISION = 'Test bench analyzer';
const PRECISION_MAC = '02-4D-50-00-00-03';

/** A stored session item of the app (kept as { value, expiresAtMs } under the `mp.` prefix). */
async function stored(page: Page, item: string): Promise<unknown> {
  return page.evaluate((key) => {
    const raw = localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as { value: unknown }).value;
  }, `mp.${item}`);
}

function meterRows(page: Page): Locator {
  return page.locator('.meters-table tr.ant-table-row');
}

/** Opens a precision route, first choosing the analyzer where the guard offers the tree. */
async function openWithAnalyzer(page: Page, path: string, ready: Locator): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  const pick = treeNode(page, PRECISION).locator('.hierarchy-node__title');
  await ready.or(pick).first().waitFor();
  if (await pick.isVisible()) {
    await pick.click();
    await expect.poll(() => stored(page, 'selectedDevice')).toBe(PRECISION_MAC);
    await page.goto(`${baseUrl}${path}`);
  }
  await ready.waitFor();
}

describe('interactions of the applied-precision area and the session', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'demo', 'demo');
    page = app.page;
  });
  afterAll(() => browser.close());

  it("says once that an unknown meter is not found, not 'Communication with the server failed'", async () => {
    await openWithAnalyzer(page, '/applied-precision/meters', meterRows(page).first());
    const answered = (part: string) =>
      page.waitForResponse(
        (r) => r.url().endsWith(`/applied-precision/${part}`) && r.request().method() === 'POST',
      );
    const tests = answered('test-result');
    await page.goto(`${baseUrl}/applied-precision/meter/tests/999999`);
    expect((await tests).status()).toBe(404);
    const notFound = page.getByText('This meter is not in the list of the selected device');
    await notFound.first().waitFor();
    // Every answer is in; a snackbar raised by any of them would be on screen by now.
    await page.waitForLoadState('networkidle');
    expect(await notFound.count()).toBe(1);
    expect(await page.getByText('Communication with the server failed').count()).toBe(0);
    await screenshot(page, 'interactions-01-meter-not-found');
    // The 404 answers were expected here; anything else (a page error included) was not.
    const unexpected = app.problems.splice(0).filter((p) => !/^HTTP 404 /.test(p));
    expect(unexpected).toEqual([]);
  });

  it("keeps a meter's time and place in the list when its producer is edited", async () => {
    await page.goto(`${baseUrl}/applied-precision/meters`);
    await meterRows(page).first().waitFor();
    const serialsBefore = await page
      .locator('.meters-table tr.ant-table-row [data-field="SNUM"]')
      .allInnerTexts();
    const last = meterRows(page).last();
    const timeBefore = await last.locator('td').first().innerText();
    const producerCell = last.locator('[data-field="PRODUCER"]');
    const producerBefore = (await producerCell.innerText()).trim();
    const edit = async (value: string) => {
      await producerCell.dblclick();
      const field = last.getByLabel('Producer', { exact: true });
      await field.fill(value);
      const put = page.waitForResponse(
        (r) => r.request().method() === 'PUT' && r.url().endsWith('/applied-precision/meters'),
      );
      await field.press('Enter');
      expect((await put).ok()).toBe(true);
    };
    await edit('Edited producer');
    // The list is read again after the save: same order, same time, new producer.
    await meterRows(page).last().locator('[data-field="PRODUCER"]', { hasText: 'Edited producer' }).waitFor();
    expect(await page.locator('.meters-table tr.ant-table-row [data-field="SNUM"]').allInnerTexts()).toEqual(
      serialsBefore,
    );
    expect(await meterRows(page).last().locator('td').first().innerText()).toBe(timeBefore);
    await screenshot(page, 'interactions-02-producer-edited');
    await edit(producerBefore === '-' ? '' : producerBefore);
    await meterRows(page).last().locator('[data-field="PRODUCER"]', { hasText: producerBefore }).waitFor();
    expect(app.problems.splice(0)).toEqual([]);
  });

  it('forgets the last route and the selected device at sign-out', async () => {
    expect(await stored(page, 'lastRoute')).toBe('/applied-precision/meters');
    expect(await stored(page, 'selectedDevice')).toBe(PRECISION_MAC);
    await page.locator('.ant-layout-header button').last().click();
    await page.locator('.ant-dropdown:visible').getByText('Logout', { exact: true }).click();
    await page.waitForURL('**/login');
    await page.locator('input[name="login"]').waitFor();
    expect(await stored(page, 'lastRoute')).toBeNull();
    expect(await stored(page, 'selectedDevice')).toBeNull();
    expect(app.problems.splice(0)).toEqual([]);
  });
});
