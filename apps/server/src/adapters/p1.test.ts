import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LiveFrame } from '@meterportal/protocol';
import { readingToFrame } from './reading';
import { crc16Arc, decodeP1, telegramTime, type P1Telegram } from './p1';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const TZ = 'Europe/Brussels';

interface Q {
  value: number;
  unit: string;
}
interface Stamp {
  raw: string;
  dst?: boolean;
  utc_assuming_CET_CEST?: string;
  utc_assuming_Europe_Dublin?: string;
}
type Expected = Record<string, unknown> & {
  crc_valid: boolean | null;
  timestamp?: Stamp;
  be_current_average_demand?: Q;
  be_max_demand_month?: Q & { timestamp: Stamp };
  be_max_demand_13_months?: (Q & { period_start: Stamp; peak_at: Stamp })[];
};
const EXPECTED = JSON.parse(fs.readFileSync(path.join(DIR, 'EXPECTED_DSMR.json'), 'utf8')) as Record<
  string,
  Expected
>;
const read = (file: string) => fs.readFileSync(path.join(DIR, 'dsmr', file));
const q = (e: Expected, key: string) => e[key] as Q | undefined;
/** kWh / kW of the expectation in Wh / W. */
const milli = (v: Q | undefined) => (v === undefined ? undefined : v.value * 1000);
const utcSec = (s: Stamp) => Date.parse((s.utc_assuming_CET_CEST ?? s.utc_assuming_Europe_Dublin)!) / 1000;
/** The zone the expectation assumes for the meter's clock. */
const zoneOf = (e: Expected) => (e.timestamp?.utc_assuming_Europe_Dublin ? 'Europe/Dublin' : TZ);

const sum = (...vals: (number | undefined)[]) =>
  vals.some((v) => v !== undefined) ? vals.reduce<number>((a, v) => a + (v ?? 0), 0) : undefined;

const valid = Object.entries(EXPECTED).filter(([, e]) => e.crc_valid !== false);

describe('P1 telegrams of real meters', () => {
  it.each(valid)('%s gives the values the meter sent', (file, e) => {
    const r = decodeP1(read(file), zoneOf(e));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    const t: P1Telegram = r.telegram;
    expect(t.crcValid).toBe(e.crc_valid);
    const { reading } = t;

    // Import and export: tariff registers summed, else the total register.
    const imp = sum(
      milli(q(e, 'import_t1')),
      milli(q(e, 'import_t2')),
      milli(q(e, 'import_t3')),
      milli(q(e, 'import_t4')),
    );
    const exp = sum(milli(q(e, 'export_t1')), milli(q(e, 'export_t2')));
    const importWh = imp ?? milli(q(e, 'import_total'));
    const exportWh = exp ?? milli(q(e, 'export_total'));
    if (importWh === undefined) expect(reading.E_I).toBeUndefined();
    else expect(reading.E_I!.totalWh).toBeCloseTo(importWh, 3);
    if (exportWh === undefined) expect(reading.E_E).toBeUndefined();
    else expect(reading.E_E!.totalWh).toBeCloseTo(exportWh, 3);

    // Per-phase voltage and current where the meter sends them; absent stays absent.
    for (const [n, phase] of [
      [1, 'L1'],
      [2, 'L2'],
      [3, 'L3'],
    ] as const) {
      const u = q(e, `voltage_l${n}`);
      const i = q(e, `current_l${n}`);
      expect(reading.U?.[phase]).toBe(u?.value);
      expect(reading.I?.[phase]).toBe(i?.value);
      const pi = milli(q(e, `power_import_l${n}`));
      const pe = milli(q(e, `power_export_l${n}`));
      if (pi === undefined && pe === undefined) {
        if (n > 1 || reading.P?.L1 === undefined) expect(reading.P?.[phase]).toBeUndefined();
      } else expect(reading.P![phase]).toBeCloseTo((pi ?? 0) - (pe ?? 0), 6);
    }
    // A meter without per-phase power shows its actual power (import minus export) on L1.
    const perPhase = ['power_import_l1', 'power_export_l1'].some((k) => k in e);
    if (!perPhase && ('power_import' in e || 'power_export' in e))
      expect(reading.P!.L1).toBeCloseTo(
        (milli(q(e, 'power_import')) ?? 0) - (milli(q(e, 'power_export')) ?? 0),
        6,
      );
    expect(reading.F).toBe(q(e, 'frequency')?.value);

    if (e.timestamp) {
      expect(reading.tsSec).toBe(utcSec(e.timestamp));
      expect(t.summer).toBe(e.timestamp.dst);
    } else expect(reading.tsSec).toBeUndefined();

    // The Belgian capacity tariff.
    expect(t.capacity.currentAverageW).toBe(milli(e.be_current_average_demand));
    if (e.be_max_demand_month) {
      expect(t.capacity.monthPeak).toEqual({
        atSec: utcSec(e.be_max_demand_month.timestamp),
        powerW: milli(e.be_max_demand_month),
      });
    } else expect(t.capacity.monthPeak).toBeUndefined();
    if (e.be_max_demand_13_months) {
      expect(t.capacity.lastPeaks).toEqual(
        e.be_max_demand_13_months.map((p) => ({
          // The fixture's `period_start` is the stamp of the month's close (its peak is before it).
          closedSec: utcSec(p.period_start),
          atSec: p.peak_at.utc_assuming_CET_CEST ? utcSec(p.peak_at) : null,
          powerW: milli(p),
        })),
      );
    } else expect(t.capacity.lastPeaks).toBeUndefined();
  });

  it('takes the CRC over the raw bytes, a non-ASCII header byte included', () => {
    for (const [file, e] of Object.entries(EXPECTED)) {
      const bytes = read(file);
      const text = bytes.toString('latin1');
      // The last complete telegram of the file, from its header to its "!".
      const start =
        text.lastIndexOf('\n/') >= 0 && file.includes('NEG')
          ? text.lastIndexOf('\n/') + 1
          : text.indexOf('/');
      const end = text.indexOf('!', start) + 1;
      expect(crc16Arc(bytes.subarray(start, end)).toString(16).toUpperCase().padStart(4, '0'), file).toBe(
        e.crc16_arc_computed as string,
      );
    }
  });

  it('refuses a telegram whose CRC is wrong', () => {
    const r = decodeP1(read('dsmrreader_NEG_kaifa_wrong_crc.txt'), TZ);
    expect(r).toMatchObject({ ok: false, reason: 'crc' });
  });

  it('takes the complete telegram after a truncated one, never the truncated values', () => {
    const r = decodeP1(read('dsmrreader_NEG_truncated_then_full_telegram.txt'), TZ);
    expect(r.ok && r.telegram.reading.E_I?.totalWh).toBeCloseTo((9012.345 + 9067.89) * 1000, 3);
  });

  it.each([
    ['a telegram cut off before its end', (t: string) => t.slice(0, t.indexOf('1-0:1.7.0'))],
    ['a flipped digit', (t: string) => t.replace('000004.426', '000004.427')],
    ['no telegram at all', () => 'hello'],
    ['a fragment without its header', (t: string) => t.slice(10)],
    ['an impossible timestamp', (t: string) => t.replace('170102192002W', '171302192002W')],
    ['an empty payload', () => ''],
  ])('refuses %s', (_name, spoil) => {
    const raw = read('dsmr_parser_v5_iskra_mt382.txt').toString('latin1');
    const r = decodeP1(Buffer.from(spoil(raw), 'latin1'), TZ);
    expect(r.ok).toBe(false);
  });

  it('reads a telegram without electricity (a heat meter) as a reading without registers', () => {
    const r = decodeP1(read('dsmr_parser_v5_warmtelink_unpadded_crc.txt'), TZ);
    expect(r.ok && r.telegram.reading).toEqual({ tsSec: Date.parse('2026-02-15T19:05:23Z') / 1000 });
  });

  it('reads the repeated hour of the autumn change by its S/W flag', () => {
    // 2023-10-29 02:30 happens twice in Brussels: first in summer time, then in winter time.
    expect(telegramTime('231029023000S', TZ)?.tsSec).toBe(Date.parse('2023-10-29T00:30:00Z') / 1000);
    expect(telegramTime('231029023000W', TZ)?.tsSec).toBe(Date.parse('2023-10-29T01:30:00Z') / 1000);
    expect(telegramTime('632525252525W', TZ)).toBeNull();
  });
});

describe('P1 live frames', () => {
  const FRAMES = valid.filter(
    ([file]) => file.startsWith('dsmr_parser_fluvius') || file.endsWith('kaifa.txt'),
  );
  it.each(FRAMES)('%s: no frequency, factor or reactive power, never a zero in their place', (file, e) => {
    const r = decodeP1(read(file), zoneOf(e));
    if (!r.ok || r.kind !== 'reading') throw new Error(JSON.stringify(r));
    const frame = LiveFrame.parse(readingToFrame(r.telegram.reading, 1_763_000_000));
    expect(frame.F).toBeNull();
    expect(frame.PF).toEqual({ L1: null, L2: null, L3: null });
    expect(frame.Q).toEqual({ L1: null, L2: null, L3: null });
    expect(frame.S).toEqual({ L1: null, L2: null, L3: null });
    // The phases the meter reports carry its values; the others are absent.
    const u = r.telegram.reading.U ?? {};
    for (const p of ['L1', 'L2', 'L3'] as const) expect(frame.U[p]).toBe(u[p] ?? null);
    expect(frame.E_I.L1).toBeGreaterThan(0);
  });
});

describe("DSMR-reader's JSON", () => {
  const json = {
    id: 1234,
    timestamp: '2024-03-12T10:15:02Z',
    electricity_delivered_1: '1234.567',
    electricity_returned_1: '12.005',
    electricity_delivered_2: '2345.678',
    electricity_returned_2: '0.000',
    electricity_currently_delivered: '0.612',
    electricity_currently_returned: '0.000',
    phase_currently_delivered_l1: '0.312',
    phase_currently_delivered_l2: '0.300',
    phase_currently_delivered_l3: null,
    phase_currently_returned_l1: '0.000',
    phase_currently_returned_l2: '0.000',
    phase_currently_returned_l3: null,
    phase_voltage_l1: '231.0',
    phase_voltage_l2: '229.5',
    phase_voltage_l3: null,
    phase_power_current_l1: 2,
    phase_power_current_l2: 1,
    phase_power_current_l3: null,
  };
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o));

  it('sums the tariff registers and keeps only the phases it has', () => {
    const r = decodeP1(enc(json), TZ);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.telegram.reading).toEqual({
      tsSec: Date.parse('2024-03-12T10:15:02Z') / 1000,
      E_I: { totalWh: 3580245 },
      E_E: { totalWh: 12005 },
      U: { L1: 231, L2: 229.5 },
      I: { L1: 2, L2: 1 },
      P: { L1: 312, L2: 300 },
    });
  });

  it.each([
    ['truncated JSON', Buffer.from(JSON.stringify(json).slice(0, 40))],
    ['a register of the wrong type', enc({ ...json, electricity_delivered_1: true })],
    ['a missing register', enc({ ...json, electricity_returned_2: undefined })],
    ['a bad time', enc({ ...json, timestamp: 'yesterday' })],
  ])('refuses %s', (_name, bytes) => {
    expect(decodeP1(bytes, TZ).ok).toBe(false);
  });
});
