import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '@meterportal/simulator';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';
import { energyRowValues, registerChannels } from '../telemetry/columns';
import { createTelemetryRepository, type QuarterRow } from '../telemetry/telemetry.repository';
import { fromWall } from '../history/calendar';

const TZ = 'Europe/Bratislava';
const MAC = '02-4D-50-00-00-21';
const WEEK = 7 * 86400;
/** Training ends here (a Monday, local midnight, far from a clock change). */
const T0 = fromWall(TZ, 2026, 7, 13);
/** The injected fault: 2 kW more from 01:00 to 06:00 local on Wednesday of the second week after. */
const FAULT_FROM = fromWall(TZ, 2026, 7, 22, 1);
const FAULT_TO = fromWall(TZ, 2026, 7, 22, 6);

/** Quarter-hours of the simulated household, with 500 Wh added to each quarter of the fault. */
function simulated(
  deviceId: number,
  mac: string,
  fromSec: number,
  toSec: number,
  fault: boolean,
): QuarterRow[] {
  const rows: QuarterRow[] = [];
  for (const q of createHistory(1, mac).quarters(fromSec, toSec)) {
    if (fault && q.startSec >= FAULT_FROM && q.startSec < FAULT_TO)
      q.energy.E_I = { ...q.energy.E_I, L1: q.energy.E_I.L1 + 500 };
    rows.push({ deviceId, tsSec: q.startSec, values: energyRowValues(registerChannels(q.energy)) });
  }
  return rows;
}

describe.each(DIALECTS)('anomaly models on $name', (dialect) => {
  let t: TestApp;
  let owner: Client;
  let viewer: Client;
  let token: string;
  let shortToken: string;
  let industrialToken: string;
  let viewerToken: string;
  let deviceId: number;
  let ids: { alice: number; bob: number };
  /** Sets the clock and signs in again, as sessions end while weeks pass. */
  const at = async (ms: number) => {
    t.clock.set(ms);
    owner = await quickSession(t.services, ids.alice);
    viewer = await quickSession(t.services, ids.bob);
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ } });
    const alice = await addUser(t.services, 'alice', 'alice-secret');
    const bob = await addUser(t.services, 'bob', 'bob-secret-1');
    deviceId = await addDevice(t.services, MAC, 1, 'House');
    const short = await addDevice(t.services, '02-4D-50-00-00-22', 1, 'Cottage');
    const industrial = await addDevice(t.services, '02-4D-50-00-00-23', 4, 'Workshop');
    for (const d of [deviceId, short, industrial]) await assign(t.services, alice, d, true);
    await assign(t.services, bob, deviceId, false, 86400 * 400);
    const repo = createTelemetryRepository(t.services.database, { tz: TZ });
    // Eight weeks to learn from, then two weeks to watch: a normal one and one with the fault.
    await repo.insertHistory(simulated(deviceId, MAC, T0 - 8 * WEEK, T0 + 2 * WEEK, true), []);
    await repo.insertHistory(simulated(short, '02-4D-50-00-00-22', T0 - 2 * WEEK - 86400, T0, false), []);
    ids = { alice, bob };
    await at(T0 * 1000 + 60_000);
    const byMac = (c: Client, mac: string) => c.devices.find((d) => d.mac === mac)!.token;
    token = byMac(owner, MAC);
    shortToken = byMac(owner, '02-4D-50-00-00-22');
    industrialToken = byMac(owner, '02-4D-50-00-00-23');
    viewerToken = byMac(viewer, MAC);
  }, 120_000);
  afterAll(() => t.close());

  const read = (tok: string, c = owner) =>
    call(t.app, 'POST', '/api/read/anomalies/models', { token: tok }, c);
  const train = (body: object, c = owner) => call(t.app, 'POST', '/api/write/anomalies/models', body, c);
  const anomalyNotes = () =>
    t.services.database.db
      .selectFrom('notifications')
      .select(['data'])
      .where('device_id', '=', deviceId)
      .where('type', '=', 'ANOMALY')
      .orderBy('id')
      .execute();

  it('answers without a model before training, and an empty band', async () => {
    expect((await read(token)).json()).toEqual({
      status: 'OK',
      data: { model: null, notEnoughHistory: null, anomalies: [] },
    });
    const band = await call(
      t.app,
      'POST',
      '/api/read/anomalies/band',
      { token, from: T0, to: T0 + 86400 },
      owner,
    );
    expect(band.json()).toEqual({ status: 'OK', data: [] });
  });

  it('refuses to train on less than three weeks and says what history there is', async () => {
    const r = (await train({ token: shortToken })).json();
    expect(r.data.model).toBeNull();
    expect(r.data.notEnoughHistory).toMatchObject({ weeks: 2, hours: (2 * 7 + 1) * 24 });
  });

  it('trains on the last eight weeks by default and lists what it was trained on', async () => {
    const r = (await train({ token })).json();
    expect(r.status).toBe('OK');
    const m = r.data.model;
    expect(m).toMatchObject({
      weeks: 8,
      hoursInRow: 2,
      fromMs: (T0 - 8 * WEEK) * 1000,
      toMs: T0 * 1000,
      hoursUsed: 8 * 168,
      trainedAtMs: T0 * 1000 + 60_000,
      scheduled: false,
    });
    expect(m.slots).toHaveLength(168);
    for (const s of m.slots) expect(s.lowWh).toBeLessThanOrEqual(s.medianWh);
    expect((await read(token)).json().data.model).toEqual(m);
  });

  it('raises nothing over a normal week', async () => {
    await at((T0 + WEEK) * 1000 + 600_000);
    await t.services.anomalies.tick();
    expect((await read(token)).json().data.anomalies).toEqual([]);
    expect(await anomalyNotes()).toEqual([]);
  });

  it('finds the injected night fault at its hours, raises it once and ends it when back inside', async () => {
    await at((T0 + 2 * WEEK) * 1000 + 600_000);
    await t.services.anomalies.tick();
    const list = (await read(token)).json().data.anomalies;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      startMs: FAULT_FROM * 1000,
      endMs: FAULT_TO * 1000,
      hours: 5,
      direction: 'HIGH',
    });
    expect(list[0].seenWh).toBeGreaterThan(list[0].expectedHighWh + 5 * 1000);
    const notes = (await anomalyNotes()).map((n) => JSON.parse(n.data) as Record<string, unknown>);
    expect(notes.map((n) => n.event)).toEqual(['ANOMALY_STARTED', 'ANOMALY_ENDED']);
    expect(notes[0]).toMatchObject({ timestamp: FAULT_FROM * 1000 });
    expect(notes[0]!.expected_high_wh).toBeGreaterThan(0);
    expect(notes[1]).toMatchObject({
      timestamp: FAULT_TO * 1000,
      energy_consumption_wh: Math.round(list[0].seenWh),
    });
  });

  it('shows the band per hour in kWh', async () => {
    const r = (
      await call(t.app, 'POST', '/api/read/anomalies/band', { token, from: T0, to: T0 + 86400 }, owner)
    ).json();
    expect(r.data).toHaveLength(24);
    const [ms, low, high] = r.data[2] as [number, number, number];
    expect(ms).toBe((T0 + 7200) * 1000);
    expect(high).toBeGreaterThan(low);
  });

  it('retrains on the schedule after a week, keeping its settings', async () => {
    const nowMs = (T0 + 3 * WEEK) * 1000 + 3_600_000;
    await at(nowMs);
    await t.services.anomalies.tick();
    const m = (await read(token)).json().data.model;
    // The history ends two weeks after T0: the model says so.
    expect(m).toMatchObject({ scheduled: true, weeks: 8, trainedAtMs: nowMs, toMs: (T0 + 2 * WEEK) * 1000 });
    expect(m.hoursUsed).toBe(7 * 168 - 1);
  });

  it.each([
    ['a user who only sees the device', () => read(viewerToken, viewer), 605],
    ['training by a user who only sees it', () => train({ token: viewerToken }, viewer), 605],
    ['a meter of another type', () => train({ token: industrialToken }), 605],
    [
      'the band of another type',
      () =>
        call(t.app, 'POST', '/api/read/anomalies/band', { token: industrialToken, from: 0, to: 3600 }, owner),
      605,
    ],
    ['two weeks asked for', () => train({ token, weeks: 2 }), 600],
    ['zero hours in a row', () => train({ token, hoursInRow: 0 }), 600],
    [
      'a band range that ends before it starts',
      () => call(t.app, 'POST', '/api/read/anomalies/band', { token, from: 7200, to: 3600 }, owner),
      600,
    ],
  ])('refuses %s and changes nothing', async (_name, send, code) => {
    const before = await snapshot(t.services);
    const r = await send();
    expect(r.statusCode).toBeGreaterThanOrEqual(400);
    expect(r.statusCode).toBeLessThan(500);
    expect(r.json()).toMatchObject({ status: 'ERROR', code });
    expect(await snapshot(t.services)).toEqual(before);
  });
});
