// Faults on the device wire that must harm only the meter they come from: rows the database
// refuses, and frames stamped by a clock that is wrong. Also: a message is acknowledged only once
// what it contributes is committed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createMeterModel, createRegisters, meterProfile } from '@meterportal/simulator';
import {
  deviceTopic,
  encodePayload,
  type DeviceMessage,
  type MeasuredLiveFrame,
} from '@meterportal/protocol';
import { DEFAULT_TZ } from '../config/config';
import { dropPgSchema, openDatabase, type Database } from '../db/database';
import { migrateToLatest, migrateUpTo } from '../db/migrations/index';
import type { TelemetryDB } from '../db/schema.telemetry';
import { CLOCK_AHEAD_TOLERANCE_SEC, createIngest } from './ingest';
import { createTelemetryMetrics } from './metrics';
import { createTelemetryRepository } from './telemetry.repository';
import { insertDevice, memoryLogger, openTestDatabase, until } from './testing';
import { DIALECTS } from '../test/dialects';

const A = 'EM-70-B3-D5-07-00-01';
const B = 'EM-70-B3-D5-07-00-02';
const T0 = 1_781_000_100; // a whole minute
const enc = (x: unknown) => new TextEncoder().encode(encodePayload(x));

function frames(mac: string, count: number, startSec = T0): MeasuredLiveFrame[] {
  const model = createMeterModel(meterProfile(1, mac));
  const regs = createRegisters(7);
  return Array.from({ length: count }, (_, i) => {
    const s = model.sample(startSec + i);
    regs.integrate(s, 1);
    return { ts: startSec + i, ...s, ...regs.read() };
  });
}

describe.each(DIALECTS)('device wire faults on $name', ({ name: dialect }) => {
  let database: Database & { dispose(): Promise<void> };
  let nowMs = (T0 + 60) * 1000;
  const clock = { nowMs: () => nowMs };
  const db = () => database.db.withTables<TelemetryDB>();
  const build = () => {
    const metrics = createTelemetryMetrics();
    const logger = memoryLogger();
    const ingest = createIngest({
      repository: createTelemetryRepository(database, { tz: DEFAULT_TZ }),
      logger,
      clock,
      metrics,
    });
    return { ingest, metrics, logger };
  };
  const live = (ingest: ReturnType<typeof build>['ingest'], mac: string, fs: MeasuredLiveFrame[]) => {
    for (const f of fs) ingest.handle(deviceTopic(mac, 'live'), enc(f));
  };
  const counter = async (
    c: { get(): Promise<{ values: { value: number; labels: Record<string, unknown> }[] }> },
    label?: string,
  ) =>
    (await c.get()).values
      .filter((v) => label === undefined || Object.values(v.labels).includes(label))
      .reduce((s, v) => s + v.value, 0);
  let ids: { a: number; b: number };

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    ids = { a: await insertDevice(database, A), b: await insertDevice(database, B) };
    nowMs = (T0 + 60) * 1000;
  });
  afterEach(async () => {
    await database.dispose();
  });

  it("stores the other meters when the database refuses one meter's rows, and drops only those", async () => {
    const { ingest, metrics, logger } = build();
    live(ingest, A, frames(A, 60));
    live(ingest, B, frames(B, 30));
    await until(() => ingest.pendingRows() >= 5); // A: minute, quarter, position; B: quarter, position
    // B is removed from the portal while its rows wait: every row of it breaks a foreign key.
    await database.db.deleteFrom('devices').where('id', '=', ids.b).execute();
    await ingest.flush();
    const minutes = await db().selectFrom('telemetry_minutes').select(['device_id', 'samples']).execute();
    expect(minutes).toEqual([{ device_id: ids.a, samples: 60 }]);
    expect(
      Number(
        (
          await db()
            .selectFrom('telemetry_cursors')
            .select('ts_sec')
            .where('device_id', '=', ids.a)
            .executeTakeFirstOrThrow()
        ).ts_sec,
      ),
    ).toBe(T0 + 59);
    expect(await counter(metrics.storeRefusals)).toBe(1);
    expect(await counter(metrics.commitFailures)).toBe(0);
    expect(logger.lines.filter((l) => l.msg?.includes('refused this device'))).toHaveLength(1);
    expect(ingest.pendingRows()).toBe(0);
    await ingest.close();
  });

  // SQLite stores a NUL in a text; PostgreSQL refuses it.
  if (dialect === 'postgres')
    it("stores a meter's energy and minutes and the other meters when its state text holds a NUL", async () => {
      const { ingest, metrics } = build();
      live(ingest, A, frames(A, 60));
      live(ingest, B, frames(B, 60));
      await until(() => ingest.pendingRows() >= 6);
      // Past decoding, as a message that slipped through it would be.
      const poison: DeviceMessage = {
        kind: 'state',
        mac: B,
        payload: { status: 'ONLINE', fw: '1.0\u0000x' },
      };
      ingest.accept(poison);
      await ingest.flush();
      const minutes = await db()
        .selectFrom('telemetry_minutes')
        .select(['device_id', 'samples'])
        .orderBy('device_id')
        .execute();
      expect(minutes).toEqual([
        { device_id: ids.a, samples: 60 },
        { device_id: ids.b, samples: 60 },
      ]);
      expect(
        await db().selectFrom('device_states').selectAll().where('device_id', '=', ids.b).execute(),
      ).toEqual([]);
      expect(await counter(metrics.storeRefusals)).toBe(1);
      await ingest.close();
    });

  it('refuses frames from a clock ahead or far behind without moving the position, and shows the clock as wrong until it is right', async () => {
    const { ingest, metrics } = build();
    const fs = frames(A, 10, T0 + 50);
    live(ingest, A, fs.slice(0, 5));
    await until(() => ingest.pendingRows() > 0);
    await ingest.flush();
    const year2100 = { ...fs[5]!, ts: 4_102_444_800 };
    const longAgo = { ...fs[5]!, ts: T0 - 40 * 86400 };
    const position = async () =>
      Number((await db().selectFrom('telemetry_cursors').select('ts_sec').executeTakeFirstOrThrow()).ts_sec);
    const skew = async () =>
      (
        await db()
          .selectFrom('device_states')
          .select('clock_skew_sec')
          .where('device_id', '=', ids.a)
          .executeTakeFirst()
      )?.clock_skew_sec;
    live(ingest, A, [year2100]);
    await ingest.flush();
    expect(await position()).toBe(T0 + 54);
    expect(await skew()).toBe(2_000_000_000); // about 74 years, as far as the column goes
    live(ingest, A, [longAgo]);
    await ingest.flush();
    expect(await position()).toBe(T0 + 54);
    expect(await skew()).toBe(-40 * 86400 - 60);
    expect(await counter(metrics.clockRefusals, 'clock_ahead')).toBe(1);
    expect(await counter(metrics.clockRefusals, 'clock_behind')).toBe(1);
    // Just within the tolerance is accepted; later correct frames are not taken for repeats.
    nowMs = (fs[9]!.ts - CLOCK_AHEAD_TOLERANCE_SEC) * 1000;
    live(ingest, A, fs.slice(5));
    await ingest.flush();
    expect(await position()).toBe(T0 + 59);
    expect(await skew()).toBeNull();
    await ingest.close();
    expect(
      (await db().selectFrom('telemetry_minutes').select('samples').executeTakeFirstOrThrow()).samples,
    ).toBe(10);
  });

  it('acknowledges a message only once the commit holding it is done', async () => {
    const { ingest } = build();
    const acked: number[] = [];
    for (const f of frames(A, 5))
      ingest.handle(deviceTopic(A, 'live'), enc(f), undefined, () => acked.push(f.ts));
    ingest.handle(deviceTopic(A, 'live'), new Uint8Array([0x7b]), undefined, () => acked.push(-1));
    await until(() => ingest.pendingRows() > 0);
    await new Promise((r) => setTimeout(r, 50));
    expect(acked).toEqual([]);
    await ingest.flush();
    expect(acked.sort()).toEqual([-1, T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4].sort());
    // The open minute was committed with the position: a new process goes on from it.
    await ingest.close();
    const cursor = await db()
      .selectFrom('telemetry_cursors')
      .select(['ts_sec', 'open_minute'])
      .executeTakeFirstOrThrow();
    expect(Number(cursor.ts_sec)).toBe(T0 + 4);
  });

  it('rebuilds the open minute of acknowledged frames after a crash and completes it exactly', async () => {
    const fs = frames(A, 60);
    const a = build();
    live(a.ingest, A, fs.slice(0, 25));
    await until(() => a.ingest.pendingRows() > 0);
    await new Promise((r) => setTimeout(r, 50));
    await a.ingest.flush();
    // The process dies here: no close(), its open minute is only in the store.
    const b = build();
    expect(await b.ingest.recover()).toBe(1);
    live(b.ingest, A, fs.slice(20)); // the broker delivers again what was not acknowledged
    await new Promise((r) => setTimeout(r, 50));
    await b.ingest.close();
    const m = await db()
      .selectFrom('telemetry_minutes')
      .select(['samples', 'u_l1_avg'])
      .executeTakeFirstOrThrow();
    expect(m.samples).toBe(60);
    expect(m.u_l1_avg).toBeCloseTo(fs.reduce((s, f) => s + f.U.L1, 0) / 60, 6);
    expect(await counter(b.metrics.duplicates)).toBe(5);
  });
});

describe.each(DIALECTS)('the durable-ingest upgrade on $name', ({ name: dialect }) => {
  it('puts a position stored in the future back to the time of the upgrade and marks the clock as ahead', async () => {
    const schema = `up_${randomBytes(5).toString('hex')}`;
    const url = process.env.TEST_DATABASE_URL;
    const database =
      dialect === 'postgres'
        ? await openDatabase({ url, pgSchema: schema, poolSize: 2 })
        : await openDatabase({ sqliteFile: ':memory:' });
    try {
      await migrateUpTo(database, '005_history_rollup');
      const [ahead, right] = [await insertDevice(database, A), await insertDevice(database, B)];
      const nowSec = Math.floor(Date.now() / 1000);
      const db = database.db.withTables<TelemetryDB>() as unknown as Kysely<
        Record<string, Record<string, unknown>>
      >;
      await db
        .insertInto('telemetry_cursors')
        .values([
          { device_id: ahead, ts_sec: 4_102_444_800, registers: '[1]' },
          { device_id: right, ts_sec: nowSec - 10, registers: '[2]' },
        ])
        .execute();
      await db
        .insertInto('device_states')
        .values({ device_id: ahead, status: 1, connection: null, fw: null, model: null, changed_at_ms: 0 })
        .execute();
      await migrateToLatest(database);
      const rows = await database.db
        .withTables<TelemetryDB>()
        .selectFrom('telemetry_cursors')
        .select(['device_id', 'ts_sec'])
        .orderBy('device_id')
        .execute();
      const after = Math.floor(Date.now() / 1000);
      expect(Number(rows[0]!.ts_sec)).toBeGreaterThanOrEqual(nowSec);
      expect(Number(rows[0]!.ts_sec)).toBeLessThanOrEqual(after);
      expect(Number(rows[1]!.ts_sec)).toBe(nowSec - 10);
      const state = await database.db
        .withTables<TelemetryDB>()
        .selectFrom('device_states')
        .select('clock_skew_sec')
        .where('device_id', '=', ahead)
        .executeTakeFirstOrThrow();
      expect(state.clock_skew_sec).toBeGreaterThan(2_000_000_000 - 1);
    } finally {
      await database.close();
      if (dialect === 'postgres') await dropPgSchema(url!, schema);
    }
  });
});
