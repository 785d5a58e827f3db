import type { HarmonicsResult, WaveformResult } from '@meterportal/protocol';
import { describe, expect, it } from 'vitest';
import { harmonicOrders, harmonicsSeries, thdPercent, waveformSeries } from './series';

const per = (l1: number[], l2: number[], l3: number[]) => ({
  L1: { values: l1 },
  L2: { values: l2 },
  L3: { values: l3 },
});

describe('harmonics series', () => {
  const result: HarmonicsResult = {
    U: per([100, 2, 1], [100, 3, 1], [100, 4, 1]),
    I: per([100, 20, 10], [100, 30, 10], [100, 40, 10, 5]),
  };

  it('numbers the orders from 1, values[0] being the fundamental', () => {
    const s = harmonicsSeries(result);
    expect(s.map((x) => x.key)).toEqual(['L1_U', 'L1_I', 'L2_U', 'L2_I', 'L3_U', 'L3_I']);
    expect(s[0]!.points).toEqual([
      [1, 100],
      [2, 2],
      [3, 1],
    ]);
    expect(s[3]!.points[1]).toEqual([2, 30]);
    expect(harmonicOrders(s)).toBe(4);
    expect(harmonicOrders([])).toBe(0);
  });
});

describe('waveform series', () => {
  it('places sample n at n / sampleRateHz, in milliseconds', () => {
    const result: WaveformResult = {
      sampleRateHz: 6400,
      U: per([0, 325, 0], [1, 2, 3], [4, 5, 6]),
      I: per([0, 7, 0], [1, 1, 1], [2, 2, 2]),
    };
    const s = waveformSeries(result);
    expect(s[0]!.points).toEqual([
      [0, 0],
      [0.15625, 325],
      [0.3125, 0],
    ]);
    expect(s[1]!.key).toBe('L1_I');
    expect(s[1]!.points[1]).toEqual([0.15625, 7]);
  });
});

describe('total harmonic distortion', () => {
  it('is the root of the summed squares of orders 2 and up over the fundamental', () => {
    expect(
      thdPercent([
        [1, 100],
        [2, 3],
        [3, 4],
      ]),
    ).toBeCloseTo(5, 9);
    expect(
      thdPercent([
        [1, 50],
        [5, 1],
      ]),
    ).toBeCloseTo(2, 9);
  });

  it('is unknown without a fundamental', () => {
    expect(thdPercent([[2, 3]])).toBeNull();
    expect(thdPercent([])).toBeNull();
  });
});
