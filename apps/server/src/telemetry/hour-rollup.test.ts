import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createMeterModel, createRegisters, meterProfile } from '@meterportal/simulator';
import { deviceTopic, encodePayload, type LiveFrame } from '@meterportal/protocol';
import { DEFAULT_TZ } from '../config/config';
import type { Database } from '../db/database';
import { migrateToLatest } from '../db/migrations/index';
import type { MinuteValueColumn, TelemetryDB } from '../db/schema.telemetry';
import { historyRepository } from '../history/history.repository';
import { MINUTE_COLUMNS } from './columns';
import { hourAggregate } from './hour-rollup';
import { createIngest, type Ingest } from './ingest';
import { createTelemetryMetrics } from './metrics';
import { createTelemetryRepository } from './telemetry.repository';
import { insertDevice, memoryLogger, openTestDatabase } from './testing';
import { DIALECTS } from '../test/dialects';

const MAC = 'EM-70-B3-D5-01-00-13';
const T0 = 1_781_000_000 - (1_781_000_000 % 3600); // an hour start
const enc = (x: unknown) => new TextEncoder().encode(encodePayload(x));
const AVG_COLUMNS = MINUTE_COLUMNS.filter((c) => c.endsWith('_avg'));

/** Frames at the given instants, registers integrating the simulated powers between them. */
function framesAt(times: readonly number[]): LiveFrame[] {
  const model = createMeterModel(meterProfile(1, MAC));
  const regs = createRegisters(3);
  let prev = times[0] ?? 0;
  return times.map((ts) => {
    const s = model.sample(ts);
    regs.integrate(s, ts - prev);
    prev = ts;
    return { ts, ...s, ...regs.read() };
  });
}

/**
 * How frames reach the store: in deliveries, each after a restart of the pipeline (its open
 * minute committed with its position, as a stop does) and each starting up to `overlap` frames
 * before the previous one ended (the broker delivers those again).
 */
const Scenario = fc.record({
  startOffsetSec: fc.integer({ min: 0, max: 3599 }),
  stepSec: fc.constantFrom(1, 2, 7, 13),
  durationSec: fc.integer({ min: 600, max: 4 * 3600 }),
  gap: fc.option(fc.tuple(fc.integer({ min: 0, max: 4 * 3600 }), fc.integer({ min: 60, max: 5400 })), {
    nil: undefined,
  }),
  deliveries: fc.array(
    fc.record({
      cutAt: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
      overlap: fc.integer({ min: 0, max: 90 }),
    }),
    { maxLength: 3 },
  ),
  ranges: fc.array(
    fc.tuple(fc.integer({ min: -3600, max: 5 * 3600 }), fc.integer({ min: 1, max: 6 * 3600 })),
    { minLength: 1, maxLength: 4 },
  ),
});

describe.each(DIALECTS)('hourly rollup on $name', ({ name: dialect }) => {
  let database: Database & { dispose(): Promise<void> };
  let deviceId: number;
  let nowMs = 0;
  const clock = { nowMs: () => nowMs };
  const db = () => database.db.withTables<TelemetryDB>();
  const pipeline = () =>
    createIngest({
      repository: createTelemetryRepository(database, { tz: DEFAULT_TZ }),
      logger: memoryLogger(),
      clock,
      metrics: createTelemetryMetrics(),
    });

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    deviceId = await insertDevice(database, MAC);
  });
  afterEach(async () => {
    await database.dispose();
  });

  async function deliver(ingest: Ingest, frames: readonly LiveFrame[]): Promise<void> {
    for (let i = 0; i < frames.length; i += 300) {
      for (const f of frames.slice(i, i + 300)) ingest.handle(deviceTopic(MAC, 'live'), enc(f));
      await ingest.settled();
      await ingest.flush();
    }
  }

  /** Every stored hour next to the same aggregate computed now from the minutes. */
  async function storedAndRecomputed() {
    const cols = MINUTE_COLUMNS.join(', ');
    const stored = await db()
      .selectFrom('telemetry_hours')
      .selectAll()
      .where('device_id', '=', deviceId)
      .orderBy('hour_sec')
      .execute();
    const { rows } = await sql
      .raw<Record<string, number>>(
        `SELECT m.device_id, m.ts_sec - m.ts_sec % 3600 AS hour_sec, count(*) AS minutes, sum(m.samples) AS samples,
           ${MINUTE_COLUMNS.map((c) => `${hourAggregate(c)} AS ${c}`).join(', ')}
         FROM telemetry_minutes m WHERE m.device_id = ${deviceId} GROUP BY m.device_id, m.ts_sec - m.ts_sec % 3600 ORDER BY 2`,
      )
      .execute(database.db);
    const norm = (r: Record<string, unknown>) =>
      Object.fromEntries(
        ['device_id', 'hour_sec', 'minutes', 'samples', ...cols.split(', ')].map((k) => [k, Number(r[k])]),
      );
    return { stored: stored.map(norm), recomputed: rows.map(norm) };
  }

  it('HOUR profiles from the rollup equal those averaged from the minutes, whatever the deliveries', async () => {
    const history = historyRepository(database);
    await fc.assert(
      fc.asyncProperty(Scenario, async (s) => {
        await db().deleteFrom('telemetry_hours').execute();
        await db().deleteFrom('telemetry_minutes').execute();
        await db().deleteFrom('energy_quarters').execute();
        await db().deleteFrom('energy_days').execute();
        await db().deleteFrom('telemetry_cursors').execute();
        await db().deleteFrom('telemetry_hours_dirty').execute();
        const start = T0 + s.startOffsetSec;
        const times: number[] = [];
        for (let t = start; t < start + s.durationSec; t += s.stepSec) {
          if (s.gap && t >= start + s.gap[0] && t < start + s.gap[0] + s.gap[1]) continue;
          times.push(t);
        }
        const frames = framesAt(times);
        nowMs = (start + s.durationSec) * 1000;
        // Cut points in order; each later delivery starts `overlap` frames before its cut.
        const cuts = [...s.deliveries].sort((a, b) => a.cutAt - b.cutAt);
        let from = 0;
        for (const c of cuts) {
          const to = Math.floor(c.cutAt * frames.length);
          if (to <= from) continue;
          const ingest = pipeline();
          await deliver(ingest, frames.slice(Math.max(0, from - c.overlap), to));
          from = to;
        }
        const last = pipeline();
        await last.recover();
        await deliver(last, frames.slice(Math.max(0, from - (cuts.at(-1)?.overlap ?? 0))));
        await last.close();

        // Before the marked hours are recomputed, reads take them from their minutes; after, from
        // the rollup: the same answer both times.
        const readsEqual = async () => {
          for (const [offset, length] of s.ranges) {
            const a = T0 + offset;
            const b = a + length;
            const fromRollup = await history.hourAverages(deviceId, a, b, AVG_COLUMNS);
            const fromMinutes = await history.minuteAverages(deviceId, a, b, AVG_COLUMNS, 3600);
            expect(fromRollup).toEqual(fromMinutes);
          }
        };
        await readsEqual();
        const repository = createTelemetryRepository(database, { tz: DEFAULT_TZ });
        while ((await repository.refreshEndedHours(T0 + 10 * 3600, 2)) > 0);
        expect(await db().selectFrom('telemetry_hours_dirty').selectAll().execute()).toEqual([]);
        const { stored, recomputed } = await storedAndRecomputed();
        expect(recomputed.length).toBeGreaterThan(0);
        expect(stored).toEqual(recomputed);
        await readsEqual();
      }),
      { numRuns: 8, seed: 13 },
    );
  }, 240_000);

  it('recomputes an hour once, by itself, after it ended, and not at every minute', async () => {
    const ingest = pipeline();
    ingest.start();
    try {
      nowMs = (T0 + 1800) * 1000;
      await deliver(ingest, framesAt(Array.from({ length: 1800 }, (_, k) => T0 + k)));
      const marks = () => db().selectFrom('telemetry_hours_dirty').selectAll().execute();
      // Within the hour: its minutes are stored and the hour only marked.
      expect(await db().selectFrom('telemetry_hours').selectAll().execute()).toEqual([]);
      expect((await marks()).map((m) => [Number(m.hour_sec), m.device_id])).toEqual([[T0, deviceId]]);
      // Past its end (the minute grace, a minute and the quiet seconds): recomputed and unmarked.
      nowMs = (T0 + 3600 + 5 + 60 + 10 + 1) * 1000;
      await ingest.flush();
      expect(await marks()).toEqual([]);
      const { stored, recomputed } = await storedAndRecomputed();
      expect(stored.map((h) => [h.hour_sec, h.minutes])).toEqual([[T0, 30]]);
      expect(stored).toEqual(recomputed);
    } finally {
      await ingest.close();
    }
  });

  it('keeps the hour the pruning cutoff cuts equal to its remaining minutes, and drops older hours', async () => {
    const frames = framesAt(Array.from({ length: (3 * 3600) / 5 }, (_, i) => T0 + i * 5));
    nowMs = (T0 + 3 * 3600) * 1000;
    const ingest = pipeline();
    await deliver(ingest, frames);
    await ingest.close();
    const cutoff = T0 + 3600 + 1800;
    const repo = createTelemetryRepository(database, { tz: DEFAULT_TZ });
    while ((await repo.refreshEndedHours(T0 + 10 * 3600, 100)) > 0);
    const minutesSec = Math.floor(nowMs / 1000) - cutoff;
    await repo.prune(
      { minutesSec, quartersSec: 10 * 365 * 86400, statusChangesSec: 10 * 365 * 86400 },
      nowMs,
    );
    const { stored, recomputed } = await storedAndRecomputed();
    expect(stored.map((h) => h.hour_sec)).toEqual([T0 + 3600, T0 + 7200]);
    expect(stored[0]!.minutes).toBe(30);
    expect(stored).toEqual(recomputed);
  });

  it('migration 009 builds the hours from the minutes of a store that predates it', async () => {
    await database.dispose();
    database = await openTestDatabase(dialect, { upTo: '008_wire_durable_ingest' });
    deviceId = await insertDevice(database, MAC);
    const values = Object.fromEntries(MINUTE_COLUMNS.map((c, i) => [c, i + 0.5])) as Record<
      MinuteValueColumn,
      number
    >;
    const rows = Array.from({ length: 150 }, (_, k) => ({
      device_id: deviceId,
      ts_sec: T0 + k * 60,
      samples: 60 - (k % 7),
      ...values,
      p_l1_avg: Math.sin(k) * 1000,
      p_l1_max: 1000 + k,
      p_l1_min: -k,
    }));
    for (let i = 0; i < rows.length; i += 20) {
      await db()
        .insertInto('telemetry_minutes')
        .values(rows.slice(i, i + 20))
        .execute();
    }
    await migrateToLatest(database);
    const { stored, recomputed } = await storedAndRecomputed();
    expect(stored.map((h) => [h.hour_sec, h.minutes])).toEqual([
      [T0, 60],
      [T0 + 3600, 60],
      [T0 + 7200, 30],
    ]);
    expect(stored).toEqual(recomputed);
    expect(stored[1]!.p_l1_max).toBe(1119);
  });
});
