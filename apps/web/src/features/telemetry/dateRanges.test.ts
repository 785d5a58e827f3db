import { describe, expect, it } from 'vitest';
import { PRESETS, customRange, energyTo, isAfterToday, presetRange, resolveRange } from './dateRanges';

const BA = 'Europe/Bratislava';
const NY = 'America/New_York';
const iso = (s: number) => new Date(s * 1000).toISOString();

describe('date ranges in the installation zone', () => {
  it('offers the seed shortcuts per granularity', () => {
    expect(PRESETS.day).toEqual(['today', 'yesterday', 'last7days', 'last14days']);
    expect(PRESETS.week).toEqual(['last7days', 'last14days']);
    expect(PRESETS.year).toEqual(['thisYear', 'lastYear']);
  });

  // 2026-03-10 12:30 in Bratislava (UTC+1).
  const now = new Date('2026-03-10T11:30:00Z');
  it.each([
    ['today', '2026-03-09T23:00:00.000Z', '2026-03-10T22:59:59.000Z'],
    ['yesterday', '2026-03-08T23:00:00.000Z', '2026-03-09T22:59:59.000Z'],
    ['last7days', '2026-03-03T23:00:00.000Z', '2026-03-10T22:59:59.000Z'],
    ['last14days', '2026-02-24T23:00:00.000Z', '2026-03-10T22:59:59.000Z'],
    ['thisYear', '2025-12-31T23:00:00.000Z', '2026-12-31T22:59:59.000Z'],
    ['lastYear', '2024-12-31T23:00:00.000Z', '2025-12-31T22:59:59.000Z'],
  ] as const)('%s covers whole days of the zone', (key, from, to) => {
    const r = presetRange(key, now, BA);
    expect([iso(r.from), iso(r.to)]).toEqual([from, to]);
  });

  it.each([
    // Spring forward: 23 hours; fall back: 25 hours.
    ['2026-03-29T10:00:00Z', BA, '2026-03-28T23:00:00.000Z', 23],
    ['2026-10-25T10:00:00Z', BA, '2026-10-24T22:00:00.000Z', 25],
    ['2026-03-08T15:00:00Z', NY, '2026-03-08T05:00:00.000Z', 23],
    ['2026-11-01T15:00:00Z', NY, '2026-11-01T04:00:00.000Z', 25],
  ] as const)('today at %s in %s starts at %s and lasts %i hours', (at, tz, start, hours) => {
    const r = presetRange('today', new Date(at), tz);
    expect(iso(r.from)).toBe(start);
    expect(r.to + 1 - r.from).toBe(hours * 3600);
  });

  it('takes the day the installation is on, not the browser clock day', () => {
    // 2026-03-29 01:30 in Bratislava is still 2026-03-28 evening in New York.
    const late = new Date('2026-03-29T00:30:00Z');
    expect(iso(presetRange('today', late, BA).from)).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(presetRange('today', late, NY).from)).toBe('2026-03-28T04:00:00.000Z');
  });

  it('orders a custom range and labels it D.M. - D.M.', () => {
    const r = customRange({ y: 2026, m: 2, d: 9 }, { y: 2026, m: 2, d: 3 }, BA);
    expect(r.key).toBe('3.2. - 9.2.');
    expect(iso(r.from)).toBe('2026-02-02T23:00:00.000Z');
    expect(iso(r.to)).toBe('2026-02-09T22:59:59.000Z');
  });

  it("forbids days after the zone's today but allows today", () => {
    const at = new Date('2026-03-10T23:30:00Z'); // already 11 March in Bratislava
    expect(isAfterToday({ y: 2026, m: 3, d: 11 }, at, BA)).toBe(false);
    expect(isAfterToday({ y: 2026, m: 3, d: 11 }, at, NY)).toBe(true);
    expect(isAfterToday({ y: 2026, m: 3, d: 12 }, at, BA)).toBe(true);
  });

  it('recomputes stored presets, keeps custom ranges and falls back per granularity', () => {
    const stale = { key: 'today', from: 1, to: 2 };
    expect(resolveRange(stale, 'day', now, BA)).toEqual(presetRange('today', now, BA));
    expect(resolveRange(stale, 'week', now, BA)).toEqual(presetRange('last7days', now, BA));
    expect(resolveRange(undefined, 'year', now, BA)).toEqual(presetRange('thisYear', now, BA));
    const custom = customRange({ y: 2026, m: 1, d: 1 }, { y: 2026, m: 1, d: 2 }, BA);
    expect(resolveRange(custom, 'day', now, BA)).toEqual(custom);
  });

  it('adds one second to the energy upper bound, the next midnight of the zone', () => {
    const r = presetRange('today', now, BA);
    expect(energyTo(r)).toBe(r.to + 1);
    expect(iso(energyTo(r))).toBe('2026-03-10T23:00:00.000Z');
  });
});
