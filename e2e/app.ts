import { expect } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';

/** Desktop viewport (the mobile layout starts below 992 px). */
export const VIEWPORT = { width: 1440, height: 900 };

/** Namespaces of the translation tables: a visible `menu.voltage` would be a raw key. */
const RAW_KEY =
  /\b(?:common|login|shell|menu|profile|hierarchy|toolbar|chart|tools|usermanager|precision)\.[a-z_]+(?:\.[a-z_]+)*\b/;

export interface AppPage {
  page: Page;
  /** Page errors and failed API answers seen so far (cleared by the caller when checked). */
  problems: string[];
  /** Websocket frames received with the live Data topic. */
  liveFrames: () => number;
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
    if (r.status() >= 400 && r.url().includes('/api/')) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string' && payload.includes('"topic":"Data"')) frames += 1;
    });
  });
  await page.goto(`${baseUrl}/login`);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', password);
  await page.press('input[name="password"]', 'Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return { page, problems, liveFrames: () => frames };
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

/** The card of the chart on the current view. */
export function chartCard(page: Page): Locator {
  return page.locator('.chart-card').first();
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
