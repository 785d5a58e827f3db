import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { VIEWPORT } from './app';
import { launchBrowser } from './browser';

const baseUrl = inject('baseUrl');

describe('delivery', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('sends the sign-in page brotli-compressed, its hashed files cached for a year, without the identity-provider code', async () => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    const files: { url: string; encoding: string | undefined; cache: string | undefined; bytes: number }[] =
      [];
    page.on('response', (r) => {
      const url = new URL(r.url());
      if (url.origin !== baseUrl || !/\.(js|css)$/.test(url.pathname)) return;
      void r
        .request()
        .sizes()
        .then((s) => {
          void r.allHeaders().then((h) =>
            files.push({
              url: url.pathname,
              encoding: h['content-encoding'],
              cache: h['cache-control'],
              bytes: s.responseBodySize,
            }),
          );
        });
    });
    const shell = await page.goto(`${baseUrl}/login`);
    expect(shell?.headers()['cache-control']).toBe('no-store');
    expect(shell?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('input[name="login"]').waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    expect(files.length).toBeGreaterThan(2);
    for (const f of files) {
      expect(f.encoding, f.url).toBe('br');
      expect(f.cache, f.url).toBe('public, max-age=31536000, immutable');
    }
    // oidc-client-ts (its own chunk) is fetched only after the provider's button is pressed.
    expect(files.map((f) => f.url).filter((u) => u.includes('/oidc-'))).toEqual([]);
    await page.close();
  });
});
