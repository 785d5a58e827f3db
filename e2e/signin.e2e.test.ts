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

  it('tells a user held back after repeated failures when to try again, in each language', async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/login`);
    // Five wrong guesses on one account from this address, as a script would make them.
    for (let i = 0; i < 5; i++) {
      const r = await page.request.post(`${baseUrl}/api/read/auth/local`, {
        data: { login: 'held-back', password: 'a'.repeat(63) + String(i) },
      });
      expect(r.status()).toBe(401);
    }
    await page.fill('input[name="login"]', 'held-back');
    await page.fill('input[name="password"]', 'one-more-guess');
    await page.press('input[name="password"]', 'Enter');
    await page
      .getByText(/^Too many failed sign-ins\. Try again in (29|30) s\.$/)
      .first()
      .waitFor();
    // The toast slides in; the screenshot waits until it stands still.
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('.ant-notification-notice-wrapper')).every(
        (e) => getComputedStyle(e).opacity === '1' && !/-(appear|enter)/.test(e.className),
      ),
    );
    await screenshot(page, '02b-login-held-back');
    await page.getByText('Slovenčina').click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('sk');
    await page.press('input[name="password"]', 'Enter');
    await page
      .getByText(/^Príliš veľa neúspešných prihlásení\. Skúste to znova o \d+ s\.$/)
      .first()
      .waitFor();
    await page.getByText('Deutsch').click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('de');
    await page.press('input[name="password"]', 'Enter');
    await page
      .getByText(/^Zu viele fehlgeschlagene Anmeldungen\. Erneut versuchen in \d+ s\.$/)
      .first()
      .waitFor();
    await page.getByText('English').click();
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

describe('sign-in with the identity provider', () => {
  const account = inject('oidcAccount');
  const issuer = inject('oidcIssuer');
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('goes through the provider (code + PKCE) and comes back signed in', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const authRequests: URL[] = [];
    const portalSignIns: Record<string, unknown>[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(`${issuer}/auth?`)) authRequests.push(new URL(r.url()));
      if (r.url() === `${baseUrl}/api/read/auth/google`)
        portalSignIns.push(r.postDataJSON() as Record<string, unknown>);
    });
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('button', { name: 'Sign in with identity provider' }).click();

    // The provider's own pages: its login form, then consent.
    await page.waitForURL((u) => u.href.startsWith(issuer));
    const authorize = authRequests[0]?.searchParams;
    expect(authorize?.get('response_type')).toBe('code');
    expect(authorize?.get('code_challenge_method')).toBe('S256');
    expect(authorize?.get('redirect_uri')).toBe(`${baseUrl}/login`);
    await page.locator('input[name="login"]').fill(account.login);
    await page.locator('input[name="password"]').fill('any password the provider accepts');
    await screenshot(page, '04-provider-login');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    // Back on the portal, which exchanged the code with its verifier and opened a session.
    await page.waitForURL((u) => u.href.startsWith(baseUrl) && !u.pathname.startsWith('/login'), {
      timeout: 30_000,
    });
    await page.getByRole('button', { name: account.email }).waitFor();
    await page.getByText('1.4.23').first().waitFor();
    // A new provider user holds no devices yet.
    await page.getByText('Any assigned device').first().waitFor();
    await screenshot(page, '05-signed-in-with-provider');
    // The portal is sent the ID token beside the access token: it proves they were issued to the portal.
    expect(portalSignIns.map((b) => Object.keys(b).sort())).toEqual([['id_token', 'token']]);
    expect(String(portalSignIns[0]?.id_token).split('.')).toHaveLength(3);
    expect(problems).toEqual([]);
    const cookies = await context.cookies(baseUrl);
    expect(cookies.find((c) => c.name === 'mp_session')?.httpOnly).toBe(true);

    // A provider user has no local password to change: the user menu offers logout only.
    await page.getByRole('button', { name: account.email }).click();
    await page.getByText('Logout').first().waitFor();
    expect(await page.getByText('Edit profile').count()).toBe(0);
    await context.close();
  });
});
