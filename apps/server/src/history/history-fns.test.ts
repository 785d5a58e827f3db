import { describe, expect, it } from 'vitest';
import { profileResolution } from '@meterportal/protocol';
import { foldIntoPeriods, maxIntoPeriods, quarterKw, sumIntoPeriods } from './history-fns';

describe('folding rows into periods', () => {
  const rows = {
    tsSec: [50, 100, 150, 299, 300, 900],
    values: [Float64Array.from([1000, 1, 2, 4, 8, 16]), Float64Array.from([0, 10, 20, 30, 40, 50])],
  };
  it('sums each column per period, leaving out rows before the first and periods without rows', () => {
    const f = foldIntoPeriods(rows, [100, 200, 300, 400, 500], 'sum');
    expect(f.tsSec).toEqual([100, 200, 300, 500]);
    expect(f.values.map((v) => [...v])).toEqual([
      [3, 4, 8, 16],
      [30, 30, 40, 50],
    ]);
  });
  it('averages rows by their weights (the minutes each one stands for)', () => {
    const f = foldIntoPeriods(rows, [100, 300], { weights: [1, 1, 3, 1, 60, 20] });
    expect(f.tsSec).toEqual([100, 300]);
    expect([...f.values[1]!]).toEqual([(10 + 60 + 30) / 5, (40 * 60 + 50 * 20) / 80]);
  });
  it.each([
    [86400, 'MINUTE'],
    [2 * 86400, 'MINUTE'],
    [2 * 86400 + 1, 'HOUR'],
    [62 * 86400, 'HOUR'],
    [62 * 86400 + 1, 'DAY'],
    [366 * 86400, 'DAY'],
  ])('answers a span of %i s per %s', (span, resolution) => {
    expect(profileResolution(span)).toBe(resolution);
  });
});

describe('periods', () => {
  const starts = [100, 200, 300];
  const buckets = [
    { tsSec: 50, value: 1000 },
    { tsSec: 100, value: 1 },
    { tsSec: 150, value: 2 },
    { tsSec: 299, value: 4 },
    { tsSec: 300, value: 8 },
    { tsSec: 900, value: 16 },
  ];
  it('sums each bucket into the period holding it, leaving out buckets before the first', () => {
    expect(sumIntoPeriods(buckets, starts)).toEqual([
      [100_000, 3],
      [200_000, 4],
      [300_000, 24],
    ]);
  });
  it('takes the maximum per period', () => {
    expect(maxIntoPeriods(buckets, starts)).toEqual([
      [100_000, 2],
      [200_000, 4],
      [300_000, 16],
    ]);
  });
  it('turns quarter-hour energy into average kW', () => {
    expect(quarterKw(2500)).toBe(10);
  });
});
