// The HTTP edge as a browser and a busy user meet it: the sign-in page's transferred bytes
// (compressed, as Chromium receives them) and first contentful paint in headless Chromium; a
// year-long profile of every quantity (bytes and time); and the p99 of a light request while ten
// sessions run year-long profiles. Serves the built web app (apps/web/dist, built when missing)
// and one meter with a year of minutes and quarter hours on SQLite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { quickSession } from '../apps/server/src/test/harness';
import { HEAVY_SESSIONS, lightUnderHeavy, post, yearProfileBody } from './heavy-reads';
import { BENCH_TZ as TZ, oneMeterYear, startPortal } from './portal-store';
import { percentile, r2, report } from './stats';

/** Targets of the issue: sign-in page transfer, its first paint, a light request under load. */
const SIGNIN_BUDGET_KB = 150;
const FCP_BUDGET_MS = 800;
const LIGHT_P99_BUDGET_MS = 50;
const PAGE_LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 5);
/** `BENCH_EDGE_ONLY=signin` measures the sign-in page alone, without the year of history. */
const SIGNIN_ONLY = process.env.BENCH_EDGE_ONLY === 'signin';

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

const { services, userId, fill, close } = await oneMeterYear('edge', { WEB_DIST: dist }, !SIGNIN_ONLY);
const { app, base } = await startPortal(services);

async function signInPage() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const loads: { transferredBytes: number; requests: number; fcpMs: number; lcpMs: number }[] = [];
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
      // The largest paint is the sign-in card itself, drawn once the scripts have run.
      const lcpMs = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) =>
              resolve(list.getEntries().at(-1)?.startTime ?? Number.NaN),
            ).observe({
              type: 'largest-contentful-paint',
              buffered: true,
            });
            setTimeout(() => resolve(Number.NaN), 2000);
          }),
      );
      loads.push({ transferredBytes: bytes, requests, fcpMs, lcpMs });
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
    signInCardPaintP50Ms: r2(
      percentile(
        loads.map((l) => l.lcpMs),
        50,
      ),
    ),
  };
}

const nowSec = Math.floor(Date.now() / 1000);
const token = (await quickSession(services, userId)).devices[0]!.token;
const session = () => quickSession(services, userId);
const yearProfile = yearProfileBody(token, nowSec, TZ);

async function yearLongProfile() {
  const { cookie } = await quickSession(services, userId);
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await post(base, cookie, '/api/read/profile', yearProfile));
  if (runs.some((r) => r.status !== 200))
    throw new Error(`year-long profile answered ${runs.map((r) => r.status).join(',')}`);
  const ms = runs.map((r) => r.ms);
  return {
    requests: runs.length,
    responseBytes: runs[0]!.body.byteLength,
    p50Ms: r2(percentile(ms, 50)),
    maxMs: r2(Math.max(...ms)),
  };
}

try {
  const signIn = await signInPage();
  console.log(`sign-in page: ${signIn.transferredKB} KB transferred, FCP p50 ${signIn.fcpP50Ms} ms`);
  if (SIGNIN_ONLY) {
    const within = { signIn: signIn.transferredKB < SIGNIN_BUDGET_KB, fcp: signIn.fcpP50Ms < FCP_BUDGET_MS };
    report('edge-signin', {
      note: 'Sign-in page only (BENCH_EDGE_ONLY=signin), without the year of history.',
      signInPage: signIn,
      withinTargets: within,
    });
    if (!Object.values(within).every(Boolean)) process.exitCode = 1;
  } else {
    const profile = await yearLongProfile();
    console.log(`year-long profile: ${profile.responseBytes} bytes, p50 ${profile.p50Ms} ms`);
    const load = {
      ...(await lightUnderHeavy({ base, session, heavyBody: yearProfile, strict: false })),
      budgetP99Ms: LIGHT_P99_BUDGET_MS,
    };
    console.log(`light request while ${HEAVY_SESSIONS} heavy reads run: p99 ${load.p99Ms} ms`);
    const within = {
      signIn: signIn.transferredKB < SIGNIN_BUDGET_KB,
      fcp: signIn.fcpP50Ms < FCP_BUDGET_MS,
      lightP99: load.p99Ms < LIGHT_P99_BUDGET_MS,
    };
    report('edge', {
      note: 'The portal runs in this process; the light and heavy clients in worker threads of their own, as browsers elsewhere. The load averages say how busy the shared machine was.',
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
  await close();
}
