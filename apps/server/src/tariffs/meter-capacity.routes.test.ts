// The capacity peaks of a P1 meter of the Belgian capacity tariff: the meter's own monthly peaks
// and their 12-month average beside the portal's, through HTTP, on every database.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeP1 } from '../adapters/p1';
import { capacityReport } from '../adapters/p1-capacity';
import { fromWall } from '../history/calendar';
import { ENERGY_COLUMNS } from '../telemetry/columns';
import { createTelemetryRepository } from '../telemetry/telemetry.repository';
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
import { meterCapacityRepository } from './meter-capacity.repository';

const TZ = 'Europe/Brussels';
const FIXTURE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../adapters/fixtures/dsmr/dsmr_parser_fluvius_v171_alt_peak_unset.txt',
);
const P1_MAC = '02-4D-50-00-60-01';
const PLAIN_MAC = '02-4D-50-00-60-02';
const ms = (iso: string) => Date.parse(iso);
const at = (y: number, m: number, d: number, h = 0, min = 0) => fromWall(TZ, y, m, d, h, min);

describe.each(DIALECTS)('the meter’s own capacity peaks on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;
  let olga: Client;
  let erin: Client;
  let p1Token: string;
  let plainToken: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { TZ } });
    const s = t.services;
    // Noon on 2 November 2023, half an hour after the meter's telegram.
    t.clock.set(ms('2023-11-02T11:45:00Z'));
    const [a, o, e] = [
      await addUser(s, 'alice', 'alice-secret'),
      await addUser(s, 'olga', 'olga-secret'),
      await addUser(s, 'erin', 'erin-secret'),
    ];
    const p1 = await addDevice(s, P1_MAC, 4, 'Fluvius');
    const plain = await addDevice(s, PLAIN_MAC, 4, 'Workshop');
    await assign(s, a, p1);
    await assign(s, a, plain);
    await assign(s, o, plain);
    await assign(s, e, p1, false, 60);
    alice = await quickSession(s, a);
    olga = await quickSession(s, o);
    erin = await quickSession(s, e);
    p1Token = alice.devices.find((d) => d.mac === P1_MAC)!.token;
    plainToken = alice.devices.find((d) => d.mac === PLAIN_MAC)!.token;
    // The portal's own quarters: 5.2 kW in October, 2.4 kW in September.
    const quarter = (deviceId: number, tsSec: number, importWh: number) => ({
      deviceId,
      tsSec,
      values: ENERGY_COLUMNS.map((c) => (c === 'e_i_wh' ? importWh : 0)),
    });
    await createTelemetryRepository(s.database, { tz: TZ }).insertHistory(
      [quarter(p1, at(2023, 10, 16, 13), 1300), quarter(p1, at(2023, 9, 10, 18, 30), 600)],
      [],
    );
    // What the meter's real telegram says, stored as ingest stores it.
    const r = decodeP1(fs.readFileSync(FIXTURE), TZ);
    if (!r.ok) throw new Error(r.detail);
    const report = capacityReport(r.telegram.capacity, r.telegram.reading.tsSec!, TZ)!;
    await meterCapacityRepository(s.database).save([
      {
        mac: P1_MAC,
        months: report.months.map((m) => ({ ...m, reportedSec: report.reportedSec })),
        average: { averageW: report.averageW!, reportedSec: report.reportedSec },
      },
    ]);
    t.clock.set(ms('2023-11-02T11:50:00Z'));
  }, 60_000);
  afterAll(() => t.close());

  const peaks = (c: Client, token: string) =>
    call(t.app, 'POST', '/api/read/energy/peaks', { token, months: 13 }, c);

  it('answers the meter’s monthly peaks and their 12-month average beside the portal’s', async () => {
    const r = await peaks(alice, p1Token);
    expect(r.statusCode, r.body).toBe(200);
    const months = r.json().data.months as Record<string, number | null>[];
    expect(months).toHaveLength(13);
    expect(months.slice(-4)).toEqual([
      {
        monthMs: at(2023, 8, 1) * 1000,
        peakKw: null,
        atMs: null,
        avg12Kw: null,
        meterPeakKw: 1.862,
        meterAtMs: ms('2023-08-31T16:15:00Z'),
        meterAvg12Kw: 1.862,
      },
      {
        monthMs: at(2023, 9, 1) * 1000,
        peakKw: 2.4,
        atMs: at(2023, 9, 10, 18, 30) * 1000,
        avg12Kw: 2.4,
        meterPeakKw: 4.229,
        meterAtMs: ms('2023-09-10T16:30:00Z'),
        meterAvg12Kw: 3.046, // (1862 + 4229) / 2 W, to the watt
      },
      {
        monthMs: at(2023, 10, 1) * 1000,
        peakKw: 5.2,
        atMs: at(2023, 10, 16, 13) * 1000,
        avg12Kw: 3.8,
        meterPeakKw: 4.927,
        meterAtMs: ms('2023-10-16T11:00:00Z'),
        meterAvg12Kw: 3.673,
      },
      {
        monthMs: at(2023, 11, 1) * 1000,
        peakKw: null,
        atMs: null,
        avg12Kw: 3.8,
        meterPeakKw: 3.064,
        meterAtMs: ms('2023-11-02T10:45:00Z'),
        meterAvg12Kw: 3.521, // (1862 + 4229 + 4927 + 3064) / 4 W
      },
    ]);
    // July's record was not set: no peak, and it does not count in the average.
    expect(months[8]).toMatchObject({
      monthMs: at(2023, 7, 1) * 1000,
      meterPeakKw: null,
      meterAvg12Kw: null,
    });
    expect(r.json().data.running).toMatchObject({
      meterAverageKw: 0.052,
      meterAverageAtMs: ms('2023-11-02T11:15:48Z'),
    });
  });

  it('answers nothing of the kind for a meter that records no capacity tariff', async () => {
    const r = (await peaks(alice, plainToken)).json();
    expect(r.status).toBe('OK');
    for (const m of r.data.months)
      expect(Object.keys(m).sort()).toEqual(['atMs', 'avg12Kw', 'monthMs', 'peakKw']);
    expect(r.data.running).not.toHaveProperty('meterAverageKw');
    expect(r.data.running).not.toHaveProperty('meterAverageAtMs');
  });

  it('refuses another user and an expired assignment exactly as a device that does not exist', async () => {
    const before = await snapshot(t.services);
    // Olga has a device of her own but not the meter; her token of it names another device.
    const forged = `${p1Token.split('.')[0]}.${olga.devices[0]!.token.split('.')[1]}`;
    t.clock.set(ms('2023-11-02T11:52:00Z')); // Erin's minute has run out
    const answers = [
      await peaks(olga, p1Token),
      await peaks(olga, forged),
      await peaks(erin, erin.devices[0]!.token),
      await peaks(olga, 'AAAAAAAAAAA.bm9wZQ|1999999999'),
    ];
    for (const a of answers) {
      expect(a.statusCode).toBe(answers[3]!.statusCode);
      expect(a.json()).toEqual(answers[3]!.json());
    }
    expect(answers[3]!.json()).toMatchObject({ status: 'ERROR', code: 605 });
    expect(await snapshot(t.services)).toEqual(before);
  });
});
