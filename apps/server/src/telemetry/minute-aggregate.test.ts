import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MINUTE_CHANNELS,
  MINUTE_VALUE_COLUMNS,
  addSample,
  finishMinute,
  mergeMinutes,
  newMinuteBucket,
} from './minute-aggregate';

const N = MINUTE_CHANNELS.length;
const sample = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: N, maxLength: N });

function aggregate(samples: number[][]) {
  const b = newMinuteBucket(60);
  for (const s of samples) addSample(b, s);
  return finishMinute(b);
}

describe('minute aggregation', () => {
  it('keeps min/max for voltage, current, power, distortion and F, average only for PF and angles', () => {
    expect(MINUTE_VALUE_COLUMNS).toContain('u_l1_min');
    expect(MINUTE_VALUE_COLUMNS).toContain('f_max');
    expect(MINUTE_VALUE_COLUMNS).toContain('pf_l3_avg');
    expect(MINUTE_VALUE_COLUMNS).not.toContain('pf_l3_min');
    expect(MINUTE_VALUE_COLUMNS).not.toContain('f_u_l2_max');
  });

  it('gives avg, min and max per channel equal to the direct computation', () => {
    fc.assert(
      fc.property(fc.array(sample, { minLength: 1, maxLength: 60 }), (samples) => {
        const agg = aggregate(samples);
        expect(agg.samples).toBe(samples.length);
        expect(agg.values).toHaveLength(MINUTE_VALUE_COLUMNS.length);
        let col = 0;
        MINUTE_CHANNELS.forEach((c, i) => {
          const xs = samples.map((s) => s[i]!);
          const avg = xs.reduce((a, b) => a + b, 0) / xs.length;
          expect(agg.values[col]).toBeCloseTo(avg, 6);
          expect(
            agg.values[col]! >= Math.min(...xs) - 1e-6 && agg.values[col]! <= Math.max(...xs) + 1e-6,
          ).toBe(true);
          col++;
          if (c.minMax) {
            // === rather than toBe: -0 and +0 are the same reading.
            expect(agg.values[col] === Math.min(...xs)).toBe(true);
            expect(agg.values[col + 1] === Math.max(...xs)).toBe(true);
            col += 2;
          }
        });
      }),
      { numRuns: 200 },
    );
  });

  it('merging two parts equals aggregating the whole minute', () => {
    fc.assert(
      fc.property(
        fc.array(sample, { minLength: 1, maxLength: 30 }),
        fc.array(sample, { minLength: 1, maxLength: 30 }),
        (a, b) => {
          const merged = mergeMinutes(aggregate(a), aggregate(b));
          const whole = aggregate([...a, ...b]);
          expect(merged.samples).toBe(whole.samples);
          merged.values.forEach((v, i) => expect(v).toBeCloseTo(whole.values[i]!, 6));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses to finish an empty minute', () => {
    expect(() => finishMinute(newMinuteBucket(0))).toThrow();
  });
});
