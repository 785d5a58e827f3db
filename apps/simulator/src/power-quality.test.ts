import { describe, expect, it } from 'vitest';
import { analyzerMinutes, analyzerSpectra, PLANTED_DISTORTION, PLANTED_SAG } from './power-quality';

const MAC = '02-4D-50-00-00-03';
/** Monday 16 March 2026 00:00 in Bratislava. */
const WEEK = Date.parse('2026-03-15T23:00:00Z') / 1000;

const minuteAt = (offsetSec: number, planted: boolean) => {
  const from = WEEK + offsetSec;
  const [m] = [...analyzerMinutes(MAC, from, from + 60, planted ? WEEK : undefined)];
  return m!.samples[0]!;
};

describe('the planted power-quality week', () => {
  it('sags every phase to 80 % inside the sag and leaves the minute before it alone', () => {
    const inside = PLANTED_SAG.fromSec + 3600;
    const plain = minuteAt(inside, false);
    const sagged = minuteAt(inside, true);
    for (const ph of ['L1', 'L2', 'L3'] as const) {
      expect(sagged.U[ph]).toBeCloseTo(plain.U[ph] * 0.8, 9);
      expect(sagged.U_PP[ph]).toBeCloseTo(plain.U_PP[ph] * 0.8, 9);
    }
    expect(minuteAt(PLANTED_SAG.fromSec - 60, true)).toEqual(minuteAt(PLANTED_SAG.fromSec - 60, false));
  });

  it('raises the voltage THD to 9.5 % for two days', () => {
    expect(minuteAt(PLANTED_DISTORTION.fromSec, true).DF_U).toEqual({ L1: 9.5, L2: 9.5, L3: 9.5 });
    expect(minuteAt(PLANTED_DISTORTION.toSec - 60, true).DF_U.L2).toBe(9.5);
    expect(minuteAt(PLANTED_DISTORTION.toSec, true).DF_U.L2).toBeLessThan(8);
  });
});

describe('the planted week of harmonic spectra', () => {
  const spectrumAt = (offsetSec: number, planted: boolean) => {
    const from = WEEK + offsetSec;
    const [s] = [...analyzerSpectra(MAC, from, from + 600, planted ? WEEK : undefined)];
    return s!;
  };
  const rss = (values: number[]) => Math.sqrt(values.slice(1).reduce((a, v) => a + v * v, 0));

  it('raises the 5th harmonic above 6 % on every phase in the distorted days, as the THD of 9.5 % has it', () => {
    const s = spectrumAt(PLANTED_DISTORTION.fromSec + 3600, true);
    for (const ph of ['L1', 'L2', 'L3'] as const) {
      expect(s.U[ph][0]).toBe(100);
      expect(s.U[ph][4]).toBeGreaterThan(6);
      expect(rss(s.U[ph])).toBeCloseTo(PLANTED_DISTORTION.thdPct, 1);
    }
  });

  it('keeps every order of an ordinary interval well inside the table', () => {
    const s = spectrumAt(PLANTED_DISTORTION.fromSec + 3600, false);
    for (const ph of ['L1', 'L2', 'L3'] as const) {
      expect(s.U[ph][4]).toBeLessThan(3);
      expect(s.U[ph][14]).toBeLessThan(0.5);
      expect(rss(s.U[ph])).toBeLessThan(3);
    }
    expect(s.intervalSec).toBe(WEEK + PLANTED_DISTORTION.fromSec + 3600);
  });
});
