import { describe, expect, it } from 'vitest';
import { MeterTestResult, type MeterRecord } from '@meterportal/protocol';
import { buildTestResult, meterClassPct } from './accutest';
import { factoryMeters } from './commands';
import { createMeterModel } from './model';
import { meterProfile } from './profiles';

const MAC = '02-4D-50-00-00-03';
const WEEKDAY_NOON = Date.UTC(2026, 5, 17, 11, 0, 0) / 1000;
const profile = meterProfile(3, MAC);
const model = createMeterModel(profile);
const meters = factoryMeters();
const n = (r: MeterTestResult, k: string) => (r as Record<string, number>)[k]!;

function resultAt(tsSec: number, meter: MeterRecord = meters[0]!, intTimeSec = 30) {
  return buildTestResult({ meter, instant: model.sample(tsSec), tsSec, intTimeSec, seed: profile.seed });
}

describe('accuracy test result', () => {
  it('is a result the contract accepts, for the meter and time it was run', () => {
    const r = resultAt(WEEKDAY_NOON);
    expect(MeterTestResult.safeParse(r).success).toBe(true);
    expect(r.IDN).toBe('1');
    expect(r.MTIME).toBe(WEEKDAY_NOON);
    expect(r.INTTIME).toBe(30);
    expect(r.METERCONST).toBe(1000);
  });

  it('reports the live model: ~230 V, phases 0/240/120 degrees, about 50 Hz', () => {
    const r = resultAt(WEEKDAY_NOON);
    const s = model.sample(WEEKDAY_NOON);
    for (const i of [1, 2, 3]) {
      expect(n(r, `MCHNLA${i}`)).toBeGreaterThan(215);
      expect(n(r, `MCHNLA${i}`)).toBeLessThan(245);
      expect(n(r, `MCHNLB${i}`)).toBeCloseTo(s.I[`L${i}` as 'L1'], 3);
    }
    expect([n(r, 'MPHA1'), n(r, 'MPHA2'), n(r, 'MPHA3')].map((a) => Math.round(a / 10) * 10)).toEqual([
      0, 240, 120,
    ]);
    expect(r.MFREQ).toBeGreaterThan(49.9);
    expect(r.MFREQ).toBeLessThan(50.1);
  });

  it.each([[WEEKDAY_NOON], [WEEKDAY_NOON + 7 * 3600], [WEEKDAY_NOON + 3 * 86400 + 1234]])(
    'keeps P = U·I·cos, Q = U·I·sin, S = U·I and energy = power × time at %i',
    (ts) => {
      const r = resultAt(ts, meters[1], 60);
      let p = 0;
      for (const i of [1, 2, 3]) {
        const u = n(r, `MCHNLA${i}`);
        const cur = n(r, `MCHNLB${i}`);
        const ph = n(r, `PH${i}`);
        const diff = ((n(r, `MPHB${i}`) - n(r, `MPHA${i}`) + 540) % 360) - 180;
        expect(ph).toBeCloseTo(diff, 1);
        // An inductive load: the current lags, so PH is negative and Q positive.
        expect(ph).toBeLessThan(0);
        const rad = (ph * Math.PI) / 180;
        expect(n(r, `MPOWER${i}`)).toBeCloseTo(u * cur * Math.cos(rad), 0);
        expect(n(r, `MQPOWER${i}`)).toBeCloseTo(-u * cur * Math.sin(rad), 0);
        expect(n(r, `MSPOWER${i}`)).toBeCloseTo(u * cur, 0);
        expect(n(r, `MPOWFACT${i}`)).toBeCloseTo(Math.cos(rad), 3);
        expect(n(r, `MENERGY${i}`)).toBeCloseTo((n(r, `MPOWER${i}`) * 60) / 3600, 3);
        expect(n(r, `MSENERGY${i}`)).toBeCloseTo((n(r, `MSPOWER${i}`) * 60) / 3600, 3);
        p += n(r, `MPOWER${i}`);
      }
      expect(r.MPOWERSUM).toBeCloseTo(p, 1);
      expect(r.MENERGYSUM).toBeCloseTo((p * 60) / 3600, 2);
      expect(r.MDSLIDP).toBeGreaterThan(r.MPOWERSUM!);
      expect(r.MDFIXP).toBeLessThan(r.MDSLIDP!);
    },
  );

  it('keeps the error within the meter class with a small deviation', () => {
    const class2 = { ...meters[0]!, CLASS: '2' };
    let widest = 0;
    for (let k = 0; k < 200; k++) {
      const r = resultAt(WEEKDAY_NOON + k * 300, class2);
      expect(Math.abs(r.ERROR)).toBeLessThanOrEqual(2);
      expect(r.METERSTDEV).toBeGreaterThan(0);
      expect(r.METERSTDEV).toBeLessThan(0.2);
      widest = Math.max(widest, Math.abs(r.ERROR));
    }
    // The spread is real, not a constant.
    expect(widest).toBeGreaterThan(0.5);
  });

  it.each([
    ['1', 1],
    ['0.5', 0.5],
    ['', 1],
    [undefined, 1],
  ])('reads class %j as %d %%', (CLASS, pct) => {
    expect(meterClassPct({ IDN: '1', ...(CLASS === undefined ? {} : { CLASS }) })).toBe(pct);
  });

  it('repeats exactly for the same device, meter and time', () => {
    expect(resultAt(WEEKDAY_NOON)).toEqual(resultAt(WEEKDAY_NOON));
  });
});
