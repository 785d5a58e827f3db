import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMeterModel, createRegisters, meterProfile } from '@meterportal/simulator';
import { deviceTopic, encodePayload, type LiveFrame } from '@meterportal/protocol';
import type { Database } from '../db/database';
import type { DB } from '../db/schema';
import { migrateToLatest } from '../db/migrations/index';
import type { TelemetryDB } from '../db/schema.telemetry';
import { fromWall, startOfDay } from '../history/calendar';
import { ENERGY_COLUMNS, STORED_REGISTER_KINDS } from './columns';
import { ensureDayRollup, rebuildDayRollup, rollupZone } from './day-rollup.repository';
import { createIngest } from './ingest';
import { createTelemetryMetrics } from './metrics';
import { createTelemetryRepository, type QuarterRow } from './telemetry.repository';
import { insertDevice, memoryLogger, openTestDatabase } from './testing';
import { DIALECTS } from '../test/dialects';

const TZ = 'Europe/Bratislava';
const MAC = 'EM-70-B3-D5-01-00-09';
const enc = (x: unknown) => new TextEncoder().encode(encodePayload(x));
// 2026-10-25 is the 25-hour fall-back day in Bratislava, 2026-03-29 the 23-hour spring-forward day.
const FALL_BACK = fromWall(TZ, 2026, 10, 25);
const SPRING_FORWARD = fromWall(TZ, 2026, 3, 29);

type Kind = (typeof STORED_REGISTER_KINDS)[number];

/**
 * Live frames at the given instants, with registers integrating the simulated powers between
 * them. After `resetAt` the meter's registers restart from what they counted since the frame
 * before (a reset: the readings go down, to a plausible value).
 */
function framesAt(times: readonly number[], resetAt = Number.POSITIVE_INFINITY): LiveFrame[] {
  const model = createMeterModel(meterProfile(1, MAC));
  const regs = createRegisters(7);
  const out: LiveFrame[] = [];
  let base: ReturnType<typeof regs.read> | null = null;
  let prevTs = times[0]!;
  for (const ts of times) {
    const s = model.sample(ts);
    regs.integrate(s, ts - prevTs);
    if (ts >= resetAt && !base) base = out.at(-1)!;
    const r = regs.read();
    const shown = base
      ? Object.fromEntries(Object.entries(r).map(([k, v]) => [k, sub(v, base![k as keyof typeof r])]))
      : r;
    out.push({ ts, ...s, ...shown } as LiveFrame);
    prevTs = ts;
  }
  return out;
}
const sub = (a: { L1: number; L2: number; L3: number }, b: { L1: number; L2: number; L3: number }) => ({
  L1: a.L1 - b.L1,
  L2: a.L2 - b.L2,
  L3: a.L3 - b.L3,
});

/** Every `step` seconds over [from, to], with [gapFrom, gapTo) left out. */
function instants(from: number, to: number, step: number, gap?: [number, number]): number[] {
  const out: number[] = [];
  for (let t = from; t <= to; t += step) if (!gap || t < gap[0] || t >= gap[1]) out.push(t);
  return out;
}

describe.each(DIALECTS)('daily energy rollup on $name', ({ name: dialect }) => {
  let database: Database & { dispose(): Promise<void> };
  let deviceId: number;
  const db = () => database.db.withTables<TelemetryDB>();
  const settle = () => new Promise((r) => setTimeout(r, 30));
  let nowMs = 0;
  const clock = { nowMs: () => nowMs };
  const ingestOf = () =>
    createIngest({
      repository: createTelemetryRepository(database, { tz: TZ }),
      logger: memoryLogger(),
      clock,
      metrics: createTelemetryMetrics(),
    });

  async function feed(frames: readonly LiveFrame[]): Promise<void> {
    const ingest = ingestOf();
    for (let i = 0; i < frames.length; i += 200) {
      for (const f of frames.slice(i, i + 200)) ingest.handle(deviceTopic(MAC, 'live'), enc(f));
      await settle();
      await ingest.flush();
    }
    await ingest.close();
  }

  /** Day rows, and the quarters summed per local day computed here, one Intl call per quarter. */
  async function rollupAndQuarterSums(tz: string) {
    const days = await db()
      .selectFrom('energy_days')
      .selectAll()
      .orderBy('device_id')
      .orderBy('day_sec')
      .execute();
    const quarters = await db()
      .selectFrom('energy_quarters')
      .selectAll()
      .orderBy('device_id')
      .orderBy('ts_sec')
      .execute();
    const expected = new Map<string, number[]>();
    for (const q of quarters) {
      const key = `${q.device_id}:${startOfDay(Number(q.ts_sec), tz)}`;
      const acc = expected.get(key) ?? ENERGY_COLUMNS.map(() => 0);
      ENERGY_COLUMNS.forEach((c, i) => (acc[i]! += Number(q[c])));
      expected.set(key, acc);
    }
    const actual = new Map(
      days.map((d) => [`${d.device_id}:${Number(d.day_sec)}`, ENERGY_COLUMNS.map((c) => Number(d[c]))]),
    );
    return { actual, expected, quarters: quarters.length };
  }
  async function expectRollupEqualsQuarters(tz = TZ): Promise<Map<string, number[]>> {
    const { actual, expected, quarters } = await rollupAndQuarterSums(tz);
    expect(quarters).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
    return actual;
  }
  const dayTotal = (rows: Map<string, number[]>, day: number, col: (typeof ENERGY_COLUMNS)[number]) =>
    rows.get(`${deviceId}:${day}`)?.[ENERGY_COLUMNS.indexOf(col)];
  const registerTotal = (a: LiveFrame, b: LiveFrame, kind: Kind) =>
    b[kind].L1 + b[kind].L2 + b[kind].L3 - a[kind].L1 - a[kind].L2 - a[kind].L3;

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    deviceId = await insertDevice(database, MAC);
    nowMs = (FALL_BACK + 3 * 86400) * 1000;
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('sums ingested energy into local days; the 25-hour day is the register difference between its midnights', async () => {
    const nextDay = fromWall(TZ, 2026, 10, 26);
    expect(nextDay - FALL_BACK).toBe(25 * 3600);
    const frames = framesAt(instants(FALL_BACK - 3600, nextDay + 3600, 120));
    await feed(frames);
    const rows = await expectRollupEqualsQuarters();
    const at = (ts: number) => frames.find((f) => f.ts === ts)!;
    for (const kind of STORED_REGISTER_KINDS) {
      const col = ENERGY_COLUMNS[STORED_REGISTER_KINDS.indexOf(kind) + 21]!;
      expect(dayTotal(rows, FALL_BACK, col)).toBe(registerTotal(at(FALL_BACK), at(nextDay), kind));
    }
    expect(dayTotal(rows, FALL_BACK, 'e_i_wh')).toBeGreaterThan(0);
    // Per phase too: L2 import over the day.
    expect(dayTotal(rows, FALL_BACK, 'e_i_l2_wh')).toBe(at(nextDay).E_I.L2 - at(FALL_BACK).E_I.L2);
  });

  it('gives the 23-hour spring-forward day exactly its register difference', async () => {
    const nextDay = fromWall(TZ, 2026, 3, 30);
    expect(nextDay - SPRING_FORWARD).toBe(23 * 3600);
    nowMs = (nextDay + 86400) * 1000;
    const frames = framesAt(instants(SPRING_FORWARD - 1800, nextDay + 1800, 300));
    await feed(frames);
    const rows = await expectRollupEqualsQuarters();
    const at = (ts: number) => frames.find((f) => f.ts === ts)!;
    expect(dayTotal(rows, SPRING_FORWARD, 'e_i_wh')).toBe(
      registerTotal(at(SPRING_FORWARD), at(nextDay), 'E_I'),
    );
    expect(dayTotal(rows, SPRING_FORWARD, 'q1_varh')).toBe(
      registerTotal(at(SPRING_FORWARD), at(nextDay), 'Q1'),
    );
  });

  it('spreads a gap across midnight into both days and counts a register reset as the quarters do', async () => {
    const nextDay = fromWall(TZ, 2026, 10, 26);
    // No frames from 22:00 to 03:00 (the link was down over midnight), then the meter resets.
    const gap: [number, number] = [nextDay - 2 * 3600, nextDay + 3 * 3600];
    const frames = framesAt(
      instants(FALL_BACK + 12 * 3600, nextDay + 12 * 3600, 60, gap),
      nextDay + 6 * 3600,
    );
    await feed(frames);
    const rows = await expectRollupEqualsQuarters();
    expect(rows.size).toBe(2);
    // The reset still adds what the meter counted since the last reading: two days together are
    // the energy the registers integrated, readings before and after the reset joined.
    const reset = frames.findIndex((f) => f.ts >= nextDay + 6 * 3600);
    const counted =
      registerTotal(frames[0]!, frames[reset - 1]!, 'E_I') +
      registerTotal({ ...frames[reset - 1]!, E_I: { L1: 0, L2: 0, L3: 0 } }, frames.at(-1)!, 'E_I');
    expect(dayTotal(rows, FALL_BACK, 'e_i_wh')! + dayTotal(rows, nextDay, 'e_i_wh')!).toBe(counted);
    expect(dayTotal(rows, FALL_BACK, 'e_i_wh')).toBeGreaterThan(0);
    expect(dayTotal(rows, nextDay, 'e_i_wh')).toBeGreaterThan(0);
  });

  it('does not count redelivered frames again, also after a restart', async () => {
    const frames = framesAt(instants(FALL_BACK + 3600, FALL_BACK + 8 * 3600, 30));
    await feed(frames.slice(0, 600));
    await feed(frames.slice(400));
    await feed(frames);
    const rows = await expectRollupEqualsQuarters();
    expect(dayTotal(rows, FALL_BACK, 'e_i_wh')).toBe(registerTotal(frames[0]!, frames.at(-1)!, 'E_I'));
  });

  it('adds to the days only the backfilled quarters that were not there yet', async () => {
    const repo = createTelemetryRepository(database, { tz: TZ });
    const q = (tsSec: number, wh: number): QuarterRow => ({
      deviceId,
      tsSec,
      values: ENERGY_COLUMNS.map((_, i) => wh + i),
    });
    await repo.insertHistory(
      instants(FALL_BACK, FALL_BACK + 25 * 3600 - 900, 900).map((t) => q(t, 10)),
      [],
    );
    // A second run over an overlapping range keeps the stored quarters (value 10), adds the rest.
    await repo.insertHistory(
      instants(FALL_BACK + 20 * 3600, FALL_BACK + 40 * 3600, 900).map((t) => q(t, 1000)),
      [],
    );
    const rows = await expectRollupEqualsQuarters();
    expect(dayTotal(rows, FALL_BACK, 'e_i_l1_wh')).toBe(100 * 10);
    expect(dayTotal(rows, fromWall(TZ, 2026, 10, 26), 'e_i_l1_wh')).toBe(61 * 1000);
  });

  it('builds the rollup from stored quarters on upgrade, and again in a new zone when TZ changes', async () => {
    const frames = framesAt(instants(FALL_BACK - 6 * 3600, FALL_BACK + 30 * 3600, 300));
    await feed(frames);
    const incremental = await expectRollupEqualsQuarters();
    // A store from before the rollup: quarters only.
    await db().deleteFrom('energy_days').execute();
    await db().deleteFrom('energy_rollup').execute();
    await database.db.transaction().execute((trx) => rebuildDayRollup<DB>(trx, database.dialect, TZ));
    expect(await expectRollupEqualsQuarters()).toEqual(incremental);
    expect(await rollupZone(database.db)).toBe(TZ);
    expect(await ensureDayRollup(database, TZ)).toEqual({ rebuilt: false });

    expect(await ensureDayRollup(database, 'America/New_York')).toEqual({ rebuilt: true });
    expect(await rollupZone(database.db)).toBe('America/New_York');
    const shifted = await expectRollupEqualsQuarters('America/New_York');
    expect([...shifted.keys()]).not.toEqual([...incremental.keys()]);
  });

  it('the first start after migration 005 builds the rollup from the quarter-hours of a store that predates it', async () => {
    const frames = framesAt(instants(SPRING_FORWARD - 7200, SPRING_FORWARD + 26 * 3600, 600));
    nowMs = (SPRING_FORWARD + 3 * 86400) * 1000;
    await feed(frames);
    const expected = await expectRollupEqualsQuarters();
    // A store with the schema before 005 holding the same device and quarters; then upgrade it
    // and start in the installation's zone.
    const devices = await database.db.selectFrom('devices').selectAll().execute();
    const quarters = await db().selectFrom('energy_quarters').selectAll().execute();
    const current = database;
    const older = await openTestDatabase(dialect, { upTo: '004_precision' });
    try {
      // The rows as the older schema holds them: without the columns later migrations added.
      const olderDevices = devices.map(
        ({ family: _f, family_topic: _t, family_tz: _z, family_mapping: _m, ...d }) => d,
      );
      await older.db.insertInto('devices').values(olderDevices).execute();
      await older.db.withTables<TelemetryDB>().insertInto('energy_quarters').values(quarters).execute();
      database = older;
      await migrateToLatest(database);
      expect(await rollupZone(database.db)).toBeNull();
      expect(await ensureDayRollup(database, TZ)).toEqual({ rebuilt: true });
      expect(await rollupZone(database.db)).toBe(TZ);
      expect(await expectRollupEqualsQuarters()).toEqual(expected);
      expect(expected.size).toBe(3);
      // Writes after the upgrade keep adding to it.
      const repo = createTelemetryRepository(database, { tz: TZ });
      await repo.insertHistory(
        [{ deviceId, tsSec: SPRING_FORWARD + 30 * 86400, values: ENERGY_COLUMNS.map(() => 5) }],
        [],
      );
      expect((await expectRollupEqualsQuarters()).size).toBe(4);
    } finally {
      database = current;
      await older.dispose();
    }
  });

  it('keeps the days equal to the quarters left after pruning, also the day the cutoff cuts', async () => {
    const frames = framesAt(instants(FALL_BACK - 86400, FALL_BACK + 2 * 86400, 600));
    await feed(frames);
    await expectRollupEqualsQuarters();
    const repo = createTelemetryRepository(database, { tz: TZ });
    const cutoff = FALL_BACK + 13 * 3600 + 900;
    await repo.prune({ minutesSec: 1e9, quartersSec: 86400, statusChangesSec: 1e9 }, (cutoff + 86400) * 1000);
    const rows = await expectRollupEqualsQuarters();
    expect(rows.has(`${deviceId}:${FALL_BACK - 86400}`)).toBe(false);
    expect(rows.has(`${deviceId}:${FALL_BACK}`)).toBe(true);
  });
});
