import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { createTelemetryRepository, type QuarterRow } from '../telemetry/telemetry.repository';
import { ENERGY_COLUMNS } from '../telemetry/columns';
import { fromWall } from '../history/calendar';
import { workdayTariff } from './testing';

const TZ = 'Europe/Bratislava';
const MAC = '02-4D-50-00-00-04';
const at = (y: number, m: number, d: number, h = 0, min = 0) => fromWall(TZ, y, m, d, h, min);

function quarter(deviceId: number, tsSec: number, importWh: number, exportWh = 0): QuarterRow {
  const values = ENERGY_COLUMNS.map((c) => (c === 'e_i_wh' ? importWh : c === 'e_e_wh' ? exportWh : 0));
  return { deviceId, tsSec, values };
}

const tariff = workdayTariff;

/** Monthly peak of 2026 in Wh: March has only the four quarters of the tariff-change example. */
const peakWh = (month: number) => (month === 3 ? 1000 : 2000 + 100 * month);

describe.each(DIALECTS)('tariffs, cost and peaks on $name', (dialect) => {
  let t: TestApp;
  let owner: Client;
  let viewer: Client;
  let token: string;
  let viewerToken: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ } });
    const alice = await addUser(t.services, 'alice', 'alice-secret');
    const bob = await addUser(t.services, 'bob', 'bob-secret-1');
    const deviceId = await addDevice(t.services, MAC, 4, 'Workshop');
    await assign(t.services, alice, deviceId, true);
    await assign(t.services, bob, deviceId, false, 86400 * 400);
    // 01:07:30 local on 10 January 2027: the running quarter started 450 s ago.
    t.clock.set(Date.parse('2027-01-10T00:07:30Z'));
    owner = await quickSession(t.services, alice);
    viewer = await quickSession(t.services, bob);
    token = owner.devices[0]!.token;
    viewerToken = viewer.devices[0]!.token;
    const q: QuarterRow[] = [];
    for (let m = 1; m <= 12; m++) {
      if (m !== 3) q.push(quarter(deviceId, at(2026, m, 10, 12), peakWh(m)));
      q.push(quarter(deviceId, at(2026, m, 12, 3), 50, 20));
    }
    q.push(quarter(deviceId, at(2026, 3, 9, 12), 1000));
    q.push(quarter(deviceId, at(2026, 3, 15, 23, 45), 1000, 500));
    q.push(quarter(deviceId, at(2026, 3, 16, 0), 1000));
    q.push(quarter(deviceId, at(2026, 3, 16, 12), 1000));
    q.push(quarter(deviceId, at(2027, 1, 5, 12), 800));
    q.push(quarter(deviceId, Date.parse('2027-01-10T00:00:00Z') / 1000, 300));
    await createTelemetryRepository(t.services.database, { tz: TZ }).insertHistory(q, []);
  }, 60_000);
  afterAll(() => t.close());

  const read = (c: Client, tok: string) => call(t.app, 'POST', '/api/read/tariffs', { token: tok }, c);
  const save = (c: Client, body: object) => call(t.app, 'POST', '/api/write/tariffs', body, c);
  const cost = (body: object) => call(t.app, 'POST', '/api/read/energy/cost', { token, ...body }, owner);

  it('answers 610 for cost while the device has no tariff', async () => {
    const r = await cost({ from: at(2026, 3, 1), to: at(2026, 4, 1), period: 'MONTH' });
    expect(r.json()).toMatchObject({ status: 'ERROR', code: 610 });
  });

  it('lets the owner save versions and reads them oldest first', async () => {
    for (const v of [tariff('2026-03-16', 0.3, 0.12, 12, 6), tariff('2026-01-01', 0.2, 0.1, 10, 5)])
      expect((await save(owner, { token, tariff: v })).json()).toEqual({ status: 'OK' });
    const r = (await read(viewer, viewerToken)).json();
    expect(r.data.owner).toBe(false);
    expect(r.data.tariffs.map((v: { validFrom: string }) => v.validFrom)).toEqual([
      '2026-01-01',
      '2026-03-16',
    ]);
    expect((await read(owner, token)).json().data.owner).toBe(true);
  });

  it.each([
    [
      'a user who only sees the device',
      () => save(viewer, { token: viewerToken, tariff: tariff('2026-05-01', 1, 1, 1, 1) }),
      602,
    ],
    [
      'bands that leave weekend hours unpriced',
      () =>
        save(owner, {
          token,
          tariff: { ...tariff('2026-05-01', 1, 1, 1, 1), bands: [tariff('x', 1, 1, 1, 1).bands[0]] },
        }),
      600,
    ],
    [
      'a price with seven decimals',
      () => save(owner, { token, tariff: tariff('2026-05-01', 0.1234567, 1, 1, 1) }),
      600,
    ],
    [
      'a date that does not exist',
      () => save(owner, { token, tariff: tariff('2026-02-30', 1, 1, 1, 1) }),
      600,
    ],
    [
      'another currency than the other versions',
      () => save(owner, { token, tariff: { ...tariff('2026-05-01', 1, 1, 1, 1), currency: 'CZK' } }),
      600,
    ],
    [
      'removing a version that is not there',
      () => call(t.app, 'DELETE', '/api/write/tariffs', { token, validFrom: '2026-05-01' }, owner),
      610,
    ],
  ])('refuses %s and changes nothing', async (_, send, code) => {
    const before = await snapshot(t.services);
    const r = (await send()).json();
    expect(r).toMatchObject({ status: 'ERROR', code });
    if (code === 600) expect(r.message).toMatch(/tariff/);
    expect(await snapshot(t.services)).toEqual(before);
  });

  it('splits March at the change of tariff, with the figures of the worked example', async () => {
    const r = (await cost({ from: at(2026, 3, 1), to: at(2026, 4, 1), period: 'MONTH' })).json();
    expect(r.data.currency).toBe('EUR');
    expect(r.data.bandNames).toEqual(['High', 'Low']);
    // The example's quarters plus 50 Wh at 03:00 on Thursday the 12th (Low, old tariff: 0.5 cent)
    // and 20 Wh fed in with it; the month's peak is 1 kWh in a quarter: 4 kW.
    expect(r.data.rows).toEqual([
      {
        t: at(2026, 3, 1) * 1000,
        importWh: 4050,
        exportWh: 520,
        bands: { High: 50, Low: 23 },
        energyCents: 73,
        fixedCents: 1103,
        capacityCents: 2206,
        vatCents: 676,
        exportCreditCents: 3,
        totalCents: 73 + 1103 + 2206 + 676 - 3,
      },
    ]);
  });

  it('gives per day the energy the energy route gives, and a year of months adds up', async () => {
    const from = at(2026, 1, 1);
    const to = at(2027, 1, 1);
    const days = (await cost({ from, to, period: 'DAY' })).json().data;
    const energy = (
      await call(t.app, 'POST', '/api/read/energy', { token, data: 'E_I', from, to, period: 'DAY' }, owner)
    ).json().data.E_I.CUM as [number, number][];
    expect(days.rows.map((r: { t: number; importWh: number }) => [r.t, r.importWh / 1000])).toEqual(energy);
    const months = (await cost({ from, to, period: 'MONTH' })).json().data;
    const year = (await cost({ from, to, period: 'YEAR' })).json().data;
    expect(months.rows).toHaveLength(12);
    expect(year.rows).toHaveLength(1);
    const sum = (k: string) => months.rows.reduce((s: number, r: Record<string, number>) => s + r[k]!, 0);
    expect(year.rows[0].importWh).toBe(sum('importWh'));
    expect(year.rows[0].fixedCents).toBe(sum('fixedCents'));
    // Capacity: each month's peak kW at the month's price (March shared between 5 and 6).
    const capacity = sum('capacityCents');
    expect(Math.abs(year.rows[0].capacityCents - capacity)).toBeLessThanOrEqual(6);
    expect(months.rows[0].capacityCents).toBe(Math.round(((peakWh(1) * 4) / 1000) * 5 * 100));
  });

  it('charges the month in progress its share of the fee so far, and later months nothing', async () => {
    const r = (await cost({ from: at(2027, 1, 1), to: at(2028, 1, 1), period: 'MONTH' })).json();
    // Now is 01:07:30 on 10 January: the fee runs to the running quarter's end, 01:15, that is
    // 9 days 1 h 15 min of January's 31 days at 12.00 a month.
    expect(r.data.rows).toHaveLength(1);
    expect(r.data.rows[0].fixedCents).toBe(Math.round((1200 * (9 * 86400 + 4500)) / (31 * 86400)));
  });

  it('answers monthly peaks, their 12-month average and the running quarter against MRK and RK', async () => {
    await call(t.app, 'POST', '/api/write/devices/details', { token, MRK: 10, RK: 8 }, owner);
    const r = (await call(t.app, 'POST', '/api/read/energy/peaks', { token, months: 13 }, owner)).json();
    const kw = (m: number) => (peakWh(m) * 4) / 1000;
    const months = r.data.months;
    expect(months).toHaveLength(13);
    expect(months[0]).toEqual({
      monthMs: at(2026, 1, 1) * 1000,
      peakKw: kw(1),
      atMs: at(2026, 1, 10, 12) * 1000,
      avg12Kw: kw(1),
    });
    expect(months[2]).toMatchObject({ peakKw: 4, atMs: at(2026, 3, 9, 12) * 1000 });
    const year = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(kw);
    const avg = (v: number[]) => Math.round((v.reduce((a, b) => a + b, 0) / v.length) * 1000) / 1000;
    expect(months[11].avg12Kw).toBe(avg(year));
    // January 2027: the finished quarters only (3.2 kW on the 5th), averaged with Feb-Dec 2026.
    expect(months[12]).toMatchObject({ peakKw: 3.2, avg12Kw: avg([...year.slice(1), 3.2]) });
    expect(r.data.running).toEqual({
      startMs: Date.parse('2027-01-10T00:00:00Z'),
      elapsedSec: 450,
      energyWh: 300,
      demandKw: 1.2,
      projectedKw: 2.4,
      mrkKw: 10,
      rkKw: 8,
      monthPeakKw: 3.2,
    });
  });

  it('removes a version, and the cost follows the one left', async () => {
    const del = await call(t.app, 'DELETE', '/api/write/tariffs', { token, validFrom: '2026-03-16' }, owner);
    expect(del.json()).toEqual({ status: 'OK' });
    const r = (await cost({ from: at(2026, 3, 16), to: at(2026, 3, 17), period: 'DAY' })).json();
    expect(r.data.rows[0].bands).toEqual({ High: 20, Low: 10 });
  });
});
