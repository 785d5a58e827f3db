/// <reference lib="dom" />
// The meter's side of the browser tests, shared by them: a meter added with the device command as
// an operator does, the settings the registration dialog shows once, a real MQTT client connecting
// with them and publishing, and the meter's first live chart.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chartCard, chartRows, treeNode } from './app';
import type { Portal } from './portal';

/** A meter's broker login. */
export interface MeterLogin {
  username: string;
  password: string;
}

/**
 * Registers a meter (type 1) with the device command, as an operator does; answers its broker
 * login. `extra` adds to the command's options, e.g. `--lora`.
 */
export function addMeterByCommand(
  portal: Portal,
  mac: string,
  title: string,
  extra: string[] = [],
): MeterLogin {
  const root = path.resolve(import.meta.dirname, '..');
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/server/src/devices/device.main.ts',
      'add',
      '--mac',
      mac,
      '--type',
      '1',
      '--title',
      title,
      ...extra,
    ],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: portal.dataDir, DATABASE_URL: '', MQTT_URL: '', LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`device add failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as MeterLogin;
}

/** The settings the registration dialog shows once, by field. */
export interface ShownSettings {
  /** `host:port`, or the host alone with `port` beside it (a gateway's settings page asks them apart). */
  server: string;
  port?: string;
  client_id: string;
  username: string;
  password: string;
  prefix?: string;
  topic?: string;
}

/** The dialog with the settings to enter on the device. */
export const settingsDialog = (page: Page): Locator =>
  page.locator('.ant-modal').filter({ has: page.locator('.registration-settings') });

/** The values the settings dialog shows, by field. */
export async function shownSettings(page: Page): Promise<ShownSettings> {
  const dialog = settingsDialog(page);
  await dialog.waitFor();
  const cells = dialog.locator('[data-setting]');
  const out: Record<string, string> = {};
  for (let i = 0; i < (await cells.count()); i += 1) {
    const cell = cells.nth(i);
    out[(await cell.getAttribute('data-setting'))!] = ((await cell.textContent()) ?? '').trim();
  }
  return out as unknown as ShownSettings;
}

/** Closes the settings dialog with its button `done`. */
export async function closeSettings(page: Page, done: string): Promise<void> {
  await settingsDialog(page).getByRole('button', { name: done }).click();
  await page.locator('.registration-settings').waitFor({ state: 'detached' });
}

/** Picks an option of the registration form's select labelled `label`. */
export async function pickInForm(page: Page, label: string, option: string): Promise<void> {
  await page
    .locator('.registration-form .ant-form-item', { hasText: label })
    .locator('.ant-select')
    .first()
    .click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
    .first()
    .click();
}

/** Scrolls to the top, so that a full-page capture shows a dialog where it stands. */
export async function scrollToTop(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Connects to the broker as the dialog said to (with `password` instead, to try an old one). */
export function connectAsShown(s: ShownSettings, password = s.password): Promise<MqttClient> {
  const [host, port] = s.server.includes(':') ? s.server.split(':') : [s.server, s.port];
  return mqtt.connectAsync(`mqtt://${host}:${port}`, {
    username: s.username,
    password,
    clientId: s.client_id,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
}

/** Publishes once now and then every second, as a meter does, until the answer is called. */
export async function keepPublishing(publish: () => Promise<unknown>): Promise<() => void> {
  await publish();
  const timer = setInterval(() => void publish().catch(() => undefined), 1000);
  return () => clearInterval(timer);
}

/**
 * Picks the meter titled `title` on the real-time voltage view, waits until its chart draws and
 * its data table shows `value`; answers the chart's card with the table open.
 */
export async function firstChartShows(
  page: Page,
  baseUrl: string,
  title: string,
  value: string,
): Promise<Locator> {
  await page.goto(`${baseUrl}/visualization/realtime/voltage`);
  const pickDevice = page.getByRole('button', { name: 'Device' });
  await pickDevice.click();
  const node = treeNode(page, title).locator('.hierarchy-node__title');
  await node.click();
  await node.waitFor({ state: 'hidden' });
  await pickDevice.filter({ hasText: title }).waitFor();
  await chartCard(page).locator('.chart-box canvas').first().waitFor();
  await expect.poll(async () => (await chartRows(page)).rows, { timeout: 20_000 }).toBeGreaterThan(0);
  const card = chartCard(page);
  await card.getByRole('button', { name: 'View data table' }).click();
  await expect.poll(() => card.locator('.ant-table-tbody').innerText(), { timeout: 10_000 }).toContain(value);
  return card;
}
