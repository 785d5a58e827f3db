import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

/** What each language calls the things the test looks for, and the report it downloads. */
const TEXTS: Record<
  Lang,
  {
    menu: string;
    download: string;
    kind: string;
    pdfTitle: string;
    schedules: string;
    create: string;
    keep: string;
    email: string;
    weekly: string;
    none: string;
    deleteConfirm: string;
  }
> = {
  en: {
    menu: 'Reports',
    download: 'Download PDF',
    kind: 'Energy and cost',
    pdfTitle: 'Energy and cost',
    schedules: 'Schedules',
    create: 'Create',
    keep: 'Keep for download',
    email: 'By e-mail',
    weekly: 'Week (on Monday)',
    none: 'No report is scheduled.',
    deleteConfirm: 'OK',
  },
  sk: {
    menu: 'Správy',
    download: 'Stiahnuť PDF',
    kind: 'Maximálny odber a kapacita',
    pdfTitle: 'Maximálny odber a kapacita',
    schedules: 'Plány',
    create: 'Vytvoriť',
    keep: 'Uložiť na stiahnutie',
    email: 'E-mailom',
    weekly: 'Týždeň (v pondelok)',
    none: 'Žiadna správa nie je naplánovaná.',
    deleteConfirm: 'OK',
  },
  de: {
    menu: 'Berichte',
    download: 'PDF herunterladen',
    kind: 'Verfügbarkeit',
    pdfTitle: 'Verfügbarkeit',
    schedules: 'Zeitpläne',
    create: 'Anlegen',
    keep: 'Zum Herunterladen aufbewahren',
    email: 'Per E-Mail',
    weekly: 'Woche (am Montag)',
    none: 'Kein Bericht ist geplant.',
    deleteConfirm: 'OK',
  },
};

/** Picks an option of an antd select by its visible text. */
async function pick(page: Page, testId: string, option: string): Promise<void> {
  const select = page.getByTestId(testId);
  // Another select's list may still be fading out with an option of the same words: the choice
  // counts once the select shows it, and is made again otherwise.
  for (let attempt = 1; ; attempt++) {
    await select.click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
      .first()
      .click();
    try {
      await expect.poll(() => select.innerText(), { timeout: 3_000 }).toContain(option);
      return;
    } catch (e) {
      if (attempt === 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

/** Downloads the report of the form: the file's name and bytes. */
async function downloadReport(page: Page, label: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('report-download').filter({ hasText: label }).click(),
  ]);
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
}

/** The PDF's text, and its pages as PNG files under e2e/screenshots (looked at by hand). */
function pdfPages(bytes: Buffer, name: string): { text: string; pages: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-e2e-'));
  const file = path.join(dir, 'report.pdf');
  fs.writeFileSync(file, bytes);
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  fs.mkdirSync(SHOTS, { recursive: true });
  execFileSync('pdftoppm', ['-png', '-r', '80', file, path.join(SHOTS, name)]);
  fs.rmSync(dir, { recursive: true, force: true });
  const pages = fs.readdirSync(SHOTS).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'));
  return { text, pages };
}

/** Waits for the hierarchy save that a tree change sends. */
function hierarchySaved(page: Page) {
  return page.waitForResponse(
    (r) => r.url().endsWith('/api/write/facility/devices-hierarchy') && r.request().method() === 'POST',
  );
}

/** Drags a device of the tree into a folder, as a person does, and opens the folder. */
async function dragInto(page: Page, device: string, folder: string): Promise<void> {
  const saved = hierarchySaved(page);
  const from = (await treeNode(page, device).locator('.hierarchy-node__title').boundingBox())!;
  const to = (await treeNode(page, folder).locator('.hierarchy-node__title').boundingBox())!;
  await page.mouse.move(from.x + 10, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 20, from.y + from.height / 2, { steps: 3 });
  await page.mouse.move(to.x + 40, to.y + to.height / 2, { steps: 10 });
  await page.mouse.move(to.x + 44, to.y + to.height / 2, { steps: 2 });
  await page.mouse.up();
  await saved;
  if ((await treeNode(page, device).count()) === 0)
    await treeNode(page, folder).locator('.ant-tree-switcher').click();
  await expect.poll(() => treeNode(page, device).locator('.ant-tree-indent-unit').count()).toBe(1);
}

/** What the folder report is called and says, per language. */
const FOLDER_TEXTS: Record<Lang, { card: string; pdfTitle: string; folder: string }> = {
  en: { card: 'Folder report', pdfTitle: 'Energy and cost of a folder', folder: 'Folder' },
  sk: { card: 'Správa priečinka', pdfTitle: 'Energia a náklady priečinka', folder: 'Priečinok' },
  de: { card: 'Ordnerbericht', pdfTitle: 'Energie und Kosten eines Ordners', folder: 'Ordner' },
};

/** A folder report's other kinds: the option's label, the PDF's title and what its totals say. */
type FolderKind = 'PEAKS' | 'AVAILABILITY' | 'POWER_QUALITY';
const FOLDER_KINDS: Record<Lang, Record<FolderKind, { label: string; pdfTitle: string; total: string }>> = {
  en: {
    PEAKS: {
      label: 'Maximum demand and capacity',
      pdfTitle: 'Maximum demand of a folder',
      total: 'Coincident peak of the folder',
    },
    AVAILABILITY: {
      label: 'Availability',
      pdfTitle: 'Availability of a folder',
      total: 'Mean online share of the devices',
    },
    POWER_QUALITY: {
      label: 'Power quality (EN 50160, analyzers)',
      pdfTitle: 'Power quality of a folder (EN 50160)',
      total: 'Analyzers assessed',
    },
  },
  sk: {
    PEAKS: {
      label: 'Maximálny odber a kapacita',
      pdfTitle: 'Maximálny odber priečinka',
      total: 'Súčasná špička priečinka',
    },
    AVAILABILITY: {
      label: 'Dostupnosť',
      pdfTitle: 'Dostupnosť priečinka',
      total: 'Priemerný podiel online zariadení',
    },
    POWER_QUALITY: {
      label: 'Kvalita elektriny (EN 50160, analyzátory)',
      pdfTitle: 'Kvalita elektriny priečinka (EN 50160)',
      total: 'Posúdené analyzátory',
    },
  },
  de: {
    PEAKS: {
      label: 'Höchstlast und Leistung',
      pdfTitle: 'Höchstlast eines Ordners',
      total: 'Gleichzeitige Spitze des Ordners',
    },
    AVAILABILITY: {
      label: 'Verfügbarkeit',
      pdfTitle: 'Verfügbarkeit eines Ordners',
      total: 'Mittlerer Online-Anteil der Geräte',
    },
    POWER_QUALITY: {
      label: 'Spannungsqualität (EN 50160, Analysatoren)',
      pdfTitle: 'Spannungsqualität eines Ordners (EN 50160)',
      total: 'Bewertete Analysatoren',
    },
  },
};

/**
 * Downloads the folder Plant's max-demand, availability and power-quality reports from the folder
 * card and reads them: each names the folder, lists the meters dragged into it, and states the
 * folder's line; the power-quality report assesses the analyzer and names the others as not assessed.
 */
async function downloadFolderKinds(page: Page, lang: Lang, shot: string): Promise<void> {
  const card = page.locator('.ant-card').filter({ hasText: FOLDER_TEXTS[lang].card });
  for (const kind of ['PEAKS', 'AVAILABILITY', 'POWER_QUALITY'] as const) {
    const k = FOLDER_KINDS[lang][kind];
    await pick(page, 'folder-report-kind', k.label);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByTestId('folder-report-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^folder-${kind.toLowerCase().replace('_', '-')}-Plant-\\d{4}-\\d{2}\\.pdf$`),
    );
    const pdf = pdfPages(fs.readFileSync(await download.path()), `${shot}-${kind.toLowerCase()}`);
    if (kind === 'POWER_QUALITY') {
      // One analyzer assessed; the two other meters named as not assessed.
      expect(pdf.text).toMatch(new RegExp(`${k.total}\\s+1\\n`));
      expect(pdf.text).toContain('Test bench analyzer (02-4D-50-00-00-03)');
    }
    expect(pdf.text).toContain(k.pdfTitle);
    expect(pdf.text).toContain(`${FOLDER_TEXTS[lang].folder}: Plant`);
    expect(pdf.text).toContain(k.total);
    expect(pdf.text).toContain('02-4D-50-00-00-04');
    expect(pdf.text).toContain('02-4D-50-00-00-06');
    expect(pdf.text).not.toContain('02-4D-50-00-00-01');
    expect(pdf.pages.length).toBeGreaterThan(0);
  }
}

/** What the folder schedule form and list say, per language. */
const FOLDER_SCHEDULE: Record<
  Lang,
  { target: string; tags: Record<'ENERGY_COST' | FolderKind, string>; save: string; monthly: string }
> = {
  en: {
    target: 'A folder',
    tags: {
      ENERGY_COST: 'Folder: energy and cost',
      PEAKS: 'Folder: maximum demand',
      AVAILABILITY: 'Folder: availability',
      POWER_QUALITY: 'Folder: power quality (EN 50160)',
    },
    save: 'Save',
    monthly: 'Month (on the 1st)',
  },
  sk: {
    target: 'Priečinok',
    tags: {
      ENERGY_COST: 'Priečinok: energia a náklady',
      PEAKS: 'Priečinok: maximálny odber',
      AVAILABILITY: 'Priečinok: dostupnosť',
      POWER_QUALITY: 'Priečinok: kvalita elektriny (EN 50160)',
    },
    save: 'Uložiť',
    monthly: 'Mesiac (1. dňa)',
  },
  de: {
    target: 'Einen Ordner',
    tags: {
      ENERGY_COST: 'Ordner: Energie und Kosten',
      PEAKS: 'Ordner: Höchstlast',
      AVAILABILITY: 'Ordner: Verfügbarkeit',
      POWER_QUALITY: 'Ordner: Spannungsqualität (EN 50160)',
    },
    save: 'Speichern',
    monthly: 'Monat (am 1.)',
  },
};

/**
 * Schedules the folder Plant's report of a kind by e-mail from the form, then edits it to a weekly
 * report kept for download; the one schedule is left listed.
 */
async function scheduleFolder(
  page: Page,
  lang: Lang,
  shot: string,
  kind: 'ENERGY_COST' | FolderKind = 'ENERGY_COST',
): Promise<void> {
  const t = TEXTS[lang];
  const f = FOLDER_SCHEDULE[lang];
  const form = page.locator('form').filter({ has: page.getByTestId('schedule-create') });
  await form.locator('.ant-radio-button-wrapper', { hasText: f.target }).click();
  await pick(page, 'schedule-folder', 'Plant');
  if (kind !== 'ENERGY_COST') await pick(page, 'schedule-kind', FOLDER_KINDS[lang][kind].label);
  await pick(page, 'schedule-every', f.monthly);
  await pick(page, 'schedule-delivery', t.email);
  await page.getByTestId('schedule-email').fill('plant@factory.example');
  await form.getByRole('button', { name: t.create }).click();
  await expect.poll(() => page.getByTestId('report-schedule').count()).toBe(1);
  const item = page.getByTestId('report-schedule').first();
  await expect.poll(() => item.innerText()).toContain(f.tags[kind]);
  expect(await item.innerText()).toContain('plant@factory.example');
  await settledShot(page, `${shot}-created`);

  // Edited: weekly, kept for download; the folder stays chosen.
  await item.getByTestId('schedule-edit').click();
  await expect.poll(() => page.getByTestId('schedule-folder').innerText()).toContain('Plant');
  await pick(page, 'schedule-every', t.weekly);
  await pick(page, 'schedule-delivery', t.keep);
  const saved = page.waitForResponse(
    (r) => r.url().endsWith('/api/write/reports/schedules') && r.request().method() === 'PUT',
  );
  await page.getByTestId('schedule-save').click();
  expect((await saved).ok()).toBe(true);
  await expect.poll(() => item.innerText()).toContain(t.keep);
  const text = await item.innerText();
  expect(text).toContain(t.weekly);
  expect(text).toContain('Plant');
  expect(text).toContain(f.tags[kind]);
  expect(text).not.toContain('plant@factory.example');
  await page.getByTestId('schedule-create').waitFor();
  // The form is back to a new schedule with a device chosen.
  expect(await page.getByTestId('schedule-device').innerText()).toMatch(/\(02-4D-50-00-00-\d\d\)/);
  await settledShot(page, shot);
}

/** Deletes every listed schedule, each confirmed and answered before the next. */
async function deleteSchedules(page: Page): Promise<void> {
  for (let n = await page.getByTestId('report-schedule').count(); n > 0; n--) {
    await page.getByTestId('report-schedule').first().getByTestId('schedule-delete').click();
    const deleted = page.waitForResponse(
      (r) => r.url().endsWith('/api/write/reports/schedules') && r.request().method() === 'DELETE',
    );
    await page.locator('.ant-popconfirm:visible').getByRole('button').last().click();
    expect((await deleted).ok()).toBe(true);
    await expect.poll(() => page.getByTestId('report-schedule').count()).toBe(n - 1);
  }
}

async function settledShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
  await screenshot(page, name);
}

describe('PDF reports', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, 'admin', adminPassword);
    page = app.page;
  });
  afterAll(() => browser.close());

  it.each(['en', 'sk', 'de'] as const)(
    'downloads a report and keeps schedules in %s',
    async (lang) => {
      await chooseLanguage(page, lang);
      const t = TEXTS[lang];
      await page.locator('.ant-menu-item', { hasText: t.menu }).click();
      await page.waitForURL(/\/tools\/reports$/);
      await page.getByText(t.schedules).first().waitFor();

      // The report in the interface language by default.
      await pick(page, 'report-kind', t.kind);
      const { name, bytes } = await downloadReport(page, t.download);
      expect(name).toMatch(/\.pdf$/);
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      const pdf = pdfPages(bytes, `reports-pdf-${lang}`);
      expect(pdf.text).toContain(t.pdfTitle);
      expect(pdf.pages.length).toBeGreaterThan(0);

      // A weekly schedule kept for download, and a monthly one by e-mail.
      const form = page.locator('form').filter({ has: page.getByTestId('schedule-create') });
      await pick(page, 'schedule-delivery', t.keep);
      await pick(page, 'schedule-every', t.weekly);
      await form.getByRole('button', { name: t.create }).click();
      await expect.poll(() => page.getByTestId('report-schedule').count()).toBe(1);
      await pick(
        page,
        'schedule-every',
        lang === 'en' ? 'Month (on the 1st)' : lang === 'sk' ? 'Mesiac (1. dňa)' : 'Monat (am 1.)',
      );
      await pick(page, 'schedule-delivery', t.email);
      await page.getByTestId('schedule-email').fill('energy@factory.example');
      await form.getByRole('button', { name: t.create }).click();
      await expect.poll(() => page.getByTestId('report-schedule').count()).toBe(2);
      const list = await page.getByTestId('report-schedules').innerText();
      expect(list).toContain(t.keep);
      expect(list).toContain('energy@factory.example');
      await settledShot(page, `reports-${lang}-01-page`);
      await expectNoRawKeys(page);

      // Both are deleted again.
      for (let n = 2; n > 0; n--) {
        await page.getByTestId('report-schedule').first().getByTestId('schedule-delete').click();
        await page.locator('.ant-popconfirm:visible').getByRole('button').last().click();
        await expect.poll(() => page.getByTestId('report-schedule').count()).toBe(n - 1);
      }
      await page.getByText(t.none).waitFor();
      expect(app.problems).toEqual([]);
    },
    120_000,
  );

  it('makes a folder in the tree and downloads its report in en, sk and de', async () => {
    await chooseLanguage(page, 'en');
    await page.goto(`${baseUrl}/applied-precision`);
    await treeNode(page, 'Workshop main').waitFor();
    const named = hierarchySaved(page);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const input = page.getByRole('textbox', { name: 'Rename' });
    await input.waitFor();
    await named;
    const renamed = hierarchySaved(page);
    await input.fill('Plant');
    await input.press('Enter');
    expect((await renamed).ok()).toBe(true);
    await dragInto(page, 'Workshop main', 'Plant');
    await dragInto(page, 'Solar sub-meter', 'Plant');
    await dragInto(page, 'Test bench analyzer', 'Plant');
    await screenshot(page, 'reports-folder-00-tree');

    for (const lang of ['en', 'sk', 'de'] as const) {
      await chooseLanguage(page, lang);
      await page.goto(`${baseUrl}/tools/reports`);
      const t = FOLDER_TEXTS[lang];
      const card = page.locator('.ant-card').filter({ hasText: t.card });
      await card.getByTestId('folder-report-folder').waitFor();
      await expect.poll(() => card.getByTestId('folder-report-folder').innerText()).toContain('Plant');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        card.getByTestId('folder-report-download').click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^folder-Plant-\d{4}-\d{2}\.pdf$/);
      const bytes = fs.readFileSync(await download.path());
      const pdf = pdfPages(bytes, `reports-folder-pdf-${lang}`);
      expect(pdf.text).toContain(t.pdfTitle);
      expect(pdf.text).toContain(`${t.folder}: Plant`);
      expect(pdf.text).toContain('02-4D-50-00-00-04');
      expect(pdf.text).toContain('02-4D-50-00-00-06');
      expect(pdf.text).not.toContain('02-4D-50-00-00-01');
      expect(pdf.pages.length).toBeGreaterThan(0);
      await downloadFolderKinds(page, lang, `reports-folder-pdf-${lang}`);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, `reports-folder-${lang}`);
      await expectNoRawKeys(page);
    }

    // An analyzer has the EN 50160 report; the other meters do not offer it.
    await chooseLanguage(page, 'en');
    await pick(page, 'report-device', 'Workshop main');
    await page.getByTestId('report-kind').click();
    expect(
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').allInnerTexts(),
    ).not.toContain('Power quality (EN 50160, analyzers)');
    await page.keyboard.press('Escape');
    await pick(page, 'report-device', 'Test bench analyzer');
    await pick(page, 'report-kind', 'Power quality (EN 50160, analyzers)');
    const { bytes } = await downloadReport(page, 'Download PDF');
    const pq = pdfPages(bytes, 'reports-pq-pdf-en');
    expect(pq.text).toContain('Power quality (EN 50160)');
    expect(pq.text).toContain('Supply voltage, 10-minute means');
    expect(app.problems).toEqual([]);
  }, 180_000);

  it.each([
    ['en', 'ENERGY_COST'],
    ['sk', 'PEAKS'],
    ['de', 'AVAILABILITY'],
    ['en', 'PEAKS'],
    ['sk', 'POWER_QUALITY'],
  ] as const)(
    'schedules the folder’s report, edits and deletes it in %s (%s)',
    async (lang, kind) => {
      await chooseLanguage(page, lang);
      await page.goto(`${baseUrl}/tools/reports`);
      await page.getByText(TEXTS[lang].schedules).first().waitFor();
      await scheduleFolder(page, lang, `reports-folder-schedule-${lang}-${kind.toLowerCase()}`, kind);
      await expectNoRawKeys(page);
      await deleteSchedules(page);
      await page.getByText(TEXTS[lang].none).waitFor();
      expect(app.problems).toEqual([]);
    },
    120_000,
  );

  it.each(['en', 'sk', 'de'] as const)('fits a 390 px phone in %s', async (lang) => {
    const { phone, errors } = await phonePage(browser, baseUrl, 'admin', adminPassword, true);
    await chooseLanguage(phone, lang);
    await phone.goto(`${baseUrl}/tools/reports`);
    await phone.getByText(TEXTS[lang].schedules).first().waitFor();
    await pick(phone, 'schedule-delivery', TEXTS[lang].email);
    await phone.getByTestId('schedule-email').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await settledShot(phone, `reports-phone-${lang}`);
    // A folder's max-demand schedule made and edited on the phone, and the other kinds downloaded.
    await scheduleFolder(phone, lang, `reports-phone-folder-schedule-${lang}`, 'PEAKS');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await deleteSchedules(phone);
    await downloadFolderKinds(phone, lang, `reports-phone-folder-pdf-${lang}`);
    const card = phone.locator('.ant-card').filter({ hasText: FOLDER_TEXTS[lang].card });
    await card.scrollIntoViewIfNeeded();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(phone, `reports-phone-folder-${lang}`);
    expect(errors).toEqual([]);
    await phone.close();
  });
});
