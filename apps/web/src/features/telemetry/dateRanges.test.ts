import { describe, expect, it } from 'vitest';
import { PRESETS, customRange, energyTo, isAfterToday, presetRange, resolveRange } from './dateRanges';

const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h, 30);
const local = (s: number) => new Date(s * 1000);

describe('date ranges', () => {
  it('offers the seed shortcuts per granularity', () => {
    expect(PRESETS.day).toEqual(['today', 'yesterday', 'last7days', 'last14days']);
    expect(PRESETS.week).toEqual(['last7days', 'last14days']);
    expect(PRESETS.year).toEqual(['thisYear', 'lastYear']);
  });

  it.each([
    ['today', [2026, 3, 10, 0, 0, 0], [2026, 3, 10, 23, 59, 59]],
    ['yesterday', [2026, 3, 9, 0, 0, 0], [2026, 3, 9, 23, 59, 59]],
    ['last7days', [2026, 3, 4, 0, 0, 0], [2026, 3, 10, 23, 59, 59]],
    ['last14days', [2026, 2, 25, 0, 0, 0], [2026, 3, 10, 23, 59, 59]],
    ['thisYear', [2026, 1, 1, 0, 0, 0], [2026, 12, 31, 23, 59, 59]],
    ['lastYear', [2025, 1, 1, 0, 0, 0], [2025, 12, 31, 23, 59, 59]],
  ] as const)('%s covers whole local days', (key, f, t) => {
    const r = presetRange(key, at(2026, 3, 10));
    const [fy, fm, fd, fh, fmin, fs] = f;
    const [ty, tm, td, th, tmin, ts] = t;
    expect(local(r.from)).toEqual(new Date(fy, fm - 1, fd, fh, fmin, fs));
    expect(local(r.to)).toEqual(new Date(ty, tm - 1, td, th, tmin, ts));
  });

  it('orders a custom range and labels it D.M. - D.M.', () => {
    const r = customRange(at(2026, 2, 9), at(2026, 2, 3));
    expect(r.key).toBe('3.2. - 9.2.');
    expect(local(r.from)).toEqual(new Date(2026, 1, 3));
    expect(local(r.to)).toEqual(new Date(2026, 1, 9, 23, 59, 59));
  });

  it('forbids days after today but allows today', () => {
    const now = at(2026, 3, 10, 8);
    expect(isAfterToday(at(2026, 3, 10, 23), now)).toBe(false);
    expect(isAfterToday(at(2026, 3, 11, 0), now)).toBe(true);
  });

  it('recomputes stored presets, keeps custom ranges and falls back per granularity', () => {
    const now = at(2026, 3, 10);
    const stale = { key: 'today', from: 1, to: 2 };
    expect(resolveRange(stale, 'day', now)).toEqual(presetRange('today', now));
    expect(resolveRange(stale, 'week', now)).toEqual(presetRange('last7days', now));
    expect(resolveRange(undefined, 'year', now)).toEqual(presetRange('thisYear', now));
    const custom = customRange(at(2026, 1, 1), at(2026, 1, 2));
    expect(resolveRange(custom, 'day', now)).toEqual(custom);
  });

  it('adds one second to the energy upper bound', () => {
    const r = presetRange('today', at(2026, 3, 10));
    expect(energyTo(r)).toBe(r.to + 1);
    expect(local(energyTo(r))).toEqual(new Date(2026, 2, 11));
  });
});
