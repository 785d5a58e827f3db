import { describe, expect, it } from 'vitest';
import { averageIn, bucketsOf, maxIntoPeriods, profileBucketMs, quarterKw, sumIntoPeriods } from './history-fns';

describe('buckets', () => {
  it('averages values into the buckets their times fall into', () => {
    const times = Float64Array.from([0, 60_000, 120_000, 180_000, 300_000]);
    const b = bucketsOf(times, 120_000);
    expect([...b.times]).toEqual([0, 120_000, 240_000]);
    expect([...averageIn(b, Float64Array.from([1, 3, 5, 7, 10]))]).toEqual([2, 6, 10]);
  });
  it.each([
    [86400, 60_000],
    [7 * 86400, 4 * 60_000],
    [14 * 86400, 7 * 60_000],
  ])('a span of %i s uses buckets of %i ms', (span, ms) => {
    expect(profileBucketMs(span)).toBe(ms);
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
    expect(sumIntoPeriods(buckets, starts)).toEqual([[100_000, 3], [200_000, 4], [300_000, 24]]);
  });
  it('takes the maximum per period', () => {
    expect(maxIntoPeriods(buckets, starts)).toEqual([[100_000, 2], [200_000, 4], [300_000, 16]]);
  });
  it('turns quarter-hour energy into average kW', () => {
    expect(quarterKw(2500)).toBe(10);
  });
});
