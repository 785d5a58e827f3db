/// <reference lib="dom" />
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  chooseLanguage,
  clickUntilShown,
  expectNoRawKeys,
  signedInPage,
  treeNode,
  type AppPage,
  phonePage,
} from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const BREAKER = 'Garage breaker';

const TITLES = { en: 'Notification history', sk: 'História notifikácií', de: 'Benachrichtigungsverlauf' };
const ALL = { en: 'All notifications', sk: 'Všetky notifikácie', de: 'Alle Benachrichtigungen' };

/** Opens and closes the breaker's relay from its device details: two DISCONNECTOR events. */
async function switchRelay(page: Page) {
  await page.goto(`${baseUrl}/tools/notifications`);
  await page.getByRole('button', { name: 'Device', exact: true }).click();
  const drawer = page.locator('.ant-drawer:visible');
  const node = treeNode(drawer, BREAKER);
  await node.hover();
  await node.getByRole('button', { name: 'Actions' }).click();
  await page.locator('.ant-dropdown:visible').getByText('Device details', { exact: true }).click();
  const details = page.getByRole('dialog', { name: new RegExp(BREAKER) });
  // Opening cuts the load, so it asks first; closing does not.
  const yes = page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Yes' });
  await clickUntilShown((o) => details.getByRole('button', { name: 'Open relay' }).click(o), yes);
  await yes.click();
  await details.getByText('The device reports the relay open').waitFor();
  await details.getByRole('button', { name: 'Close relay' }).click();
  await details.getByText('The device reports the relay closed').waitFor();
  await details.locator('.ant-modal-footer').getByRole('button', { name: 'Close', exact: true }).click();
  await details.waitFor({ state: 'hidden' });
  await drawer.locator('.ant-drawer-close').click();
}

/** Rows of the history list. */
const rows = (page: Page) => page.locator('.notification-history .ant-list-item');

describe('notification history', () => {
  let browser: Browser;
  let admin: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    page = admin.page;
  });
  afterAll(() => browser.close());
  afterEach(() => {
    expect(admin.problems.splice(0)).toEqual([]);
  });

  it('shows the latest events from the server in the bell after a reload, with a link to the history', async () => {
    await switchRelay(page);
    await page.reload();
    await page.getByRole('button', { name: 'Notifications' }).click();
    const bell = page.locator('.ant-popover:visible');
    await bell.getByText('Relay closed').first().waitFor();
    await bell.getByText('Relay opened').first().waitFor();
    await screenshot(page, 'history-01-bell-after-reload');
    await bell.getByRole('link', { name: 'All notifications' }).click();
    await page.waitForURL('**/tools/notification-history');
    await page.getByRole('heading', { name: 'Notification history' }).first().waitFor();
    await rows(page).filter({ hasText: 'Relay closed' }).first().waitFor();
    await expectNoRawKeys(page);
    await screenshot(page, 'history-02-list-en');
  });

  it('filters by type and read state and marks a page read', async () => {
    await page.getByLabel('Type', { exact: true }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Disconnector' })
      .click();
    await page.keyboard.press('Escape');
    await expect
      .poll(async () => (await rows(page).locator('.ant-tag').first().allInnerTexts()).join())
      .toBe('Disconnector');
    const types = await rows(page).locator('.ant-tag:not(.ant-tag-blue)').allInnerTexts();
    expect(new Set(types)).toEqual(new Set(['Disconnector']));
    await page.getByLabel('State', { exact: true }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^Unread$/ })
      .click();
    await rows(page).first().waitFor();
    await screenshot(page, 'history-03-filtered');
    await page.getByRole('button', { name: 'Mark page as read' }).click();
    await page.getByText('No notifications match the filters').waitFor();
    await page.getByLabel('State', { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^Read$/ }).click();
    await rows(page).filter({ hasText: 'Relay opened' }).first().waitFor();
    expect(await rows(page).getByText('Unread', { exact: true }).count()).toBe(0);
  });

  it("opens the device's chart on the day of the event", async () => {
    await rows(page)
      .filter({ hasText: 'Relay opened' })
      .first()
      .getByRole('button', { name: `Show the chart of ${BREAKER} at that time` })
      .click();
    await page.waitForURL('**/visualization/profile/current');
    await page.getByRole('button', { name: 'Device', exact: true }).getByText(BREAKER).waitFor();
    await screenshot(page, 'history-04-chart');
  });

  it('speaks Slovak and German', async () => {
    for (const lang of ['sk', 'de'] as const) {
      await page.goto(`${baseUrl}/tools/notification-history`);
      await chooseLanguage(page, lang);
      await page.getByRole('heading', { name: TITLES[lang] }).first().waitFor();
      await rows(page).first().waitFor();
      await expectNoRawKeys(page);
      await page.locator('.ant-layout-header').getByRole('button').nth(-2).click();
      await page.locator('.ant-popover:visible').getByRole('link', { name: ALL[lang] }).waitFor();
      await screenshot(page, `history-05-bell-${lang}`);
      await page.keyboard.press('Escape');
      await screenshot(page, `history-06-list-${lang}`);
    }
    await chooseLanguage(page, 'en');
  });

  it('fits a 390 px phone', async () => {
    const { phone } = await phonePage(browser, baseUrl, 'admin', adminPassword);
    await phone.goto(`${baseUrl}/tools/notification-history`);
    await rows(phone).first().waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, 'history-07-phone');
    await phone.getByRole('button', { name: 'Notifications' }).click();
    await phone.locator('.ant-popover:visible').getByRole('link', { name: 'All notifications' }).waitFor();
    await screenshot(phone, 'history-08-phone-bell');
    await phone.close();
  });

  it('pairs an e-mail address as a destination', async () => {
    await page.goto(`${baseUrl}/tools/notifications`);
    await page.getByRole('button', { name: /\bAdd$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.getByLabel('Source', { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await page.getByLabel('Destination', { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'E-mail' }).click();
    await dialog.getByLabel('E-mail address').fill('not-an-address');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter an e-mail address such as name@example.com').waitFor();
    await dialog.getByLabel('E-mail address').fill('ops@example.com');
    await screenshot(page, 'history-09-email-pair');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('row', { name: /E-mail \(ops@example\.com\)/ }).waitFor();
    await screenshot(page, 'history-10-email-paired');
  });
});
