import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

/** Content-Security-Policy violations seen by any page since the last take. */
const violations: string[] = [];

/** The violations recorded so far (every page of every browser launched here), and forgets them. */
export function takeCspViolations(): string[] {
  return violations.splice(0);
}

/** Records every securitypolicyviolation event of the context's pages, with page and directive. */
async function watchCsp(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__reportCspViolation', ({ page }, text: string) => {
    violations.push(`${page.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation: (t: string) => void })
        .__reportCspViolation;
      report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
}

/**
 * Debian's Chromium, headless, with the flags this closed network needs. Every page it opens
 * reports Content-Security-Policy violations (see takeCspViolations).
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchCsp(context);
    return context;
  };
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    // Closing the page ends its own context, as Browser.newPage does; when the whole browser is
    // closing, the context is already gone with it.
    page.once('close', () => {
      context.close().catch(() => undefined);
    });
    return page;
  };
  return browser;
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Saves a full-page screenshot under e2e/screenshots for review. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
