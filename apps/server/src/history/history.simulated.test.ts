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
import { backfillHistory } from '../telemetry/backfill';
import { createTelemetryRepository } from '../telemetry/telemetry.repository';
import { fromWall } from './calendar';

const TZ = 'Europe/Bratislava';
const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};
const kwhToWh = (s: [number, number][]) => s.reduce((a, [, v]) => a + Math.round(v * 1000), 0);

// History written by the simulator's physics (the demo backfill), read back through the API.
describe.each(DIALECTS)('history of a simulated meter on $name', (dialect) => {
  let t: TestApp;
  let c: Client;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ } });
    t.clock.set(Date.parse('2026-11-05T10:20:00Z'));
    const userId = await addUser(t.services, 'alice', 'alice-secret');
    const deviceId = await addDevice(t.services, '02-4D-50-00-00-06', 6, 'Solar sub-meter');
    await assign(t.services, userId, deviceId, true);
    await backfillHistory(
      {
        repository: createTelemetryRepository(t.services.database, { tz: t.config.TZ }),
        clock: t.clock,
        logger: quiet,
      },
      [{ id: deviceId, mac: '02-4D-50-00-00-06', type: 6 }],
      { quarterDays: 45, minuteDays: 1 },
    );
    c = await quickSession(t.services, userId);
    token = c.devices[0]!.token;
  }, 120_000);
  afterAll(() => t.close());

  const energy = async (body: object) => {
    const r = await call(t.app, 'POST', '/api/read/energy', { token, phase: 'CUM', format: 'H', ...body }, c);
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data as Record<string, { CUM: [number, number][] }>;
  };

  it('adds hours up to the 25-hour fall-back day and days up to the month, to the Wh', async () => {
    for (const [from, to] of [
      [fromWall(TZ, 2026, 10, 25), fromWall(TZ, 2026, 10, 26)],
      [fromWall(TZ, 2026, 10, 12), fromWall(TZ, 2026, 10, 13)],
    ] as const) {
      const hours = await energy({ data: 'E_I,E_E', from, to, period: 'HOUR' });
      const day = await energy({ data: 'E_I,E_E', from, to, period: 'DAY' });
      expect(hours.E_I!.CUM.length).toBe((to - from) / 3600);
      for (const k of ['E_I', 'E_E']) expect(kwhToWh(hours[k]!.CUM)).toBe(kwhToWh(day[k]!.CUM));
    }
    const october = [fromWall(TZ, 2026, 10, 1), fromWall(TZ, 2026, 11, 1)] as const;
    const days = await energy({ data: 'E_I,E_E', from: october[0], to: october[1], period: 'DAY' });
    const month = await energy({ data: 'E_I,E_E', from: october[0], to: october[1], period: 'MONTH' });
    expect(days.E_I!.CUM).toHaveLength(31);
    expect(month.E_I!.CUM).toHaveLength(1);
    for (const k of ['E_I', 'E_E']) expect(kwhToWh(days[k]!.CUM)).toBe(kwhToWh(month[k]!.CUM));
    // A solar sub-meter imports at night and exports in daylight.
    expect(month.E_I!.CUM[0]![1]).toBeGreaterThan(0);
    expect(month.E_E!.CUM[0]![1]).toBeGreaterThan(0);
  });

  it('answers the quarter-hour maximum no lower than any hour’s average power', async () => {
    const from = fromWall(TZ, 2026, 10, 20);
    const to = fromWall(TZ, 2026, 10, 21);
    const max = await energy({ data: 'E_I', from, to, period: 'DAY', maximum: true });
    const hours = await energy({ data: 'E_I', from, to, period: 'HOUR' });
    const peakHourKw = Math.max(...hours.E_I!.CUM.map(([, v]) => v));
    expect(max.E_I!.CUM[0]![1]).toBeGreaterThanOrEqual(peakHourKw - 1e-9);
  });

  it('answers a day profile of every minute from the simulated frames', async () => {
    const from = fromWall(TZ, 2026, 11, 4, 14);
    const r = await call(
      t.app,
      'POST',
      '/api/read/profile',
      { token, data: 'U,P,F', phase: 'L1,L2,L3', from, to: from + 3600, format: 'H', cumulative: true },
      c,
    );
    expect(r.statusCode, r.body).toBe(200);
    const data = r.json().data;
    expect(data.U.L1).toHaveLength(60);
    for (const [, v] of data.U.L1 as [number, number][]) expect(Math.abs(v - 230)).toBeLessThan(15);
    for (const [, v] of data.F as [number, number][]) expect(Math.abs(v - 50)).toBeLessThan(0.3);
  });
});
