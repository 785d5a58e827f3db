/// <reference lib="dom" />
import crypto from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { enSiteMaps } from '../apps/web/src/i18n/en.sitemaps';
import { skSiteMaps } from '../apps/web/src/i18n/sk.sitemaps';
import { deSiteMaps } from '../apps/web/src/i18n/de.sitemaps';
import { chooseLanguage, expectNoRawKeys, signedInPage, type AppPage, type Lang } from './app';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const TEXTS = { en: enSiteMaps.sitemaps, sk: skSiteMaps.sitemaps, de: deSiteMaps.sitemaps } as const;
const PHONE = { width: 390, height: 844 };

/** Two simulated three-phase demo meters, both reporting all the time. */
const HOUSE = { mac: '02-4D-50-00-00-01', title: 'Family house', lat: 48.1486, lng: 17.1077 };
const WORKSHOP = { mac: '02-4D-50-00-00-04', title: 'Workshop main', lat: 48.1702, lng: 17.2025 };
/** A user of its own, so maps, tree and alarm rules of other tests stay untouched. */
const LOGIN = 'planner';
const PASSWORD = 'planner-secret-1';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

interface Session {
  token: string;
  cookie: string;
  devices: { mac: string; token: string }[];
}

async function api(path: string, body: object, session?: Session, method = 'POST'): Promise<unknown> {
  const res = await fetch(`${baseUrl}/api/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(session ? { cookie: session.cookie } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { status: string };
  if (json.status !== 'OK') throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json;
}

async function apiSignIn(login: string, password: string): Promise<Session> {
  const res = await fetch(`${baseUrl}/api/read/auth/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password: sha256(password) }),
  });
  const json = (await res.json()) as { data: Session['devices']; user: { token: string } };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { token: json.user.token, cookie, devices: json.data };
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A floor plan as a PNG: light floor, dark outer walls and two inner walls with door gaps. */
function floorPlan(width = 800, height = 500): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const outer = x < 8 || y < 8 || x >= width - 8 || y >= height - 8;
      const inner =
        (Math.abs(x - 420) < 4 && (y < 200 || y > 260)) ||
        (Math.abs(y - 300) < 4 && x > 420 && (x < 560 || x > 620));
      const v = outer || inner ? 60 : 238;
      row.writeUInt8(v, 1 + x * 3);
      row.writeUInt8(v, 2 + x * 3);
      row.writeUInt8(outer || inner ? 70 : 232, 3 + x * 3);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Drags from the middle of `from` to a place on the plan given as fractions of the image. */
async function dragTo(page: Page, from: Locator, x: number, y: number): Promise<void> {
  const a = (await from.boundingBox())!;
  const img = (await page.getByTestId('site-plan').locator('img').boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(img.x + img.width * x, img.y + img.height * y, { steps: 12 });
  await page.mouse.up();
}

/** The pin's place as fractions, from its style. */
async function pinAt(pin: Locator): Promise<{ x: number; y: number }> {
  const style = await pin.evaluate((el) => ({
    left: (el as HTMLElement).style.left,
    top: (el as HTMLElement).style.top,
  }));
  return { x: parseFloat(style.left) / 100, y: parseFloat(style.top) / 100 };
}

/** The mac of the device the app has selected (kept for the tab). */
async function selectedMac(page: Page): Promise<string | null> {
  const raw = await page.evaluate(
    () => Object.entries(localStorage).find(([k]) => k.endsWith('selectedDevice'))?.[1],
  );
  return raw ? (JSON.parse(raw) as { value: string }).value : null;
}

/** The side menu's entry of a route, after checking its label. */
function menuItem(page: Page, route: string, label: string): Locator {
  return page.locator(`.ant-menu-item[data-menu-id$="-${route}"]`, { hasText: label });
}

async function settledShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(800);
  await screenshot(page, name);
}

describe('site maps', () => {
  let browser: Browser;
  let app: AppPage;
  let page: Page;
  let session: Session;

  beforeAll(async () => {
    // A user manager makes the planner and assigns the two meters; the planner's tree gives them a location.
    const admin = await apiSignIn('admin', adminPassword);
    await api(
      'write/applications/usermanager/user/add',
      { user_token: admin.token, login: LOGIN, password: sha256(PASSWORD) },
      admin,
    );
    const lifeTime = Math.floor(Date.now() / 1000) + 365 * 86400;
    for (const d of [HOUSE, WORKSHOP])
      await api(
        'write/applications/usermanager/assign',
        { user_token: admin.token, login: LOGIN, device: d.mac, lifeTime },
        admin,
      );
    session = await apiSignIn(LOGIN, PASSWORD);
    const menu = {
      nodes: [HOUSE, WORKSHOP].map((d, i) => ({
        title: d.title,
        isLeaf: true,
        data: { id: i + 1, mac: d.mac, type: d === HOUSE ? 1 : 4 },
      })),
      tags: [HOUSE, WORKSHOP].map((d, i) => ({
        id: i + 1,
        title: d.title,
        mac: d.mac,
        tags: [],
        lat: d.lat,
        lng: d.lng,
      })),
    };
    await api(
      'write/facility/devices-hierarchy',
      { token: session.token, menu: JSON.stringify(menu) },
      session,
    );
    browser = await launchBrowser();
    app = await signedInPage(browser, baseUrl, LOGIN, PASSWORD);
    page = app.page;
  });
  afterAll(() => browser.close());

  it('refuses wrong files, uploads a plan, places two pins by drag and drop, shows live state and opens a device', async () => {
    await chooseLanguage(page, 'en');
    const t = TEXTS.en;
    await menuItem(page, '/site-maps', t.menu).click();
    await page.waitForURL(/\/site-maps$/);
    await page.getByText(t.no_maps).waitFor();

    const file = page.getByTestId('site-file');
    await file.setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('these are not pixels'),
    });
    await page.locator('.ant-notification-notice', { hasText: t.file_format }).waitFor();
    await screenshot(page, 'site-maps-en-01-wrong-format');
    const big = Buffer.concat([floorPlan(4, 4), Buffer.alloc(1_050_000)]);
    await file.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big });
    await page.locator('.ant-notification-notice', { hasText: t.file_too_large }).waitFor();
    await screenshot(page, 'site-maps-en-02-too-large');
    // Nothing was sent: the upload stays disabled and no map exists.
    const upload = page.getByTestId('site-upload');
    await upload.getByLabel(t.map_name).fill('Ground floor');
    expect(await upload.getByRole('button', { name: t.upload, exact: true }).isDisabled()).toBe(true);

    await file.setInputFiles({ name: 'ground-floor.png', mimeType: 'image/png', buffer: floorPlan() });
    await upload.getByText('ground-floor.png').waitFor();
    await upload.getByRole('button', { name: t.upload, exact: true }).click();
    await page.getByTestId('site-plan').locator('img').waitFor();
    await expect
      .poll(() =>
        page
          .getByTestId('site-plan')
          .locator('img')
          .evaluate((i) => (i as HTMLImageElement).naturalWidth),
      )
      .toBe(800);

    await page.getByLabel(t.group_name).fill('Ground');
    await dragTo(page, page.getByTestId(`chip-${HOUSE.mac}`), 0.25, 0.4);
    const house = page.getByTestId(`pin-${HOUSE.mac}`);
    await house.waitFor();
    await dragTo(page, page.getByTestId(`chip-${WORKSHOP.mac}`), 0.75, 0.7);
    const workshop = page.getByTestId(`pin-${WORKSHOP.mac}`);
    await workshop.waitFor();
    const h = await pinAt(house);
    expect(h.x).toBeCloseTo(0.25, 1);
    expect(h.y).toBeCloseTo(0.4, 1);
    const w = await pinAt(workshop);
    expect(w.x).toBeCloseTo(0.75, 1);
    expect(w.y).toBeCloseTo(0.7, 1);
    await page.getByText(t.all_placed).waitFor();

    // Both meters report, so both pins turn online.
    await expect.poll(() => house.getAttribute('data-state'), { timeout: 20_000 }).toBe('ONLINE');
    await expect.poll(() => workshop.getAttribute('data-state'), { timeout: 20_000 }).toBe('ONLINE');
    expect(await page.getByTestId('site-pins').innerText()).toContain('Ground');
    await settledShot(page, 'site-maps-en-03-two-pins-online');

    // Moving a pin by dragging it keeps it one pin.
    await dragTo(page, workshop, 0.8, 0.3);
    await expect.poll(async () => (await pinAt(workshop)).y, { timeout: 10_000 }).toBeLessThan(0.4);
    expect(await page.locator('.site-pin').count()).toBe(2);

    // An alarm raised on the house turns its pin red.
    const houseToken = session.devices.find((d) => d.mac === HOUSE.mac)!.token;
    await api(
      'write/tools/alarms/rules',
      {
        user_token: session.token,
        device_token: houseToken,
        lang: 'en',
        rule: {
          kind: 'threshold',
          name: 'Voltage present',
          severity: 'critical',
          quantity: 'U',
          phase: 'L1',
          condition: 'above',
          threshold: 100,
        },
      },
      session,
    );
    await expect.poll(() => house.getAttribute('data-state'), { timeout: 30_000 }).toBe('ALARM');
    expect(await house.getAttribute('aria-label')).toBe(`${HOUSE.title}: ${t.state.ALARM}`);
    await settledShot(page, 'site-maps-en-04-alarm');

    // Rename the map.
    await page.getByRole('button', { name: t.rename, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(t.map_name).fill('First floor');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('site-map-select').getByText('First floor').waitFor();

    // A tap on a pin opens the device: it becomes the selected one, on its default view.
    await workshop.click();
    await page.waitForURL((u) => !u.pathname.startsWith('/site-maps'));
    await expect.poll(() => selectedMac(page)).toBe(WORKSHOP.mac);
    await settledShot(page, 'site-maps-en-05-opened-device');
    await expectNoRawKeys(page);

    // The sites view draws both located meters with a scale bar, without any map tiles.
    await menuItem(page, '/site-maps/sites', t.sites_menu).click();
    await page.waitForURL(/\/site-maps\/sites$/);
    const plot = page.getByTestId('sites-plot');
    await plot.waitFor();
    expect(await plot.locator('text').allTextContents()).toEqual(
      expect.arrayContaining([HOUSE.title, WORKSHOP.title]),
    );
    expect(await page.getByTestId('sites-scale').textContent()).toMatch(/^\d+ (m|km)$/);
    await page.getByText('2 of 2 devices have a location').waitFor();
    await settledShot(page, 'site-maps-en-06-sites');
    await page.getByTestId(`site-${HOUSE.mac}`).locator('circle').click();
    await page.waitForURL((u) => !u.pathname.startsWith('/site-maps'));
    await expect.poll(() => selectedMac(page)).toBe(HOUSE.mac);
    expect(app.problems).toEqual([]);
  }, 150_000);

  it.each(['sk', 'de'] as const)(
    'shows the map and the sites in %s',
    async (lang: Lang) => {
      const t = TEXTS[lang];
      await chooseLanguage(page, lang);
      await menuItem(page, '/site-maps', t.menu).click();
      await page.getByText(t.title, { exact: true }).waitFor();
      await page.getByText(t.pins).waitFor();
      expect(await page.getByTestId(`pin-${HOUSE.mac}`).getAttribute('aria-label')).toBe(
        `${HOUSE.title}: ${t.state.ALARM}`,
      );
      await expectNoRawKeys(page);
      await settledShot(page, `site-maps-${lang}-01-map`);
      await menuItem(page, '/site-maps/sites', t.sites_menu).click();
      await page.getByTestId('sites-plot').waitFor();
      await page.getByText(t.sites_count.replace('{{count}}', '2').replace('{{total}}', '2')).waitFor();
      await expectNoRawKeys(page);
      await settledShot(page, `site-maps-${lang}-02-sites`);
      expect(app.problems).toEqual([]);
    },
    60_000,
  );

  it('fits a phone: tap to place, tap a pin to open, remove and delete', async () => {
    await chooseLanguage(page, 'en');
    const t = TEXTS.en;
    const mobile = await signedInPage(browser, baseUrl, LOGIN, PASSWORD);
    const m = mobile.page;
    await m.setViewportSize(PHONE);
    await m.goto(`${baseUrl}/site-maps`);
    const house = m.getByTestId(`pin-${HOUSE.mac}`);
    await house.waitFor();
    expect(await m.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const box = (await house.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(24);
    await settledShot(m, 'site-maps-phone-01-map');

    // Take the workshop off the map, then put it back with a tap on it and a tap on the plan.
    await m
      .getByTestId('site-pins')
      .locator('.ant-list-item', { hasText: WORKSHOP.title })
      .getByRole('button', { name: t.remove_pin })
      .click();
    await m.getByTestId(`pin-${WORKSHOP.mac}`).waitFor({ state: 'detached' });
    await m.getByTestId(`chip-${WORKSHOP.mac}`).click();
    await m.getByText(t.placing.replace('{{title}}', WORKSHOP.title)).waitFor();
    const img = (await m.getByTestId('site-plan').locator('img').boundingBox())!;
    await m.mouse.click(img.x + img.width * 0.6, img.y + img.height * 0.5);
    const workshop = m.getByTestId(`pin-${WORKSHOP.mac}`);
    await workshop.waitFor();
    const placed = await pinAt(workshop);
    expect(placed.x).toBeCloseTo(0.6, 1);
    expect(placed.y).toBeCloseTo(0.5, 1);
    await settledShot(m, 'site-maps-phone-02-tap-placed');

    await m.goto(`${baseUrl}/site-maps/sites`);
    await m.getByTestId('sites-plot').waitFor();
    expect(await m.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await settledShot(m, 'site-maps-phone-03-sites');

    await m.goto(`${baseUrl}/site-maps`);
    await m.getByTestId(`pin-${HOUSE.mac}`).click();
    await m.waitForURL((u) => !u.pathname.startsWith('/site-maps'));

    // Deleting the map leaves none.
    await m.goto(`${baseUrl}/site-maps`);
    await m.getByRole('button', { name: t.delete, exact: true }).click();
    await m.locator('.ant-popconfirm').getByRole('button', { name: 'Yes' }).click();
    await m.getByText(t.no_maps).waitFor();
    expect(mobile.problems).toEqual([]);
  }, 90_000);
});
