// The year-long profile before and after the hourly rollup, in one run over one store: SQLite,
// one meter with a year of minutes and quarter hours. "before" is the history service as it was:
// hours averaged from the minutes and daily energy summed from the quarters at read time, and
// only the per-session limit on heavy reads; "after" is the service as built (hourly and daily
// rollups, one heavy read at a time in the process on SQLite). For each: rows the hourly read
// scans and its time, the year-long profile of every quantity through HTTP (its bytes must be
// identical in both), and the p99 of a light request while ten sessions each keep a year-long
// profile in flight.
import type { TelemetryDB } from '../apps/server/src/db/schema.telemetry';
import { quickSession } from '../apps/server/src/test/harness';
import { HEAVY_SESSIONS, lightUnderHeavy, post, yearProfileBody } from './heavy-reads';
import { MINUTE_COLUMNS } from '../apps/server/src/telemetry/columns';
import { startOfDay } from '../apps/server/src/history/calendar';
import { historyRepository, type HistoryRepository } from '../apps/server/src/history/history.repository';
import { historyService, type HistoryService } from '../apps/server/src/history/history.service';
import { sessionReadLimiter } from '../apps/server/src/history/read-limiter';
import { BENCH_TZ as TZ, oneMeterYear, startPortal } from './portal-store';
import { percentile, r2, report } from './stats';

const RUNS = 3;

const { database, services, userId, deviceId, fill, close } = await oneMeterYear('rollup');
const backfillSec = r2(fill.seconds);

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

const { app, base } = await startPortal(services);
const nowSec = Math.floor(Date.now() / 1000);
const yearFrom = startOfDay(nowSec - 365 * 86400, TZ);
const token = (await quickSession(services, userId)).devices[0]!.token;
const session = () => quickSession(services, userId);
const yearProfile = yearProfileBody(token, nowSec, TZ);
const AVG = MINUTE_COLUMNS.filter((c) => c.endsWith('_avg'));

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
  for (let i = 0; i < RUNS; i++) runs.push(await post(base, cookie, '/api/read/profile', yearProfile));
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
    const load = {
      ...(await lightUnderHeavy({ base, session, heavyBody: yearProfile, strict: true })),
    };
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
  await close();
}
