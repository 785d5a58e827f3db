import { describe, expect, it } from 'vitest';
import { bandSeries, draftTariff, formatMoney, granularityFor, percentOf, shareStatus } from './costRules';

describe('cost rules', () => {
  it.each([
    ['en', '1,234.56 EUR'],
    ['sk', '1 234,56 EUR'],
    ['de', '1.234,56 EUR'],
  ])('writes cents as money in %s', (lng, text) => {
    expect(formatMoney(123456, 'EUR', lng).replace(/\u00a0/g, ' ')).toBe(text);
  });

  it.each([
    ['HOUR', 'day'],
    ['DAY', 'week'],
    ['MONTH', 'year'],
    ['YEAR', 'year'],
  ] as const)('offers the %s period over a %s range', (period, granularity) => {
    expect(granularityFor(period)).toBe(granularity);
  });

  it.each([
    [8, 10, 80, 'active'],
    [7.9, 10, 79, 'normal'],
    [10.1, 10, 101, 'exception'],
    [5, 0, null, 'normal'],
  ] as const)('%s kW against %s kW is %s %%, %s', (v, limit, pct, status) => {
    expect(percentOf(v, limit)).toBe(pct);
    expect(shareStatus(percentOf(v, limit))).toBe(status);
  });

  it('starts a new version from the latest one with the given date', () => {
    const first = draftTariff(undefined, '2026-01-01');
    expect(first.bands).toHaveLength(2);
    expect(draftTariff({ ...first, monthlyFee: 9 }, '2026-05-01')).toMatchObject({
      validFrom: '2026-05-01',
      monthlyFee: 9,
    });
  });

  it('turns band cents into currency per period', () => {
    const row = { t: 1, bands: { High: 150, Low: 5 } };
    expect(bandSeries([row as never], ['High', 'Low'])).toEqual([
      ['High', [[1, 1.5]]],
      ['Low', [[1, 0.05]]],
    ]);
  });
});
