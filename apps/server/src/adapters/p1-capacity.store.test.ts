// Real Fluvius telegrams through the P1 adapter into the database: the meter's monthly peaks and
// running demand are stored, values the meter has not set are not, and a telegram delivered again
// (or late, after a newer one) changes nothing. On every database.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TelemetryDB } from '../db/schema.telemetry';
import { meterCapacityRepository } from '../tariffs/meter-capacity.repository';
import { createTelemetryMetrics } from '../telemetry/metrics';
import { memoryLogger } from '../telemetry/testing';
import { DIALECTS, addDevice, createTestApp, type TestApp } from '../test/harness';
import type { FamilyDeviceRow } from './family-devices.repository';
import { createFamilyIngest } from './family-ingest';
import { crc16Arc } from './p1';
import { createCapacityRecorder } from './p1-capacity';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'dsmr');
const METER: FamilyDeviceRow = {
  family: 'p1',
  topic: 'fluvius',
  mac: '02-4D-50-00-50-01',
  tz: 'Europe/Brussels',
};
const ALT = 'dsmr_parser_fluvius_v171_alt_peak_unset.txt';
const sec = (iso: string) => Date.parse(iso) / 1000;

const fixture = (file: string) => fs.readFileSync(path.join(DIR, file)).toString('latin1');

/** A real telegram with some of its lines changed and its CRC made right again. */
function edited(file: string, edits: [string, string][]): Buffer {
  let text = fixture(file);
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`${file} has no ${from}`);
    text = text.replace(from, to);
  }
  const start = text.indexOf('/');
  const end = text.indexOf('!', start) + 1;
  const crc = crc16Arc(Buffer.from(text.slice(start, end), 'latin1'))
    .toString(16)
    .toUpperCase()
    .padStart(4, '0');
  return Buffer.from(`${text.slice(0, end)}${crc}\r\n`, 'latin1');
}

/** The ALT telegram half an hour later: November's peak and the running demand have grown. */
const LATER = edited(ALT, [
  ['0-0:1.0.0(231102121548W)', '0-0:1.0.0(231102124548W)'],
  ['1-0:1.6.0(231102114500W)(03.064*kW)', '1-0:1.6.0(231102123000W)(03.512*kW)'],
  ['1-0:1.4.0(00.052*kW)', '1-0:1.4.0(01.234*kW)'],
]);

describe.each(DIALECTS)('P1 capacity-tariff values stored on $name', (dialect) => {
  let t: TestApp;
  let deviceId: number;
  let family: ReturnType<typeof createFamilyIngest>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    deviceId = await addDevice(t.services, METER.mac, 4, 'Fluvius');
  }, 60_000);
  afterAll(() => t.close());

  beforeEach(async () => {
    const db = t.services.database.db.withTables<TelemetryDB>();
    await db.deleteFrom('meter_capacity_peaks').execute();
    await db.deleteFrom('meter_capacity_demand').execute();
    t.clock.set(Date.parse('2023-11-02T12:00:00Z'));
    const repo = meterCapacityRepository(t.services.database);
    family = createFamilyIngest({
      repository: {
        byTopic: (f, topic) => Promise.resolve(f === 'p1' && topic === METER.topic ? METER : null),
        byMac: () => Promise.resolve(METER),
        onlineOf: () => Promise.resolve([]),
      },
      accept: (_m, _p, ack) => ack?.(),
      clock: t.clock,
      tz: 'Europe/Bratislava',
      metrics: createTelemetryMetrics(new Registry()),
      logger: memoryLogger(),
      capacity: createCapacityRecorder({
        save: (w) => repo.save(w),
        onError: (e) => {
          throw e;
        },
      }),
    });
  });

  const send = async (payload: Buffer | string) => {
    family.handle(
      `p1/${METER.topic}`,
      typeof payload === 'string' ? Buffer.from(payload, 'latin1') : payload,
    );
    await family.settled();
  };
  const stored = () => meterCapacityRepository(t.services.database).read(deviceId);

  it('keeps the meter’s monthly peaks and running demand, and no month it has not set', async () => {
    await send(fixture(ALT));
    expect(await stored()).toEqual({
      months: [
        { month: '2023-08', peakW: 1862, atSec: sec('2023-08-31T16:15:00Z') },
        { month: '2023-09', peakW: 4229, atSec: sec('2023-09-10T16:30:00Z') },
        { month: '2023-10', peakW: 4927, atSec: sec('2023-10-16T11:00:00Z') },
        { month: '2023-11', peakW: 3064, atSec: sec('2023-11-02T10:45:00Z') },
      ],
      average: { averageW: 52, reportedSec: sec('2023-11-02T11:15:48Z') },
    });
  });

  it('keeps months across telegrams: an older meter’s history and a newer one’s', async () => {
    t.clock.set(Date.parse('2020-05-12T12:00:00Z'));
    await send(fixture('dsmr_parser_fluvius_v171.txt'));
    t.clock.set(Date.parse('2023-11-02T12:00:00Z'));
    await send(fixture(ALT));
    const months = (await stored()).months.map((m) => `${m.month}:${m.peakW}`);
    expect(months).toEqual([
      '2020-02:4318',
      '2020-03:5980',
      '2020-04:3695',
      '2020-05:2589',
      '2023-08:1862',
      '2023-09:4229',
      '2023-10:4927',
      '2023-11:3064',
    ]);
  });

  it('changes nothing when a telegram comes again, or late after a newer one', async () => {
    t.clock.set(Date.parse('2023-11-02T12:00:00Z'));
    await send(fixture(ALT));
    t.clock.set(Date.parse('2023-11-02T12:00:00Z') + 1);
    await send(fixture(ALT));
    const once = await stored();
    t.clock.set(Date.parse('2023-11-02T11:46:00Z'));
    await send(LATER);
    const later = await stored();
    expect(later.months.at(-1)).toEqual({
      month: '2023-11',
      peakW: 3512,
      atSec: sec('2023-11-02T11:30:00Z'),
    });
    expect(later.average).toEqual({ averageW: 1234, reportedSec: sec('2023-11-02T11:45:48Z') });
    expect(later.months.slice(0, -1)).toEqual(once.months.slice(0, -1));
    // The earlier telegram delivered once more: its November peak and demand are older.
    await send(fixture(ALT));
    expect(await stored()).toEqual(later);
  });

  it('stores nothing of a telegram that is refused, or dated where ingest refuses frames', async () => {
    const bad = Buffer.from(fixture(ALT).replace('(03.064*kW)', '(09.064*kW)'), 'latin1');
    await send(bad);
    t.clock.set(Date.parse('2023-11-02T10:00:00Z'));
    await send(fixture(ALT));
    t.clock.set(Date.parse('2024-01-02T10:00:00Z'));
    await send(fixture(ALT));
    expect(await stored()).toEqual({ months: [], average: null });
  });

  it('stores nothing for a P1 meter without the capacity tariff', async () => {
    for (const file of ['dsmrreader_kaifa_dsmr42.txt', 'dsmrreader_luxembourg_smarty_dsmr42.txt']) {
      const at = /0-0:1\.0\.0\((\d{2})(\d{2})(\d{2})/.exec(fixture(file))!;
      t.clock.set(Date.UTC(2000 + Number(at[1]), Number(at[2]) - 1, Number(at[3]), 12));
      await send(fixture(file));
    }
    expect(await stored()).toEqual({ months: [], average: null });
  });
});
