import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  type Client,
  type TestApp,
} from '../test/harness';
import {
  createTelemetryRepository,
  type MinuteRow,
  type QuarterRow,
} from '../telemetry/telemetry.repository';
import { sha256Hex } from '../auth/crypto';
import { ENERGY_COLUMNS, MINUTE_COLUMNS } from '../telemetry/columns';
import { fromWall } from './calendar';

const TZ = 'Europe/Bratislava';
const MAC = '02-4D-50-00-00-04';
const utc = (iso: string) => Date.parse(iso) / 1000;

/** A whole number of Wh per quarter that varies, so misplaced quarters change the sums. */
const importWh = (tsSec: number) => 100 + ((tsSec / 900) % 7) * 13;
const exportWh = (tsSec: number) => ((tsSec / 900) % 5) * 3;

function quarter(deviceId: number, tsSec: number): QuarterRow {
  const values = ENERGY_COLUMNS.map((c) => {
    const base = c.startsWith('e_i')
      ? importWh(tsSec)
      : c.startsWith('e_e')
        ? exportWh(tsSec)
        : c.startsWith('q1')
          ? 9
          : 0;
    // Phase columns hold a third each (rounded into L1), totals the whole.
    if (/_l[123]_/.test(c))
      return c.includes('_l1_') ? base - 2 * Math.floor(base / 3) : Math.floor(base / 3);
    return base;
  });
  return { deviceId, tsSec, values };
}

function minute(deviceId: number, tsSec: number): MinuteRow {
  const values = MINUTE_COLUMNS.map((c) => {
    if (c.startsWith('u_l')) return 230 + Number(c[3]);
    if (c.startsWith('pf_l')) return 0.9 + Number(c[4]) / 100;
    if (c.startsWith('f_')) return 50;
    return 1;
  });
  return { deviceId, agg: { minuteStartSec: tsSec, samples: 60, values } };
}

describe.each(DIALECTS)('history on $name', (dialect) => {
  let t: TestApp;
  let c: Client;
  let token: string;
  let plugToken: string;
  const yearFrom = fromWall(TZ, 2026, 1, 1);
  const yearTo = fromWall(TZ, 2027, 1, 1);

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ } });
    const userId = await addUser(t.services, 'alice', 'alice-secret');
    const deviceId = await addDevice(t.services, MAC, 4, 'Workshop');
    await assign(t.services, userId, deviceId, true);
    // A plug-in meter registered as if wired for three phases: its type has one.
    const plugId = await addDevice(t.services, '02-4D-50-00-00-05', 5, 'Office plug');
    await assign(t.services, userId, plugId, false);
    t.clock.set(utc('2027-01-10T00:00:00Z'));
    c = await quickSession(t.services, userId);
    token = c.devices.find((d) => d.type === 4)!.token;
    plugToken = c.devices.find((d) => d.type === 5)!.token;
    const repo = createTelemetryRepository(t.services.database, { tz: t.config.TZ });
    const quarters: QuarterRow[] = [];
    for (let ts = yearFrom; ts < yearTo; ts += 900) quarters.push(quarter(deviceId, ts));
    const dayStart = fromWall(TZ, 2026, 10, 25);
    const minutes: MinuteRow[] = [];
    for (let ts = dayStart; ts < dayStart + 25 * 3600; ts += 60) minutes.push(minute(deviceId, ts));
    for (let ts = dayStart; ts < dayStart + 25 * 3600; ts += 900) quarters.push(quarter(plugId, ts));
    for (let ts = dayStart; ts < dayStart + 3600; ts += 60) minutes.push(minute(plugId, ts));
    await repo.insertHistory(quarters, minutes);
  }, 120_000);
  afterAll(() => t.close());

  const energy = (body: object) =>
    call(t.app, 'POST', '/api/read/energy', { token, phase: 'CUM', format: 'H', ...body }, c);
  const expectedWh = (from: number, to: number, f: (ts: number) => number) => {
    let s = 0;
    for (let ts = from; ts < to; ts += 900) s += f(ts);
    return s;
  };

  it('gives the 25-hour fall-back day 25 hours whose sum is the day total, to the Wh', async () => {
    const from = fromWall(TZ, 2026, 10, 25);
    const to = fromWall(TZ, 2026, 10, 26);
    const hours = (await energy({ data: 'E_I,E_E', from, to, period: 'HOUR' })).json();
    expect(hours.status).toBe('OK');
    expect(hours.data.E_I.CUM).toHaveLength(25);
    const day = (await energy({ data: 'E_I,E_E', from, to, period: 'DAY' })).json();
    expect(day.data.E_I.CUM).toEqual([[from * 1000, expectedWh(from, to, importWh) / 1000]]);
    const hourSumWh = hours.data.E_I.CUM.reduce(
      (s: number, [, v]: [number, number]) => s + Math.round(v * 1000),
      0,
    );
    expect(hourSumWh).toBe(expectedWh(from, to, importWh));
    expect(day.data.E_E.CUM[0][1] * 1000).toBeCloseTo(expectedWh(from, to, exportWh), 6);
  });

  it('gives the 23-hour spring-forward day 23 hours and 92 quarters', async () => {
    const from = fromWall(TZ, 2026, 3, 29);
    const to = fromWall(TZ, 2026, 3, 30);
    expect((await energy({ data: 'E_I', from, to, period: 'HOUR' })).json().data.E_I.CUM).toHaveLength(23);
    expect((await energy({ data: 'E_I', from, to, period: '15MIN' })).json().data.E_I.CUM).toHaveLength(92);
  });

  it('answers a year of days and of months whose totals equal the year, to the Wh', async () => {
    const days = (await energy({ data: 'E_I', from: yearFrom, to: yearTo, period: 'DAY' })).json().data.E_I
      .CUM;
    const months = (await energy({ data: 'E_I', from: yearFrom, to: yearTo, period: 'MONTH' })).json().data
      .E_I.CUM;
    expect(days).toHaveLength(365);
    expect(months).toHaveLength(12);
    const total = expectedWh(yearFrom, yearTo, importWh);
    const sumWh = (s: [number, number][]) => s.reduce((a, [, v]) => a + Math.round(v * 1000), 0);
    expect(sumWh(days)).toBe(total);
    expect(sumWh(months)).toBe(total);
    const feb = fromWall(TZ, 2026, 2, 1);
    const mar = fromWall(TZ, 2026, 3, 1);
    expect(months[1]).toEqual([feb * 1000, expectedWh(feb, mar, importWh) / 1000]);
  });

  it('answers days and months of a range that starts and ends inside a day as the quarters add up', async () => {
    // Partial first and last days (part of them from the quarters, the rest from whole days),
    // across both daylight-saving changes and a month end.
    const from = fromWall(TZ, 2026, 3, 27, 13, 45);
    const to = fromWall(TZ, 2026, 10, 28, 6, 10);
    const res = (await energy({ data: 'E_I,E_E', from, to, period: 'DAY' })).json().data;
    const months = (await energy({ data: 'E_I,E_E', from, to, period: 'MONTH' })).json().data;
    // Independently: every stored quarter in [from, to) into the local day or month holding it.
    const expected = (next: (start: number) => number, first: number, f: (ts: number) => number) => {
      const out: [number, number][] = [];
      for (let start = first; start < to; start = next(start)) {
        const wh = expectedWh(Math.max(start, Math.ceil(from / 900) * 900), Math.min(next(start), to), f);
        out.push([start * 1000, wh / 1000]);
      }
      return out;
    };
    const nextDay = (s: number) =>
      fromWall(
        TZ,
        new Date((s + 43200) * 1000).getUTCFullYear(),
        new Date((s + 43200) * 1000).getUTCMonth() + 1,
        new Date((s + 43200) * 1000).getUTCDate() + 1,
      );
    const nextMonth = (s: number) =>
      fromWall(
        TZ,
        new Date((s + 43200) * 1000).getUTCFullYear(),
        new Date((s + 43200) * 1000).getUTCMonth() + 2,
        1,
      );
    expect(res.E_I.CUM).toEqual(expected(nextDay, fromWall(TZ, 2026, 3, 27), importWh));
    expect(res.E_E.CUM).toEqual(expected(nextDay, fromWall(TZ, 2026, 3, 27), exportWh));
    expect(res.E_I.CUM).toHaveLength(216);
    expect(months.E_I.CUM).toEqual(expected(nextMonth, fromWall(TZ, 2026, 3, 1), importWh));
    expect(months.E_I.CUM).toHaveLength(8);
  });

  it('answers reactive energy by quadrant per day', async () => {
    const from = fromWall(TZ, 2026, 6, 1);
    const res = (
      await energy({ data: 'Q1,Q2,Q3,Q4', from, to: fromWall(TZ, 2026, 6, 8), period: 'DAY' })
    ).json();
    expect(Object.keys(res.data)).toEqual(['Q1', 'Q2', 'Q3', 'Q4']);
    expect(res.data.Q1.CUM[0]).toEqual([from * 1000, (96 * 9) / 1000]);
    expect(res.data.Q2.CUM[0]).toEqual([from * 1000, 0]);
  });

  it('answers the quarter-hour maximum in kW per quarter and per day', async () => {
    const from = fromWall(TZ, 2026, 6, 1);
    const quarters = (
      await energy({ data: 'E_I', from, to: from + 3600, period: '15MIN', maximum: true })
    ).json().data.E_I.CUM;
    expect(quarters[0]).toEqual([from * 1000, (importWh(from) * 4) / 1000]);
    const days = (
      await energy({ data: 'E_I', from, to: fromWall(TZ, 2026, 6, 3), period: 'DAY', maximum: true })
    ).json().data.E_I.CUM;
    expect(days).toHaveLength(2);
    expect(days[0][1]).toBe(((100 + 6 * 13) * 4) / 1000);
  });

  it('answers reactive quadrants only for types with reactive registers', async () => {
    const from = fromWall(TZ, 2026, 10, 25);
    const to = fromWall(TZ, 2026, 10, 26);
    const plug = (body: object) => energy({ token: plugToken, from, to, ...body });
    expect((await plug({ data: 'Q1,Q2,Q3,Q4', period: 'DAY' })).json().code).toBe(610);
    const active = (await plug({ data: 'E_I,E_E,Q1', period: 'DAY' })).json();
    expect(Object.keys(active.data)).toEqual(['E_I']);
    expect(active.data.E_I.CUM).toEqual([[from * 1000, expectedWh(from, to, importWh) / 1000]]);
  });

  it('answers 610 for a range with nothing stored, and 400 for a reversed range', async () => {
    const empty = await energy({
      data: 'E_I',
      from: utc('2025-01-01T00:00:00Z'),
      to: utc('2025-01-02T00:00:00Z'),
      period: 'DAY',
    });
    expect(empty.statusCode).toBe(404);
    expect(empty.json().code).toBe(610);
    const reversed = await energy({ data: 'E_I', from: yearTo, to: yearFrom, period: 'DAY' });
    expect(reversed.statusCode).toBe(400);
    const badKind = await energy({ data: 'E_I,DROP', from: yearFrom, to: yearTo, period: 'DAY' });
    expect(badKind.statusCode).toBe(400);
  });

  it('refuses quarter-hour energy over more than 93 days with a clear 400, and answers a year of hours', async () => {
    const res = await energy({ data: 'E_I', from: yearFrom, to: yearTo, period: '15MIN' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 'ERROR',
      code: 600,
      message:
        'Invalid request at to: 15MIN energy spans at most 93 days (8928 periods); choose a shorter range or a longer period',
    });
    const quarters = await energy({
      data: 'E_I',
      from: yearFrom,
      to: yearFrom + 93 * 86400,
      period: '15MIN',
    });
    expect(quarters.json().data.E_I.CUM).toHaveLength(8928);
    const hours = await energy({ data: 'E_I', from: yearFrom, to: yearTo, period: 'HOUR' });
    expect(hours.json().data.E_I.CUM).toHaveLength(8760);
  });

  it('lets a session run two history reads at once with four waiting, and refuses more with 429', async () => {
    const session = sha256Hex(c.cookie);
    const gates: (() => void)[] = [];
    const held = Array.from({ length: 6 }, () =>
      t.services.history.heavyReads.run(session, () => new Promise<void>((resolve) => gates.push(resolve))),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(t.services.history.heavyReads.load(session)).toEqual({ running: 2, waiting: 4 });
    const body = {
      token,
      data: 'U',
      phase: 'L1,L2,L3',
      format: 'H',
      from: fromWall(TZ, 2026, 10, 25),
      to: fromWall(TZ, 2026, 10, 26),
    };
    const refused = await call(t.app, 'POST', '/api/read/profile', body, c);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      status: 'ERROR',
      code: 611,
      message: 'Too many history reads at once for this session; wait for the running ones to finish',
    });
    expect((await energy({ data: 'E_I', from: yearFrom, to: yearTo, period: 'DAY' })).statusCode).toBe(429);
    // Another session of the same user is not refused: its read runs once a process-wide slot is free.
    const other = await quickSession(t.services, (await t.services.repos.users.findByLogin('alice'))!.id);
    const otherRead = call(t.app, 'POST', '/api/read/profile', body, other);
    while (gates.length > 0 || t.services.history.heavyReads.load(session).running > 0) {
      gates.splice(0).forEach((open) => open());
      await new Promise((r) => setTimeout(r, 0));
    }
    await Promise.all(held);
    expect((await otherRead).statusCode).toBe(200);
    expect((await call(t.app, 'POST', '/api/read/profile', body, c)).statusCode).toBe(200);
  });

  describe('profile', () => {
    const from = fromWall(TZ, 2026, 10, 25);
    const to = fromWall(TZ, 2026, 10, 26);
    const profile = (body: object) =>
      call(
        t.app,
        'POST',
        '/api/read/profile',
        { token, phase: 'L1,L2,L3', format: 'H', source: 1, from, to, ...body },
        c,
      );

    it('answers every minute of the 25-hour day per phase with the sum over phases', async () => {
      const res = (await profile({ data: ['U', 'F'], cumulative: true })).json();
      expect(res.resolution).toBe('MINUTE');
      expect(res.data.U.L1).toHaveLength(1500);
      expect(res.data.U.L1[0]).toEqual([from * 1000, 231]);
      expect(res.data.U.L3[0]).toEqual([from * 1000, 233]);
      expect(res.data.U.cumulative[0]).toEqual([from * 1000, 696]);
      expect(res.data.F[0]).toEqual([from * 1000, 50]);
    });

    it('averages over phases when cumulative is false', async () => {
      const res = (await profile({ data: 'PF,DF_U', cumulative: false })).json();
      expect(res.data.PF.cumulative[0][1]).toBeCloseTo(0.92, 9);
    });

    it('answers energy profiles per quarter in kWh', async () => {
      const res = (await profile({ data: 'E_I,Q_E', cumulative: true })).json();
      expect(res.data.E_I.cumulative).toHaveLength(100);
      expect(res.data.E_I.cumulative[0]).toEqual([from * 1000, importWh(from) / 1000]);
      expect(res.data.Q_E.cumulative[0]).toEqual([from * 1000, 9 / 1000]);
    });

    it('answers two months per hour: minute averages and energy sums, the resolution stated', async () => {
      const monthsFrom = fromWall(TZ, 2026, 10, 1);
      const monthsTo = fromWall(TZ, 2026, 12, 1);
      const res = (
        await profile({ data: ['U', 'E_I'], cumulative: true, from: monthsFrom, to: monthsTo })
      ).json();
      expect(res.resolution).toBe('HOUR');
      expect(res.data.U.L1).toHaveLength(25);
      expect(res.data.U.L1[0]).toEqual([from * 1000, 231]);
      expect(res.data.U.cumulative[24]).toEqual([(from + 24 * 3600) * 1000, 696]);
      // 61 days of hours, one of them with 25.
      expect(res.data.E_I.cumulative).toHaveLength(61 * 24 + 1);
      expect(res.data.E_I.cumulative[0]).toEqual([
        monthsFrom * 1000,
        expectedWh(monthsFrom, monthsFrom + 3600, importWh) / 1000,
      ]);
    });

    it('answers a year per local day, bounded to a point a day, the energy adding up to the year', async () => {
      const res = await profile({ data: ['U', 'E_I', 'E_E'], cumulative: true, from: yearFrom, to: yearTo });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.resolution).toBe('DAY');
      expect(body.data.U.L1).toEqual([[from * 1000, 231]]);
      expect(body.data.E_I.cumulative).toHaveLength(365);
      expect(body.data.E_I.L1).toHaveLength(365);
      const nextDay = fromWall(TZ, 2026, 1, 2);
      expect(body.data.E_I.cumulative[0]).toEqual([
        yearFrom * 1000,
        expectedWh(yearFrom, nextDay, importWh) / 1000,
      ]);
      const fallBack = body.data.E_I.cumulative.find(([t]: [number, number]) => t === from * 1000);
      expect(fallBack[1]).toBe(expectedWh(from, to, importWh) / 1000);
      const sumWh = body.data.E_I.cumulative.reduce(
        (a: number, [, v]: [number, number]) => a + Math.round(v * 1000),
        0,
      );
      expect(sumWh).toBe(expectedWh(yearFrom, yearTo, importWh));
      expect(res.body.length).toBeLessThan(100_000);
    });

    it('answers a single-phase type on L1 only, and leaves out what its type does not measure', async () => {
      const plug = (body: object) => profile({ token: plugToken, ...body });
      const res = (await plug({ data: 'U,Q,S,E_I,E_E', cumulative: true })).json();
      expect(res.status).toBe('OK');
      expect(Object.keys(res.data).sort()).toEqual(['E_I', 'U']);
      expect(Object.keys(res.data.U).sort()).toEqual(['L1', 'cumulative']);
      expect(res.data.U.cumulative[0]).toEqual([from * 1000, 231]);
      // Only quantities the plug lacks: absent, exactly like a range without data.
      expect((await plug({ data: 'Q,DF_I', cumulative: false })).json().code).toBe(610);
      // The same quantities of a three-phase industrial meter are there.
      expect(Object.keys((await profile({ data: 'Q,DF_I', cumulative: false })).json().data).sort()).toEqual([
        'DF_I',
        'Q',
      ]);
    });

    it('answers 610 for a day without minutes', async () => {
      const res = await profile({ data: 'U', from: from - 86400, to: from });
      expect(res.json().code).toBe(610);
    });
  });
});
