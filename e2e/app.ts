import { expect } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';

/** Desktop viewport (the mobile layout starts below 992 px). */
export const VIEWPORT = { width: 1440, height: 900 };

/** Namespaces of the translation tables: a visible `menu.voltage` would be a raw key. */
const RAW_KEY =
  /\b(?:common|login|shell|menu|profile|hierarchy|toolbar|chart|tools|usermanager|precision|integration|notification_history|costs|alarms|relay|firmware|exports|power_quality|anomalies|appliances|settings|registration|sitemaps)\.[a-z_]+(?:\.[a-z_]+)*\b/;

export interface AppPage {
  page: Page;
  /** Page errors and failed API answers seen so far (cleared by the caller when checked). */
  problems: string[];
  /** Websocket frames received with the live Data topic. */
  liveFrames: () => number;
}

/**
 * Whether a sign-in has landed: past the sign-in page and past `/`, which sends on to the selected
 * device's view once the shell has loaded (a click before that would be overtaken by it).
 */
export function landed(url: URL): boolean {
  return !url.pathname.startsWith('/login') && url.pathname !== '/';
}

/** A new page signed in with the local form; collects page errors and failed API calls. */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  login: string,
  password: string,
): Promise<AppPage> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  const problems: string[] = [];
  let frames = 0;
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    // 610 (no hierarchy saved yet) answers 404 by contract; the app builds the tree then.
    if (r.status() === 404 && r.url().endsWith('/facility/devices-hierarchy')) return;
    // A registered meter that has not reported yet has no day to show: 610, 404 by contract.
    if (r.status() === 404 && r.url().endsWith('/tools/monitoring')) return;
    if (r.status() >= 400 && r.url().includes('/api/')) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string' && payload.includes('"topic":"Data"')) frames += 1;
    });
  });
  await signIn(page, baseUrl, login, password);
  return { page, problems, liveFrames: () => frames };
}

/** The phone every screen must fit. */
export const PHONE = { width: 390, height: 844 };

/**
 * A new 390 px page signed in with the local form; `touch` makes it a touch phone at twice the
 * pixel density. `errors` collects its page errors.
 */
export async function phonePage(
  browser: Browser,
  baseUrl: string,
  login: string,
  password: string,
  touch = false,
): Promise<{ phone: Page; errors: string[] }> {
  const phone = await browser.newPage(
    touch ? { viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : { viewport: PHONE },
  );
  const errors: string[] = [];
  phone.on('pageerror', (e) => errors.push(e.message));
  await signIn(phone, baseUrl, login, password);
  return { phone, errors };
}

/** Signs in with the local form and waits until the app has left the login page. */
export async function signIn(page: Page, baseUrl: string, login: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', password);
  await page.press('input[name="password"]', 'Enter');
  await page.waitForURL(landed);
}

/** A tree node of the hierarchy panel by its shown title. */
export function treeNode(scope: Page | Locator, title: string): Locator {
  // The inner locator of `has` is matched relative to each node, so it starts from the page.
  const page = 'page' in scope && typeof scope.page === 'function' ? scope.page() : (scope as Page);
  return scope.locator('.ant-tree-treenode').filter({
    has: page.locator('.hierarchy-node__title', { hasText: new RegExp(`^${escapeRe(title)}$`) }),
  });
}

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Fails when a raw translation key is visible. */
export async function expectNoRawKeys(page: Page): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text.match(RAW_KEY)?.[0] ?? null).toBeNull();
}

/** An interface language. */
export type Lang = 'en' | 'sk' | 'de';

/**
 * Chooses the language from the user menu (nothing to do when it is the page's language already:
 * its item is disabled then), and waits until the menu and its language submenu are closed.
 */
export async function chooseLanguage(page: Page, lang: Lang): Promise<void> {
  if ((await page.locator('html').getAttribute('lang')) === lang) return;
  await page.locator('.ant-layout-header button').last().click();
  await menusSettled(page);
  await page.locator('.ant-dropdown [data-menu-id$="-language"]').hover();
  await page.locator(`[data-menu-id$="-lang:${lang}"]`).waitFor();
  await menusSettled(page);
  await page.locator(`[data-menu-id$="-lang:${lang}"]`).click();
  await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(lang);
  // Leave the menu: move away and close it, then wait until no menu is left sliding out.
  await page.mouse.move(5, 400);
  await page.keyboard.press('Escape');
  await expect
    .poll(() => page.locator('.ant-dropdown:visible, .ant-dropdown-menu-submenu-popup:visible').count(), {
      timeout: 5000,
    })
    .toBe(0);
}

/**
 * Waits until no menu is zooming or sliding in or out: a click meanwhile lands on the page below
 * the moving popup, and the pointer leaving the menu closes it.
 */
async function menusSettled(page: Page): Promise<void> {
  const moving = page.locator(
    ':is(.ant-dropdown, .ant-dropdown-menu-submenu-popup):is([class*="-appear"], [class*="-enter"], [class*="-leave"])',
  );
  await expect.poll(() => moving.count(), { timeout: 5000 }).toBe(0);
}

/**
 * The card of the chart on the current view. After `leaveChart`, only a card drawn since: the URL
 * changes at once on a menu click, while the old view stays on screen until the new one is ready.
 */
export function chartCard(page: Page): Locator {
  return page.locator('.chart-card:not([data-left])').first();
}

/** Marks the charts on screen as those of the view being left (see `chartCard`). */
export async function leaveChart(page: Page): Promise<void> {
  await page.evaluate(() =>
    document.querySelectorAll('.chart-card').forEach((c) => c.setAttribute('data-left', '')),
  );
}

/**
 * Waits until the chart's canvas is drawn and its 'view data' table has rows; answers the number
 * of rows on the table's first page (up to 10) and the number of pages.
 */
export async function chartRows(
  page: Page,
  viewDataLabel = 'View data table',
): Promise<{ rows: number; pages: number }> {
  const card = chartCard(page);
  await card.locator('.chart-box canvas').first().waitFor({ state: 'visible' });
  const button = card.getByRole('button', { name: viewDataLabel });
  await expect.poll(() => button.isEnabled(), { timeout: 15_000 }).toBe(true);
  await button.click();
  const rows = card.locator('.ant-table-tbody tr.ant-table-row');
  await rows.first().waitFor({ state: 'visible' });
  const count = await rows.count();
  const pages = Math.max(1, await card.locator('.ant-pagination-item').count());
  // Close the table again, so that the screen looks as the person left it (a refresh of the
  // chart's data that came meanwhile may have closed it already).
  await card
    .locator('button[aria-pressed="true"]')
    .click({ force: true, timeout: 3_000 })
    .catch(() => undefined);
  await rows.first().waitFor({ state: 'detached' });
  return { rows: count, pages };
}

interface CanvasLike {
  width: number;
  height: number;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

/** How many pixels of the chart canvas are close to a colour (lines drawn in that colour). */
export async function canvasPixels(
  page: Page,
  rgb: [number, number, number],
  tolerance = 16,
): Promise<number> {
  return chartCard(page)
    .locator('.chart-box canvas')
    .first()
    .evaluate(
      (el, { r, g, b, tol }) => {
        const c = el as unknown as CanvasLike;
        const d = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
        if (!d) return 0;
        let n = 0;
        for (let i = 0; i < d.length; i += 4)
          if (
            Math.abs(d[i]! - r) <= tol &&
            Math.abs(d[i + 1]! - g) <= tol &&
            Math.abs(d[i + 2]! - b) <= tol &&
            d[i + 3]! > 200
          )
            n += 1;
        return n;
      },
      { r: rgb[0], g: rgb[1], b: rgb[2], tol: tolerance },
    );
}

/**
 * Clicks until `shown` is visible. On a busy machine a click on something still opening (a
 * dialog zooming in, a menu sliding open, a list re-rendering after a language switch) can be
 * lost; a person clicks again, and so does this, but never once `shown` is there.
 */
export async function clickUntilShown(
  click: (opts: { timeout: number }) => Promise<unknown>,
  shown: Locator,
  timeout = 30_000,
): Promise<void> {
  await expect
    .poll(
      async () => {
        if (!(await shown.isVisible())) await click({ timeout: 2_000 });
        return shown.waitFor({ timeout: 2_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout },
    )
    .toBe(true);
}
