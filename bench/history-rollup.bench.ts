// The year-long profile before and after the hourly rollup, in one run over one store: SQLite,
// one meter with a year of minutes and quarter hours. "before" is the history service as it was:
// hours averaged from the minutes and daily energy summed from the quarters at read time, and
// only the per-session limit on heavy reads; "after" is the service as built (hourly and daily
// rollups, one heavy read at a time in the process on SQLite). For each: rows the hourly read
// scans and its time, the year-long profile of every quantity through HTTP (its bytes must be
// identical in both), and the p99 of a light request while ten sessions each keep a year-long
// profile in flight.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { PROFILE_QUANTITIES } from '@meterportal/protocol';
import { loadConfig } from '../apps/server/src/config/config';
import { openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrations/index';
import type { TelemetryDB } from '../apps/server/src/db/schema.telemetry';
import { createServices } from '../apps/server/src/services';
import { buildApp } from '../apps/server/src/http/app';
import { systemClock } from '../apps/server/src/clock';
import { addDevice, addUser, assign, quickSession } from '../apps/server/src/test/harness';
import { SESSION_COOKIE } from '../apps/server/src/http/session';
import { backfillHistory } from '../apps/server/src/telemetry/backfill';
import { MINUTE_COLUMNS } from '../apps/server/src/telemetry/columns';
import { createTelemetryRepository } from '../apps/server/src/telemetry/telemetry.repository';
import { startOfDay } from '../apps/server/src/history/calendar';
import { historyRepository, type HistoryRepository } from '../apps/server/src/history/history.repository';
import { historyService, type HistoryService } from '../apps/server/src/history/history.service';
import { sessionReadLimiter } from '../apps/server/src/history/read-limiter';
import { percentile, r2, report } from './stats';

const LIGHT_REQUESTS = Number(process.env.BENCH_LIGHT_REQUESTS ?? 200);
const HEAVY_SESSIONS = 10;
const RUNS = 3;
const TZ = 'Europe/Bratislava';
const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-rollup-'));
const database = await openDatabase({ sqliteFile: path.join(tmp, 'bench.db') });
await migrateToLatest(database);
const config = loadConfig({ LOG_LEVEL: 'silent', TZ, WEB_DIST: '/nonexistent', LIVE_RECHECK_MS: '5000' });
const services = await createServices({ config, database, clock: systemClock });
const userId = await addUser(services, 'bench', 'bench-secret');
const deviceId = await addDevice(services, '02-BE-00-00-00-01', 4, 'Bench');
await assign(services, userId, deviceId, true);
const t0 = performance.now();
const fill = await backfillHistory(
  { repository: createTelemetryRepository(database, { tz: TZ }), clock: systemClock, logger: quiet },
  [{ id: deviceId, mac: '02-BE-00-00-00-01', type: 4 }],
  { quarterDays: 366, minuteDays: 366 },
);
const backfillSec = r2((performance.now() - t0) / 1000);
console.log(
  `backfilled ${fill.quarterRows} quarter rows and ${fill.minuteRows} minute rows in ${backfillSec} s`,
);

const repo = historyRepository(database);
// The reads as they were: every hour averaged from its minutes when asked, and a profile's daily
// energy summed from the quarters.
const minutesRepo: HistoryRepository = {
  ...repo,
  hourAverages: (id, from, to, columns) => repo.minuteAverages(id, from, to, columns, 3600),
  energyByDays: (id, range, columns, bucketSec) =>
    repo.energyBuckets(id, range.fromSec, range.toSec, columns, bucketSec),
};
const modes: Record<'before' | 'after', HistoryService> = {
  before: {
    ...historyService({ repo: minutesRepo, devices: services.devices, tz: TZ }),
    heavyReads: sessionReadLimiter({ concurrent: 2, waiting: 4 }),
  },
  after: services.history,
};

const app = await buildApp(services, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
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
const AVG = MINUTE_COLUMNS.filter((c) => c.endsWith('_avg'));

async function post(
  cookie: string,
  url: string,
  body: object,
): Promise<{ ms: number; body: Buffer; status: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${cookie}` },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { ms: performance.now() - started, body: bytes, status: res.status };
}

async function rowsScanned(): Promise<{ before: number; after: number }> {
  const db = database.db.withTables<TelemetryDB>();
  const count = async (
    table: 'telemetry_minutes' | 'telemetry_hours',
    col: 'ts_sec' | 'hour_sec',
    from: number,
    to: number,
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('device_id', '=', deviceId)
          .where(col, '>=', from)
          .where(col, '<', to)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const firstWhole = Math.ceil(yearFrom / 3600) * 3600;
  const endWhole = Math.floor(nowSec / 3600) * 3600;
  return {
    before: await count('telemetry_minutes', 'ts_sec', yearFrom, nowSec),
    after:
      (await count('telemetry_minutes', 'ts_sec', yearFrom, firstWhole)) +
      (await count('telemetry_hours', 'hour_sec', firstWhole, endWhole)) +
      (await count('telemetry_minutes', 'ts_sec', endWhole, nowSec)),
  };
}

async function hourlyRead(mode: 'before' | 'after') {
  const r = mode === 'before' ? minutesRepo : repo;
  const ms: number[] = [];
  let hours = 0;
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    hours = (await r.hourAverages(deviceId, yearFrom, nowSec, AVG)).tsSec.length;
    ms.push(performance.now() - s);
  }
  return { hoursAnswered: hours, p50Ms: r2(percentile(ms, 50)) };
}

async function yearLongProfile() {
  const { cookie } = await quickSession(services, userId);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await post(cookie, '/api/read/profile', yearProfile));
  if (runs.some((r) => r.status !== 200))
    throw new Error(`year-long profile answered ${runs.map((r) => r.status).join(',')}`);
  return {
    body: runs[0]!.body,
    responseBytes: runs[0]!.body.byteLength,
    p50Ms: r2(
      percentile(
        runs.map((r) => r.ms),
        50,
      ),
    ),
  };
}

async function lightUnderHeavy() {
  const light = await quickSession(services, userId);
  const heavySessions = await Promise.all(
    Array.from({ length: HEAVY_SESSIONS }, () => quickSession(services, userId)),
  );
  let running = true;
  let heavyDone = 0;
  const heavy = heavySessions.map(async (s) => {
    while (running) {
      const r = await post(s.cookie, '/api/read/profile', yearProfile);
      if (r.status !== 200) throw new Error(`heavy read answered ${r.status}`);
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
    maxMs: r2(Math.max(...ms)),
    heavyReadsFinished: heavyDone,
  };
}

try {
  const scanned = await rowsScanned();
  const out: Record<string, unknown> = {};
  const bodies: Buffer[] = [];
  for (const mode of ['before', 'after'] as const) {
    services.history = modes[mode];
    const read = await hourlyRead(mode);
    const profile = await yearLongProfile();
    bodies.push(profile.body);
    console.log(
      `${mode}: hourly read of a year ${read.p50Ms} ms; year-long profile ${profile.responseBytes} bytes, p50 ${profile.p50Ms} ms`,
    );
    const load = await lightUnderHeavy();
    console.log(
      `${mode}: light request while ${HEAVY_SESSIONS} heavy reads run: p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms`,
    );
    out[mode] = {
      hourlyReadOfAYear: { rowsScanned: scanned[mode], ...read },
      yearLongProfileAllQuantities: { responseBytes: profile.responseBytes, p50Ms: profile.p50Ms },
      lightUnderTenHeavyReads: load,
    };
  }
  const identical = bodies[0]!.equals(bodies[1]!);
  if (!identical) process.exitCode = 1;
  report('history-rollup', {
    note: 'Measured on a shared 2-core machine while other work ran; before and after in the same process over the same store.',
    backfill: { quarterRows: fill.quarterRows, minuteRows: fill.minuteRows, seconds: backfillSec },
    ...out,
    yearLongProfileIdenticalBeforeAndAfter: identical,
  });
} finally {
  await app.close();
  await database.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
