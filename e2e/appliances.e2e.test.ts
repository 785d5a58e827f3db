import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
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

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
/** The demo household meter (type 1; apps/server/src/seed/seed.ts); admin owns every demo device. */
const HOUSE = 'Family house';
/** Names unique to this run, so a rerun against the same portal teaches new appliances. */
const RUN = Date.now().toString(36).slice(-6);

/** What each language calls the things the test looks for. */
const TEXTS: Record<
  Lang,
  {
    menu: string;
    name: string;
    start: string;
    finish: string;
    learned: string;
    list: string;
    appliance: string;
  }
> = {
  en: {
    menu: 'Appliances',
    name: 'Appliance name',
    start: 'Start teaching',
    finish: 'Finish teaching',
    learned: 'learned',
    list: 'Learned appliances',
    appliance: `Kettle ${RUN}`,
  },
  sk: {
    menu: 'Spotrebiče',
    name: 'Názov spotrebiča',
    start: 'Spustiť učenie',
    finish: 'Ukončiť učenie',
    learned: 'naučený',
    list: 'Naučené spotrebiče',
    appliance: `Bojler ${RUN}`,
  },
  de: {
    menu: 'Verbraucher',
    name: 'Name des Verbrauchers',
    start: 'Anlernen starten',
    finish: 'Anlernen beenden',
    learned: 'gelernt',
    list: 'Gelernte Verbraucher',
    appliance: `Wasserkocher ${RUN}`,
  },
};

/** Picks the household meter in the toolbar's hierarchy drawer (English labels). */
async function pickHouse(page: Page): Promise<void> {
  const node = treeNode(page, HOUSE).locator('.hierarchy-node__title');
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await node.isVisible())) await page.getByRole('button', { name: 'Device', exact: true }).click();
      await node.click({ timeout: 5_000 });
      await node.waitFor({ state: 'hidden', timeout: 5_000 });
      break;
    } catch (e) {
      if (attempt === 6) throw e;
    }
  }
}

/** The row of an appliance in the list. */
const row = (page: Page, name: string) => page.locator('.appliance-list tr.ant-table-row', { hasText: name });

/** Saves the page once the list has loaded and the teaching steps have stopped moving. */
async function settledShot(page: Page, name: string): Promise<void> {
  await page.locator('.appliance-list .ant-spin-blur').waitFor({ state: 'detached' });
  await page.waitForTimeout(600);
  await screenshot(page, name);
}

/** Teaches an appliance like a person: names it, starts, (switches it on and off), finishes. */
async function teach(page: Page, lang: Lang, name: string): Promise<void> {
  const t = TEXTS[lang];
  const card = page.locator('.appliance-teach');
  await card.getByLabel(t.name).fill(name);
  await card.getByRole('button', { name: t.start }).click();
  await card.locator('.appliance-listening').getByText(name).waitFor();
  await settledShot(page, `appliances-${lang}-01-listening`);
  // The person switches the appliance on, lets it run a moment, and switches it off.
  await page.waitForTimeout(3000);
  await card.getByRole('button', { name: t.finish }).click();
  await page.locator('.ant-notification-notice', { hasText: `${name} ${t.learned}` }).waitFor();
  await row(page, name).waitFor();
}

/** The page is no wider than the phone. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('appliances of a household meter', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    page = app.page;
    await chooseLanguage(page, 'en');
    await page.goto(`${baseUrl}/visualization`);
    await pickHouse(page);
  });
  afterAll(() => browser.close());

  it('teaches an appliance from the menu, lists its imprint and the run the meter recognised', async () => {
    await page.locator('.ant-menu-item', { hasText: 'Appliances' }).click();
    await page.waitForURL('**/appliances');
    const name = TEXTS.en.appliance;
    await teach(page, 'en', name);
    const text = await row(page, name).innerText();
    expect(text).toMatch(/L[123]/);
    expect(text).toMatch(/\+[\d,]+ W/);
    expect(text).toMatch(/−[\d,]+ W/);
    expect(text).toContain('Taught');
    // The meter reports the taught run as NILM events: one run with its energy in Wh, 1 decimal.
    await expect
      .poll(
        async () => {
          await page.reload();
          await row(page, name).waitFor();
          return row(page, name).innerText();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toMatch(/\t1\t[\d ]+(min|s)[^\t]*\t[\d,]+\.\d Wh/);
    await settledShot(page, 'appliances-en-02-learned');

    // The same name again is refused before the meter is asked.
    const card = page.locator('.appliance-teach');
    await card.getByLabel('Appliance name').fill(name.toUpperCase());
    await card.getByRole('button', { name: 'Start teaching' }).click();
    await page.locator('.ant-message', { hasText: 'Object alredy exist' }).waitFor();
    // That refusal is the only failed call of the screen.
    expect(app.problems.splice(0)).toEqual([`HTTP 409 ${baseUrl}/api/write/devices/appliances/teach`]);
    await card.getByLabel('Appliance name').fill('');

    // The NILM switches are sent to the meter and kept.
    const autoLearn = page.getByRole('switch', { name: 'Auto-learn' });
    const before = await autoLearn.getAttribute('aria-checked');
    await autoLearn.click();
    await page
      .locator('.ant-notification-notice', { hasText: 'Settings successfully saved' })
      .last()
      .waitFor();
    await expect.poll(() => autoLearn.getAttribute('aria-checked')).not.toBe(before);
    await page.reload();
    await expect
      .poll(() => page.getByRole('switch', { name: 'Auto-learn' }).getAttribute('aria-checked'))
      .not.toBe(before);

    // Removing the imprint keeps the appliance; removing the appliance takes it off the list.
    await row(page, name).getByRole('button', { name: 'Remove imprint' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Yes' }).click();
    await page.locator('.ant-notification-notice', { hasText: 'Imprint successfully removed' }).waitFor();
    await expect.poll(() => row(page, name).innerText()).toContain('No imprint');
    await settledShot(page, 'appliances-en-03-imprint-removed');
    await row(page, name).getByRole('button', { name: 'Delete' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Yes' }).click();
    await page.locator('.ant-notification-notice', { hasText: 'Appliance successfully removed' }).waitFor();
    await row(page, name).waitFor({ state: 'detached' });
    await expectNoRawKeys(page);
    expect(app.problems).toEqual([]);
  }, 120_000);

  it.each(['sk', 'de'] as const)(
    'teaches and lists an appliance in %s',
    async (lang) => {
      await chooseLanguage(page, lang);
      const t = TEXTS[lang];
      await page.goto(`${baseUrl}/appliances`);
      await page.getByText(t.list).waitFor();
      await teach(page, lang, t.appliance);
      await settledShot(page, `appliances-${lang}-02-learned`);
      await expectNoRawKeys(page);
      expect(app.problems).toEqual([]);
    },
    60_000,
  );

  it.each(['en', 'sk', 'de'] as const)(
    'fits a 390 px phone in %s',
    async (lang) => {
      const { phone, errors } = await phonePage(browser, baseUrl, 'admin', adminPassword, true);
      await chooseLanguage(phone, 'en');
      await phone.goto(`${baseUrl}/appliances`);
      await pickHouse(phone);
      await chooseLanguage(phone, lang);
      const t = TEXTS[lang];
      await phone.getByText(t.list).waitFor();
      const name = `${t.appliance.split(' ')[0]} P${RUN}`;
      await teach(phone, lang, name);
      expect(await pageWidth(phone), `appliances in ${lang}`).toBeLessThanOrEqual(PHONE.width);
      await phone.evaluate(() => window.scrollTo(0, 0));
      await settledShot(phone, `appliances-${lang}-phone-01-top`);
      await row(phone, name).scrollIntoViewIfNeeded();
      await screenshot(phone, `appliances-${lang}-phone-02-list`);
      await expectNoRawKeys(phone);
      expect(errors).toEqual([]);
      await phone.close();
    },
    90_000,
  );
});
