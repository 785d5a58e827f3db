import { describe, expect, it } from 'vitest';
import {
  fromWall,
  nextPeriod,
  periodStarts,
  startOfDay,
  startOfMonth,
  startOfPeriod,
  wallTime,
} from './calendar';

const TZ = 'Europe/Bratislava';
const utc = (s: string) => Date.parse(s) / 1000;

describe('calendar in Europe/Bratislava', () => {
  it.each([
    ['winter midnight', 2026, 1, 15, '2026-01-14T23:00:00Z'],
    ['summer midnight', 2026, 7, 15, '2026-07-14T22:00:00Z'],
    ['spring-forward day', 2026, 3, 29, '2026-03-28T23:00:00Z'],
    ['fall-back day', 2026, 10, 25, '2026-10-24T22:00:00Z'],
    ['day 32 rolls over', 2026, 1, 32, '2026-01-31T23:00:00Z'],
    ['month 13 rolls over', 2026, 13, 1, '2026-12-31T23:00:00Z'],
  ])('local midnight of the %s', (_what, y, m, d, iso) => {
    expect(fromWall(TZ, y, m, d)).toBe(utc(iso));
  });

  it('moves 02:30 on the spring-forward day, which does not exist, forward by the gap to 03:30', () => {
    expect(fromWall(TZ, 2026, 3, 29, 2, 30)).toBe(utc('2026-03-29T01:30:00Z'));
  });

  it.each([
    ['a 23-hour day', '2026-03-29T10:00:00Z', 23],
    ['a 25-hour day', '2026-10-25T10:00:00Z', 25],
    ['a 24-hour day', '2026-06-01T10:00:00Z', 24],
  ])('%s has that many hours and quarter hours', (_what, iso, hours) => {
    const start = startOfDay(utc(iso), TZ);
    const end = nextPeriod(start, 'DAY', TZ);
    expect((end - start) / 3600).toBe(hours);
    expect(periodStarts(start, end, 'HOUR', TZ)).toHaveLength(hours);
    expect(periodStarts(start, end, '15MIN', TZ)).toHaveLength(hours * 4);
  });

  it('lists the local days of a week across the fall-back change', () => {
    const from = fromWall(TZ, 2026, 10, 22);
    const to = fromWall(TZ, 2026, 10, 29);
    const days = periodStarts(from, to, 'DAY', TZ);
    expect(days.map((d) => wallTime(d, TZ).day)).toEqual([22, 23, 24, 25, 26, 27, 28]);
    expect(days.every((d) => wallTime(d, TZ).hour === 0)).toBe(true);
  });

  it('lists the twelve months of a year with their lengths', () => {
    const months = periodStarts(fromWall(TZ, 2026, 1, 1), fromWall(TZ, 2027, 1, 1), 'MONTH', TZ);
    expect(months).toHaveLength(12);
    const days = months.map((m) => Math.round((nextPeriod(m, 'MONTH', TZ) - m) / 86400));
    expect(days).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect(startOfMonth(utc('2026-02-28T23:30:00Z'), TZ)).toBe(fromWall(TZ, 2026, 3, 1));
  });

  it('crosses the year end', () => {
    const start = startOfDay(utc('2026-12-31T12:00:00Z'), TZ);
    expect(wallTime(nextPeriod(start, 'DAY', TZ), TZ)).toMatchObject({
      year: 2027,
      month: 1,
      day: 1,
      hour: 0,
    });
    expect(wallTime(nextPeriod(startOfMonth(start, TZ), 'MONTH', TZ), TZ)).toMatchObject({
      year: 2027,
      month: 1,
      day: 1,
    });
  });

  it('aligns quarter hours and hours on local time', () => {
    expect(startOfPeriod(utc('2026-06-01T10:14:59Z'), '15MIN', TZ)).toBe(utc('2026-06-01T10:00:00Z'));
    expect(startOfPeriod(utc('2026-06-01T10:59:59Z'), 'HOUR', TZ)).toBe(utc('2026-06-01T10:00:00Z'));
  });

  it('works in a zone with a half-hour offset', () => {
    const start = startOfDay(utc('2026-06-01T12:00:00Z'), 'Asia/Kolkata');
    expect(start).toBe(utc('2026-05-31T18:30:00Z'));
    expect(startOfPeriod(utc('2026-06-01T12:10:00Z'), 'HOUR', 'Asia/Kolkata')).toBe(
      utc('2026-06-01T11:30:00Z'),
    );
  });
});
