/// <reference lib="dom" />
import type { Page } from 'playwright-core';

/**
 * Records every text the page draws on a canvas (axis labels, legends, bar labels), so the test
 * reads the chart as a person sees it. Installed before the app's scripts run.
 */
export function recordCanvasTexts(): void {
  const w = window as unknown as { drawnTexts: string[] };
  w.drawnTexts = [];
  const proto = CanvasRenderingContext2D.prototype;
  const fill = Object.getOwnPropertyDescriptor(proto, 'fillText')!.value as (...args: unknown[]) => void;
  proto.fillText = function (this: CanvasRenderingContext2D, ...args: [string, number, number, number?]) {
    w.drawnTexts.push(String(args[0]));
    if (w.drawnTexts.length > 20_000) w.drawnTexts.splice(0, 10_000);
    Reflect.apply(fill, this, args[3] === undefined ? args.slice(0, 3) : args);
  };
}

export async function clearDrawn(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { drawnTexts: string[] }).drawnTexts = [];
  });
}

export async function drawn(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(window as unknown as { drawnTexts: string[] }).drawnTexts]);
}
