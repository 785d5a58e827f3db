import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';

const baseUrl = inject('baseUrl');

describe('sign-in', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('sends an anonymous visitor to /login and shows the form', async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/visualization`);
    await page.waitForURL('**/login');
    await page.locator('input[name="login"]').waitFor({ state: 'visible' });
    await page.locator('input[name="password"]').waitFor({ state: 'visible' });
    await screenshot(page, '01-login');
    await page.close();
  });

  it('refuses wrong credentials with the seed text', async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.fill('input[name="login"]', 'demo');
    await page.fill('input[name="password"]', 'not-the-password');
    await page.press('input[name="password"]', 'Enter');
    await page.getByText('Login credentials incorrect').first().waitFor();
    await screenshot(page, '02-login-refused');
    expect(page.url()).toContain('/login');
    await page.close();
  });

  it('signs demo in with Enter and shows the shell with the version label', async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.fill('input[name="login"]', 'demo');
    await page.fill('input[name="password"]', 'demo');
    await page.press('input[name="password"]', 'Enter');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.getByText('1.4.23').first().waitFor();
    await screenshot(page, '03-signed-in');
    await page.close();
  });
});
