import { describe, expect, it } from 'vitest';
import { isoDay, mondayOf, recentMondays } from './weeks';

describe('weeks of the power-quality page', () => {
  it.each([
    ['2026-03-29T21:59:00Z', '2026-03-23'],
    ['2026-03-29T22:00:00Z', '2026-03-30'],
    ['2026-11-25T08:00:00Z', '2026-11-23'],
  ])('places %s in the Bratislava week of Monday %s', (at, monday) => {
    expect(isoDay(mondayOf(Date.parse(at), 'Europe/Bratislava'))).toBe(monday);
  });

  it('lists the current week first, then the ones before', () => {
    const list = recentMondays(Date.parse('2026-11-25T08:00:00Z'), 'Europe/Bratislava', 3).map(isoDay);
    expect(list).toEqual(['2026-11-23', '2026-11-16', '2026-11-09']);
  });
});
