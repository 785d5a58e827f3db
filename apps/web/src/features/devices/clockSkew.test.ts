import { describe, expect, it } from 'vitest';
import { clockSkewMark } from './clockSkew';

describe('clockSkewMark', () => {
  it.each([
    [null, null],
    [undefined, null],
    [Number.NaN, null],
    [0, null],
    [60, null],
    [-60, null],
    [61, { direction: 'ahead', amount: 61, unit: 's' }],
    [-90, { direction: 'behind', amount: 90, unit: 's' }],
    [300, { direction: 'ahead', amount: 5, unit: 'min' }],
    [2 * 3600 - 1, { direction: 'ahead', amount: 120, unit: 'min' }],
    [3 * 3600, { direction: 'ahead', amount: 3, unit: 'h' }],
    [-40 * 86400, { direction: 'behind', amount: 40, unit: 'd' }],
    [2_000_000_000, { direction: 'ahead', amount: 23148, unit: 'd' }],
  ])('marks a clock error of %s s as %j', (skewSec, mark) => {
    expect(clockSkewMark(skewSec)).toEqual(mark);
  });
});
