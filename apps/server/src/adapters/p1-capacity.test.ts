import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeP1 } from './p1';
import { capacityReport, createCapacityRecorder, type CapacityWrite } from './p1-capacity';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'dsmr');
const TZ = 'Europe/Brussels';
const sec = (iso: string) => Date.parse(iso) / 1000;

/** A real telegram's capacity-tariff objects, decoded. */
function capacityOf(file: string) {
  const bytes = fs.readFileSync(path.join(DIR, file));
  const r = decodeP1(bytes, TZ);
  if (!r.ok) throw new Error(`${file}: ${r.detail}`);
  return r.telegram;
}

describe('the capacity tariff of real Fluvius telegrams', () => {
  it.each([
    {
      file: 'dsmr_parser_fluvius_v171.txt',
      averageW: 2351,
      months: [
        { month: '2020-02', peakW: 4318, atSec: sec('2020-02-10T02:54:21Z') },
        { month: '2020-03', peakW: 5980, atSec: sec('2020-03-05T10:21:39Z') },
        { month: '2020-04', peakW: 3695, atSec: sec('2020-04-23T17:25:38Z') },
        { month: '2020-05', peakW: 2589, atSec: sec('2020-05-09T11:45:58Z') },
      ],
    },
    {
      // July's record is "not set" (632525252525W, 0 kW): no month for it.
      file: 'dsmr_parser_fluvius_v171_alt_peak_unset.txt',
      averageW: 52,
      months: [
        { month: '2023-08', peakW: 1862, atSec: sec('2023-08-31T16:15:00Z') },
        { month: '2023-09', peakW: 4229, atSec: sec('2023-09-10T16:30:00Z') },
        { month: '2023-10', peakW: 4927, atSec: sec('2023-10-16T11:00:00Z') },
        { month: '2023-11', peakW: 3064, atSec: sec('2023-11-02T10:45:00Z') },
      ],
    },
    {
      // A running average of zero is a measured zero, not a value left unset.
      file: 'dsmrreader_fluvius_two_gas_meters.txt',
      averageW: 0,
      months: [
        { month: '2022-12', peakW: 13603, atSec: sec('2022-12-30T10:45:00Z') },
        { month: '2023-01', peakW: 11173, atSec: sec('2023-01-16T08:00:00Z') },
      ],
    },
  ])('$file gives the meter’s months and running demand', ({ file, averageW, months }) => {
    const t = capacityOf(file);
    expect(capacityReport(t.capacity, t.reading.tsSec!, TZ)).toEqual({
      reportedSec: t.reading.tsSec,
      months,
      averageW,
    });
  });

  it.each([
    'dsmrreader_kaifa_dsmr42.txt',
    'dsmrreader_sweden_kamstrup.txt',
    'dsmr_parser_v5_eon_hungary_sagemcom.txt',
  ])('%s carries no capacity tariff and gives nothing to store', (file) => {
    const t = capacityOf(file);
    expect(capacityReport(t.capacity, t.reading.tsSec ?? 0, TZ)).toBeNull();
  });
});

describe('capacity rules', () => {
  const close = sec('2023-10-31T23:00:00Z'); // 1 November 00:00 in Brussels

  it.each([
    ['a peak inside its month', sec('2023-10-16T11:00:00Z'), close, '2023-10'],
    ['a peak stamped at the month’s close belongs to the month closed', close, close, '2023-10'],
    [
      'a running month’s peak not yet reset keeps its own month',
      sec('2023-10-31T20:00:00Z'),
      undefined,
      '2023-10',
    ],
    ['a running month’s peak in its first quarter hour', close, undefined, '2023-11'],
  ])('%s', (_name, atSec, closedSec, month) => {
    const peak = { atSec, powerW: 1000, ...(closedSec === undefined ? {} : { closedSec }) };
    const c = closedSec === undefined ? { monthPeak: peak } : { lastPeaks: [peak] };
    expect(capacityReport(c, sec('2023-11-02T12:00:00Z'), TZ)?.months.map((m) => m.month)).toEqual([month]);
  });

  it.each([
    ['a peak whose time is not set', { monthPeak: { atSec: null, powerW: 0 } }],
    ['a negative peak', { monthPeak: { atSec: 1_700_000_000, powerW: -5 } }],
    ['a peak beyond any meter', { monthPeak: { atSec: 1_700_000_000, powerW: 2e9 } }],
    ['an empty history', { lastPeaks: [] }],
  ])('stores nothing of %s', (_name, c) => {
    expect(capacityReport(c, 1_700_000_000, TZ)).toBeNull();
  });

  it('writes a month again only when the meter’s record of it changed', async () => {
    const writes: CapacityWrite[][] = [];
    const recorder = createCapacityRecorder({
      save: (w) => {
        writes.push(w);
        return Promise.resolve();
      },
      onError: (e) => {
        throw e;
      },
    });
    const month = { month: '2023-10', peakW: 4927, atSec: 1_697_454_000 };
    recorder.record('m', { reportedSec: 100, months: [month], averageW: 5 });
    await recorder.settled();
    recorder.record('m', { reportedSec: 101, months: [month], averageW: 6 });
    await recorder.settled();
    recorder.record('m', { reportedSec: 102, months: [{ ...month, peakW: 5000 }], averageW: null });
    await recorder.settled();
    expect(
      writes.map((b) => b.map((w) => [w.months.map((m) => m.peakW), w.average?.averageW ?? null])),
    ).toEqual([[[[4927], 5]], [[[], 6]], [[[5000], null]]]);
  });

  it('offers a failed write again with the next telegram', async () => {
    let fail = true;
    const saved: CapacityWrite[] = [];
    const errors: unknown[] = [];
    const recorder = createCapacityRecorder({
      save: (w) => {
        if (fail) return Promise.reject(new Error('store down'));
        saved.push(...w);
        return Promise.resolve();
      },
      onError: (e) => errors.push(e),
    });
    const month = { month: '2023-10', peakW: 4927, atSec: 1_697_454_000 };
    recorder.record('m', { reportedSec: 100, months: [month], averageW: null });
    await recorder.settled();
    fail = false;
    recorder.record('m', { reportedSec: 101, months: [month], averageW: null });
    await recorder.settled();
    expect(errors).toHaveLength(1);
    expect(saved).toEqual([{ mac: 'm', months: [{ ...month, reportedSec: 101 }], average: null }]);
  });
});
