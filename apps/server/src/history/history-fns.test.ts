import { describe, expect, it } from 'vitest';
import { combinePhases, downsample, maxIntoPeriods, profileBucketMs, quarterKw, sumIntoPeriods } from './history-fns';

describe('combinePhases', () => {
  const l1: [number, number][] = [[0, 1], [60_000, 2]];
  const l2: [number, number][] = [[0, 3], [60_000, 4]];
  const l3: [number, number][] = [[0, 5]];
  it.each([
    ['sum', [[0, 9], [60_000, 6]]],
    ['avg', [[0, 3], [60_000, 3]]],
  ] as const)('%s over the phases present at each instant', (mode, expected) => {
    expect(combinePhases([l1, l2, l3], mode)).toEqual(expected);
  });
});

describe('downsample', () => {
  it('averages into buckets and keeps one-minute data as it is', () => {
    const s: [number, number][] = [[0, 1], [60_000, 3], [120_000, 5], [180_000, 7]];
    expect(downsample(s, 60_000)).toBe(s);
    expect(downsample(s, 120_000)).toEqual([[0, 2], [120_000, 6]]);
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
