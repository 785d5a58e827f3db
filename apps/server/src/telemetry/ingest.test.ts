import { DEFAULT_TZ } from '../config/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHistory, createMeterModel, createRegisters, meterProfile } from '@meterportal/simulator';
import { deviceTopic, encodePayload, type MeasuredLiveFrame } from '@meterportal/protocol';
import type { Database } from '../db/database';
import type { TelemetryDB } from '../db/schema.telemetry';
import { createIngest } from './ingest';
import { createTelemetryMetrics } from './metrics';
import { createTelemetryRepository } from './telemetry.repository';
import { insertDevice, memoryLogger, openTestDatabase } from './testing';
import { DIALECTS } from '../test/dialects';

const MAC = 'EM-70-B3-D5-01-00-01';
const T0 = 1_781_000_137; // mid-minute, mid-quarter
const enc = (x: unknown) => new TextEncoder().encode(encodePayload(x));

function frames(count: number, startSec = T0): MeasuredLiveFrame[] {
  const model = createMeterModel(meterProfile(1, MAC));
  const regs = createRegisters(42);
  const out: MeasuredLiveFrame[] = [];
  for (let i = 0; i < count; i++) {
    const ts = startSec + i;
    const s = model.sample(ts);
    regs.integrate(s, 1);
    out.push({ ts, ...s, ...regs.read() });
  }
  return out;
}

describe.each(DIALECTS)('ingest on $name', ({ name: dialect }) => {
  let database: Database & { dispose(): Promise<void> };
  let nowMs = T0 * 1000;
  const clock = { nowMs: () => nowMs };
  const build = () => {
    const metrics = createTelemetryMetrics();
    const logger = memoryLogger();
    const ingest = createIngest({
      repository: createTelemetryRepository(database, { tz: DEFAULT_TZ }),
      logger,
      clock,
      metrics,
    });
    built.push(ingest);
    return { ingest, metrics, logger };
  };
  const built: { settled(): Promise<void> }[] = [];
  const db = () => database.db.withTables<TelemetryDB>();
  /** Until every device look-up under way has ended (a loaded database answers slowly). */
  const settle = async () => {
    await new Promise((r) => setTimeout(r, 30));
    for (const i of built) await i.settled();
  };

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await insertDevice(database, MAC);
    nowMs = T0 * 1000;
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('stores minute aggregates and quarter energy equal to the register difference', async () => {
    const { ingest } = build();
    const fs = frames(1900);
    nowMs = fs.at(-1)!.ts * 1000; // a backlog, delivered at once
    for (const f of fs) ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    await settle();
    await ingest.close();
    const q = await db().selectFrom('energy_quarters').selectAll().orderBy('ts_sec').execute();
    expect(q.map((r) => Number(r.ts_sec))).toEqual([
      T0 - (T0 % 900),
      T0 - (T0 % 900) + 900,
      T0 - (T0 % 900) + 1800,
    ]);
    const first = fs[0]!;
    const last = fs.at(-1)!;
    const sum = (col: 'e_i_l1_wh' | 'e_i_wh' | 'q1_l2_varh' | 's_e_vah') =>
      q.reduce((s, r) => s + Number(r[col]), 0);
    expect(sum('e_i_l1_wh')).toBe(last.E_I.L1 - first.E_I.L1);
    expect(sum('q1_l2_varh')).toBe(last.Q1.L2 - first.Q1.L2);
    const total = (f: MeasuredLiveFrame) => f.E_I.L1 + f.E_I.L2 + f.E_I.L3;
    expect(sum('e_i_wh')).toBe(total(last) - total(first));
    expect(sum('s_e_vah')).toBe(
      last.S_E.L1 + last.S_E.L2 + last.S_E.L3 - first.S_E.L1 - first.S_E.L2 - first.S_E.L3,
    );

    const m = await db().selectFrom('telemetry_minutes').selectAll().orderBy('ts_sec').execute();
    expect(m.length).toBe(new Set(fs.map((f) => f.ts - (f.ts % 60))).size);
    const row = m[1]!;
    const inMinute = fs.filter((f) => f.ts >= Number(row.ts_sec) && f.ts < Number(row.ts_sec) + 60);
    expect(row.samples).toBe(60);
    const us = inMinute.map((f) => f.U.L2);
    expect(row.u_l2_min).toBeCloseTo(Math.min(...us), 6);
    expect(row.u_l2_max).toBeCloseTo(Math.max(...us), 6);
    expect(row.u_l2_avg).toBeCloseTo(us.reduce((a, b) => a + b, 0) / us.length, 6);
    expect(row.f_avg).toBeGreaterThan(49.9);
  });

  it('ignores redelivered frames, also after a restart', async () => {
    const fs = frames(600);
    nowMs = fs.at(-1)!.ts * 1000;
    const a = build();
    for (const f of fs.slice(0, 400)) a.ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    await a.ingest.settled();
    await a.ingest.flush();
    // Restart: a new pipeline over the same store gets frames 300..599 again from the broker.
    const b = build();
    for (const f of fs.slice(300)) b.ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    await b.ingest.settled();
    await b.ingest.close();
    const q = await db().selectFrom('energy_quarters').select(['e_i_l3_wh', 's_e_l1_vah']).execute();
    expect(q.reduce((s, r) => s + Number(r.e_i_l3_wh), 0)).toBe(fs.at(-1)!.E_I.L3 - fs[0]!.E_I.L3);
    expect(q.reduce((s, r) => s + Number(r.s_e_l1_vah), 0)).toBe(fs.at(-1)!.S_E.L1 - fs[0]!.S_E.L1);
    expect(await b.metrics.duplicates.get()).toMatchObject({ values: [{ value: 100 }] });
  });

  it('never counts energy twice when two ingest processes receive the same device', async () => {
    const fs = frames(900);
    nowMs = fs.at(-1)!.ts * 1000;
    const a = build();
    const b = build();
    // Both see every frame (e.g. two instances on one subscription), interleaved with commits.
    for (let i = 0; i < fs.length; i += 50) {
      for (const f of fs.slice(i, i + 50)) a.ingest.handle(deviceTopic(MAC, 'live'), enc(f));
      await settle();
      await a.ingest.flush();
      for (const f of fs.slice(i, i + 50)) b.ingest.handle(deviceTopic(MAC, 'live'), enc(f));
      await settle();
      await b.ingest.flush();
    }
    await a.ingest.close();
    await b.ingest.close();
    const q = await db().selectFrom('energy_quarters').select(['e_i_wh']).execute();
    const total = (f: MeasuredLiveFrame) => f.E_I.L1 + f.E_I.L2 + f.E_I.L3;
    expect(q.reduce((s, r) => s + Number(r.e_i_wh), 0)).toBe(total(fs.at(-1)!) - total(fs[0]!));
    const conflicts = (await b.metrics.rejects.get()).values.find(
      (v) => v.labels.reason === 'cursor_conflict',
    );
    expect(conflicts?.value ?? 0).toBeGreaterThan(0);
  });

  it('loses no energy when frames in between never arrive', async () => {
    const fs = frames(3000);
    nowMs = fs.at(-1)!.ts * 1000;
    const { ingest } = build();
    for (const f of [...fs.slice(0, 10), ...fs.slice(2500)]) ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    await settle();
    await ingest.close();
    const q = await db().selectFrom('energy_quarters').select(['e_i_l1_wh']).execute();
    expect(q.reduce((s, r) => s + Number(r.e_i_l1_wh), 0)).toBe(fs.at(-1)!.E_I.L1 - fs[0]!.E_I.L1);
    expect(q.every((r) => Number(r.e_i_l1_wh) >= 0)).toBe(true);
  });

  it('counts and logs once per burst malformed, unknown-device and wrong-topic messages, and carries on', async () => {
    const { ingest, metrics, logger } = build();
    for (let i = 0; i < 50; i++) ingest.handle(deviceTopic(MAC, 'live'), new Uint8Array([0x7b, i]));
    ingest.handle('meters/EM-70-B3-D5-09-09-09/live', enc(frames(1)[0]));
    ingest.handle(deviceTopic(MAC, 'cmd/req'), enc({ id: 'x', cmd: 'RELAY', state: 'OPEN' }));
    ingest.handle(deviceTopic(MAC, 'live'), enc(frames(1)[0]), 'EM-70-B3-D5-01-00-02');
    ingest.handle(deviceTopic(MAC, 'live'), enc(frames(1)[0]));
    await settle();
    await ingest.close();
    const byReason = Object.fromEntries(
      (await metrics.rejects.get()).values.map((v) => [v.labels.reason, v.value]),
    );
    expect(byReason).toMatchObject({ json: 50, unknown_device: 1, wrong_topic: 2 });
    expect(logger.lines.filter((l) => (l.obj as { reason?: string }).reason === 'json')).toHaveLength(1);
    expect(await db().selectFrom('telemetry_cursors').select('ts_sec').execute()).toEqual([{ ts_sec: T0 }]);
  });

  it('stores each online-status transition once, with the last will keeping fw and connection', async () => {
    const { ingest } = build();
    const state = (x: object) => ingest.handle(deviceTopic(MAC, 'state'), enc(x));
    state({ status: 'ONLINE', fw: '2.4.1', connection: 'BT_MQTT_DB', device: 'EM-S1' });
    await settle();
    nowMs += 1000;
    state({ status: 'ONLINE', fw: '2.4.1', connection: 'BT_MQTT_DB', device: 'EM-S1' });
    nowMs += 1000;
    state({ status: 'DATABASE_UPDATE', connection: 'BT_MQTT_DB' });
    nowMs += 1000;
    state({ status: 'OFFLINE' });
    await ingest.close();
    const changes = await db()
      .selectFrom('device_status_changes')
      .select(['status', 'at_ms'])
      .orderBy('id')
      .execute();
    expect(changes).toEqual([
      { status: 1, at_ms: T0 * 1000 },
      { status: 2, at_ms: T0 * 1000 + 2000 },
      { status: 0, at_ms: T0 * 1000 + 3000 },
    ]);
    const s = await db().selectFrom('device_states').selectAll().executeTakeFirstOrThrow();
    expect(s).toMatchObject({ status: 0, fw: '2.4.1', connection: 'BT_MQTT_DB', model: 'EM-S1' });
  });

  it('stores each meter test result once, however often it is delivered, and keeps test state live only', async () => {
    await database.db.updateTable('devices').set({ type: 3 }).where('mac', '=', MAC).execute(); // an analyzer
    const { ingest, metrics } = build();
    const result = (mtime: number, error: number) => ({
      IDN: '1',
      MTIME: mtime,
      ERROR: error,
      INTTIME: 30,
      MCHNLA1: 230.2,
      MPOWERSUM: 3450.5,
    });
    const data = (x: object) => ingest.handle(deviceTopic(MAC, 'accutest/data'), enc(x));
    nowMs = (T0 + 300) * 1000;
    data(result(T0, 0.21));
    data(result(T0, 0.21)); // redelivered within one batch
    data(result(T0 + 300, -0.4));
    ingest.handle(
      deviceTopic(MAC, 'accutest/state'),
      enc({ state: 'RUNNING', IDN: '1', progress: 40, ts: T0 }),
    );
    await settle();
    await ingest.flush();
    data(result(T0, 0.21)); // redelivered after the commit
    data({ IDN: '1', MTIME: 'yesterday', ERROR: 0.1 }); // not a test result
    await settle();
    await ingest.close();
    const rows = await db()
      .selectFrom('meter_tests')
      .select(['idn', 'mtime_sec', 'result'])
      .orderBy('mtime_sec')
      .execute();
    expect(rows.map((r) => [r.idn, Number(r.mtime_sec)])).toEqual([
      ['1', T0],
      ['1', T0 + 300],
    ]);
    expect(JSON.parse(rows[1]!.result)).toEqual(result(T0 + 300, -0.4));
    const byReason = Object.fromEntries(
      (await metrics.rejects.get()).values.map((v) => [v.labels.reason, v.value]),
    );
    expect(byReason).toMatchObject({ schema: 1 });
  });

  it('merges a minute written in two parts into the same row', async () => {
    const fs = frames(120, T0 - (T0 % 60));
    nowMs = fs.at(-1)!.ts * 1000;
    const a = build();
    for (const f of fs.slice(0, 30)) a.ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    await settle();
    await a.ingest.close();
    const b = build();
    for (const f of fs.slice(30)) b.ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    await settle();
    await b.ingest.close();
    const m = await db()
      .selectFrom('telemetry_minutes')
      .select(['ts_sec', 'samples', 'p_l1_avg', 'p_l1_max'])
      .orderBy('ts_sec')
      .execute();
    expect(m.map((r) => r.samples)).toEqual([60, 60]);
    const ps = fs.slice(0, 60).map((f) => f.P.L1);
    expect(m[0]!.p_l1_avg).toBeCloseTo(ps.reduce((x, y) => x + y, 0) / 60, 6);
    expect(m[0]!.p_l1_max).toBeCloseTo(Math.max(...ps), 6);
  });

  it("observes the delay from each minute's end to its commit, also for a minute no later frame closes", async () => {
    const { ingest, metrics } = build();
    const m0 = T0 - (T0 % 60);
    // A whole minute and the first frame of the next, which closes it.
    for (const f of frames(61, m0)) ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    await settle();
    nowMs = (m0 + 60) * 1000 + 1400;
    await ingest.flush();
    const bucket = async (le: number) =>
      (await metrics.minuteDelaySeconds.get()).values.find(
        (v) => v.metricName === 'telemetry_minute_commit_delay_seconds_bucket' && v.labels.le === le,
      )?.value;
    expect([await bucket(1.25), await bucket(1.5)]).toEqual([0, 1]);
    // The meter falls silent: its open minute is written after its end and the grace period.
    nowMs = (m0 + 120 + 5) * 1000 + 600;
    await ingest.flush();
    expect([await bucket(5), await bucket(10)]).toEqual([1, 2]);
    const sum = (await metrics.minuteDelaySeconds.get()).values.find(
      (v) => v.metricName === 'telemetry_minute_commit_delay_seconds_sum',
    )?.value;
    expect(sum).toBeCloseTo(1.4 + 5.6, 6);
    const rows = await db()
      .selectFrom('telemetry_minutes')
      .select(['ts_sec', 'samples'])
      .orderBy('ts_sec')
      .execute();
    expect(rows.map((r) => [Number(r.ts_sec), r.samples])).toEqual([
      [m0, 60],
      [m0 + 60, 1],
    ]);
  });

  it("commits a minute at the first commit after its last second's frame, without waiting for the next minute", async () => {
    const { ingest, metrics } = build();
    const m0 = T0 - (T0 % 60);
    for (const f of frames(60, m0)) ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    await settle();
    nowMs = (m0 + 60) * 1000 + 300;
    await ingest.flush();
    const rows = await db().selectFrom('telemetry_minutes').select(['ts_sec', 'samples']).execute();
    expect(rows.map((r) => [Number(r.ts_sec), r.samples])).toEqual([[m0, 60]]);
    const observed = (await metrics.minuteDelaySeconds.get()).values.find(
      (v) => v.metricName === 'telemetry_minute_commit_delay_seconds_sum',
    )?.value;
    expect(observed).toBeCloseTo(0.3, 6);
    // A late copy of a frame of that minute is a redelivery and does not reopen it.
    ingest.handle(deviceTopic(MAC, 'live'), enc(frames(60, m0)[30]));
    await ingest.close();
    const after = await db().selectFrom('telemetry_minutes').select(['ts_sec', 'samples']).execute();
    expect(after.map((r) => [Number(r.ts_sec), r.samples])).toEqual([[m0, 60]]);
  });

  it('writes a minute once when its frames come late but still come, behind a backlog', async () => {
    const { ingest, metrics } = build();
    const m0 = T0 - (T0 % 60);
    const fs = frames(60, m0);
    // Ingest is 20 s behind: the minute ended long ago, its frames are still arriving.
    nowMs = (m0 + 80) * 1000;
    for (const f of fs.slice(0, 30)) ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    await settle();
    await ingest.flush();
    expect(await db().selectFrom('telemetry_minutes').select('ts_sec').execute()).toEqual([]);
    nowMs += 1000;
    for (const f of fs.slice(30)) ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    await ingest.flush();
    const rows = await db().selectFrom('telemetry_minutes').select(['ts_sec', 'samples']).execute();
    expect(rows.map((r) => [Number(r.ts_sec), r.samples])).toEqual([[m0, 60]]);
    const count = (await metrics.minuteDelaySeconds.get()).values.find(
      (v) => v.metricName === 'telemetry_minute_commit_delay_seconds_count',
    )?.value;
    expect(count).toBe(1);
  });

  it('commits a finished minute soon after it closes, not at the next commit interval', async () => {
    const metrics = createTelemetryMetrics();
    const ingest = createIngest({
      repository: createTelemetryRepository(database, { tz: DEFAULT_TZ }),
      logger: memoryLogger(),
      clock,
      metrics,
      flushIntervalMs: 60_000,
      minuteCommitMs: 50,
    });
    ingest.start();
    const m0 = T0 - (T0 % 60);
    for (const f of frames(60, m0)) ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    let rows: { samples: number }[] = [];
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      rows = await db().selectFrom('telemetry_minutes').select('samples').execute();
    }
    expect(rows).toEqual([{ samples: 60 }]);
    await ingest.close();
  });

  it('prunes each kind by its own retention', async () => {
    const { ingest } = build();
    for (const f of frames(200)) ingest.handle(deviceTopic(MAC, 'live'), enc(f));
    ingest.handle(deviceTopic(MAC, 'state'), enc({ status: 'ONLINE' }));
    await settle();
    await ingest.close();
    const repo = createTelemetryRepository(database, { tz: DEFAULT_TZ });
    const count = async () => [
      (await db().selectFrom('telemetry_minutes').select('ts_sec').execute()).length,
      (await db().selectFrom('energy_quarters').select('ts_sec').execute()).length,
      (await db().selectFrom('device_status_changes').select('id').execute()).length,
    ];
    const before = await count();
    expect(before.every((n) => n > 0)).toBe(true);
    // One hour later: minutes older than 30 min go, quarters and transitions stay.
    await repo.prune({ minutesSec: 1800, quartersSec: 86400, statusChangesSec: 86400 }, (T0 + 3600) * 1000);
    expect(await count()).toEqual([0, before[1], before[2]]);
    await repo.prune({ minutesSec: 1800, quartersSec: 600, statusChangesSec: 60 }, (T0 + 3600) * 1000);
    expect(await count()).toEqual([0, 0, 0]);
  });

  it('keeps history from the simulator consistent with its registers', () => {
    const h = createHistory(1, MAC);
    const qs = [...h.quarters(T0 - (T0 % 900), T0 - (T0 % 900) + 86400)];
    expect(qs).toHaveLength(96);
    expect(qs.every((q) => q.energy.E_I.L1 >= 0 && q.energy.E_E.L1 >= 0)).toBe(true);
  });
});
