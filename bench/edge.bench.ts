// The HTTP edge as a browser and a busy user meet it: the sign-in page's transferred bytes
// (compressed, as Chromium receives them) and first contentful paint in headless Chromium; a
// year-long profile of every quantity (bytes and time); and the p99 of a light request while ten
// sessions run year-long profiles. Serves the built web app (apps/web/dist, built when missing)
// and one meter with a year of minutes and quarter hours on SQLite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { PROFILE_QUANTITIES } from '@meterportal/protocol';
import { loadConfig } from '../apps/server/src/config/config';
import { openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrations/index';
import { createServices } from '../apps/server/src/services';
import { buildApp } from '../apps/server/src/http/app';
import { systemClock } from '../apps/server/src/clock';
import { addDevice, addUser, assign, quickSession } from '../apps/server/src/test/harness';
import { SESSION_COOKIE } from '../apps/server/src/http/session';
import { backfillHistory } from '../apps/server/src/telemetry/backfill';
import { createTelemetryRepository } from '../apps/server/src/telemetry/telemetry.repository';
import { startOfDay } from '../apps/server/src/history/calendar';
import { percentile, r2, report } from './stats';

/** Targets of the issue: sign-in page transfer, its first paint, a light request under load. */
const SIGNIN_BUDGET_KB = 150;
const FCP_BUDGET_MS = 800;
const LIGHT_P99_BUDGET_MS = 50;
const PAGE_LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 5);
const LIGHT_REQUESTS = Number(process.env.BENCH_LIGHT_REQUESTS ?? 200);
const HEAVY_SESSIONS = 10;
/** `BENCH_EDGE_ONLY=signin` measures the sign-in page alone, without the year of history. */
const SIGNIN_ONLY = process.env.BENCH_EDGE_ONLY === 'signin';
const TZ = 'Europe/Bratislava';
const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

const root = path.resolve(import.meta.dirname, '..');
/** `BENCH_WEB_DIST` serves another build (say, of an earlier commit) for a comparison. */
const dist = process.env.BENCH_WEB_DIST
  ? path.resolve(process.env.BENCH_WEB_DIST)
  : path.join(root, 'apps/web/dist');
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.log('apps/web/dist is missing: building it (npm run build -w apps/web)');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('web build failed');
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-edge-'));
const database = await openDatabase({ sqliteFile: path.join(tmp, 'bench.db') });
await migrateToLatest(database);
const config = loadConfig({ LOG_LEVEL: 'silent', TZ, WEB_DIST: dist, LIVE_RECHECK_MS: '5000' });
const services = await createServices({ config, database, clock: systemClock });
const userId = await addUser(services, 'bench', 'bench-secret');
const deviceId = await addDevice(services, '02-BE-00-00-00-01', 4, 'Bench');
await assign(services, userId, deviceId, true);
const t0 = performance.now();
const fill = SIGNIN_ONLY
  ? { quarterRows: 0, minuteRows: 0 }
  : await backfillHistory(
      { repository: createTelemetryRepository(database, { tz: TZ }), clock: systemClock, logger: quiet },
      [{ id: deviceId, mac: '02-BE-00-00-00-01', type: 4 }],
      { quarterDays: 366, minuteDays: 366 },
    );
console.log(
  `backfilled ${fill.quarterRows} quarter rows and ${fill.minuteRows} minute rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const app = await buildApp(services, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function signInPage() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const loads: { transferredBytes: number; requests: number; fcpMs: number }[] = [];
  try {
    for (let i = 0; i < PAGE_LOADS; i++) {
      // A fresh context each time: nothing cached, as on a first visit.
      const context = await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      let bytes = 0;
      let requests = 0;
      cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
        bytes += e.encodedDataLength;
        requests += 1;
      });
      await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
      await page.locator('input[name="login"]').waitFor({ state: 'visible' });
      const fcpMs = await page.evaluate(
        () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      );
      loads.push({ transferredBytes: bytes, requests, fcpMs });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const kb = loads.map((l) => l.transferredBytes / 1024);
  const fcp = loads.map((l) => l.fcpMs);
  return {
    loads: loads.length,
    requests: loads[0]!.requests,
    transferredKB: r2(percentile(kb, 50)),
    budgetKB: SIGNIN_BUDGET_KB,
    fcpP50Ms: r2(percentile(fcp, 50)),
    fcpMaxMs: r2(Math.max(...fcp)),
    fcpBudgetMs: FCP_BUDGET_MS,
    firstLoadFcpMs: r2(fcp[0]!),
  };
}

const nowSec = Math.floor(Date.now() / 1000);
const yearFrom = startOfDay(nowSec - 365 * 86400, TZ);
const token = (await quickSession(services, userId)).devices[0]!.token;
const yearProfile = {
  token,
  data: PROFILE_QUANTITIES.join(','),
  phase: 'L1,L2,L3',
  from: yearFrom,
  to: nowSec,
  format: 'H',
  cumulative: true,
};

async function post(
  cookie: string,
  url: string,
  body: object,
): Promise<{ ms: number; bytes: number; status: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${cookie}` },
    body: JSON.stringify(body),
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  return { ms: performance.now() - started, bytes, status: res.status };
}

async function yearLongProfile() {
  const { cookie } = await quickSession(services, userId);
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await post(cookie, '/api/read/profile', yearProfile));
  if (runs.some((r) => r.status !== 200))
    throw new Error(`year-long profile answered ${runs.map((r) => r.status).join(',')}`);
  const ms = runs.map((r) => r.ms);
  return {
    requests: runs.length,
    responseBytes: runs[0]!.bytes,
    p50Ms: r2(percentile(ms, 50)),
    maxMs: r2(Math.max(...ms)),
  };
}

async function lightUnderHeavy() {
  const light = await quickSession(services, userId);
  const heavySessions = await Promise.all(
    Array.from({ length: HEAVY_SESSIONS }, () => quickSession(services, userId)),
  );
  let running = true;
  let heavyDone = 0;
  const heavyStatuses = new Map<number, number>();
  // Ten sessions, each with one year-long profile in flight at all times.
  const heavy = heavySessions.map(async (s) => {
    while (running) {
      const r = await post(s.cookie, '/api/read/profile', yearProfile);
      heavyStatuses.set(r.status, (heavyStatuses.get(r.status) ?? 0) + 1);
      heavyDone += 1;
    }
  });
  await new Promise((r) => setTimeout(r, 300));
  const ms: number[] = [];
  for (let i = 0; i < LIGHT_REQUESTS; i++) {
    const r = await post(light.cookie, '/api/read/devices/details', { token: light.devices[0]!.token });
    if (r.status !== 200) throw new Error(`light request answered ${r.status}`);
    ms.push(r.ms);
  }
  running = false;
  await Promise.all(heavy);
  return {
    lightRequest: 'POST /api/read/devices/details',
    requests: ms.length,
    p50Ms: r2(percentile(ms, 50)),
    p99Ms: r2(percentile(ms, 99)),
    budgetP99Ms: LIGHT_P99_BUDGET_MS,
    heavySessions: HEAVY_SESSIONS,
    heavyReadsFinished: heavyDone,
    heavyStatuses: Object.fromEntries(heavyStatuses),
  };
}

try {
  const signIn = await signInPage();
  console.log(`sign-in page: ${signIn.transferredKB} KB transferred, FCP p50 ${signIn.fcpP50Ms} ms`);
  if (SIGNIN_ONLY) {
    const within = { signIn: signIn.transferredKB < SIGNIN_BUDGET_KB, fcp: signIn.fcpP50Ms < FCP_BUDGET_MS };
    report('edge-signin', {
      note: 'Sign-in page only (BENCH_EDGE_ONLY=signin), on a shared 2-core machine while other work ran.',
      signInPage: signIn,
      withinTargets: within,
    });
    if (!Object.values(within).every(Boolean)) process.exitCode = 1;
  } else {
    const profile = await yearLongProfile();
    console.log(`year-long profile: ${profile.responseBytes} bytes, p50 ${profile.p50Ms} ms`);
    const load = await lightUnderHeavy();
    console.log(`light request while ${HEAVY_SESSIONS} heavy reads run: p99 ${load.p99Ms} ms`);
    const within = {
      signIn: signIn.transferredKB < SIGNIN_BUDGET_KB,
      fcp: signIn.fcpP50Ms < FCP_BUDGET_MS,
      lightP99: load.p99Ms < LIGHT_P99_BUDGET_MS,
    };
    report('edge', {
      note: 'Measured on a shared 2-core machine while other work ran; rerun on a quiet machine for the figures of record.',
      backfill: { quarterRows: fill.quarterRows, minuteRows: fill.minuteRows },
      signInPage: signIn,
      yearLongProfileAllQuantities: profile,
      lightUnderTenHeavyReads: load,
      withinTargets: within,
    });
    if (!Object.values(within).every(Boolean)) process.exitCode = 1;
  }
} finally {
  await app.close();
  await database.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
