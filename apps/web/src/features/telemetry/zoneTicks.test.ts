import { describe, expect, it } from 'vitest';
import { inZone } from './zone';
import { zoneTicks } from './zoneTicks';

const BA = 'Europe/Bratislava';
const at = (iso: string) => Date.parse(iso);
const wall = (ms: number) => inZone(ms, BA).format('YYYY-MM-DD HH:mm');

describe('time axis ticks in the installation zone', () => {
  it('puts the ticks of a day on its whole hours, starting at its midnight', () => {
    const from = at('2026-06-09T22:00:00Z'); // midnight in Bratislava (UTC+2)
    const ticks = zoneTicks(from, from + 24 * 3600_000 - 60_000, BA);
    expect(ticks.map(wall)).toEqual(
      ['00', '03', '06', '09', '12', '15', '18', '21'].map((h) => `2026-06-10 ${h}:00`),
    );
  });

  it.each([
    ['spring', '2026-03-28T23:00:00Z', 23, ['00', '03', '06', '09', '12', '15', '18', '21']],
    // 25 hours take more than eight 3-hour ticks: every 6 hours.
    ['autumn', '2026-10-24T22:00:00Z', 25, ['00', '06', '12', '18']],
  ])('keeps wall-clock hours on the %s DST day', (_name, fromIso, hours, expected) => {
    const from = at(fromIso);
    const ticks = zoneTicks(from, from + hours * 3600_000 - 60_000, BA);
    expect(ticks.map((t) => wall(t).slice(11, 13))).toEqual(expected);
  });

  it('puts the ticks of a week on the midnights of the zone, across a DST change', () => {
    const from = at('2026-03-25T23:00:00Z');
    const ticks = zoneTicks(from, from + 7 * 86_400_000, BA);
    expect(ticks.length).toBeGreaterThan(3);
    for (const t of ticks) expect(wall(t).slice(11)).toBe('00:00');
    expect(ticks.map(wall)).toContain('2026-03-30 00:00');
  });

  it('is the same midnight whatever zone the browser is in', () => {
    const from = at('2026-06-01T22:00:00Z');
    const ticks = zoneTicks(from, from + 6 * 86_400_000, BA);
    expect(ticks[0]).toBe(from);
    expect(new Date(ticks[0]!).toISOString()).toBe('2026-06-01T22:00:00.000Z');
  });

  it('puts the ticks of a year on month starts', () => {
    const ticks = zoneTicks(at('2025-12-31T23:00:00Z'), at('2026-12-31T22:00:00Z'), BA);
    for (const t of ticks) expect(wall(t)).toMatch(/^2026-\d\d-01 00:00$/);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.length).toBeLessThanOrEqual(8);
  });

  it('has no ticks for an empty span', () => {
    expect(zoneTicks(5, 5, BA)).toEqual([]);
  });
});
