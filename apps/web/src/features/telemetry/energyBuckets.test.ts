import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { describe, expect, it } from 'vitest';
import { intervalEnd, monthStarts, partialIntervalStart, toMonthStarts } from './energyBuckets';

dayjs.extend(utc);
dayjs.extend(timezone);

const BRATISLAVA = 'Europe/Bratislava';
const at = (s: string, tz = BRATISLAVA) => dayjs.tz(s, tz).valueOf();
const sec = (s: string, tz = BRATISLAVA) => at(s, tz) / 1000;
const local = (ms: number, tz = BRATISLAVA) => dayjs(ms).tz(tz).format('YYYY-MM-DD HH:mm');

describe('energy intervals in the installation zone', () => {
  it('gives a year its twelve months', () => {
    const months = monthStarts(sec('2025-01-01 00:00:00'), sec('2025-12-31 23:59:59'), BRATISLAVA);
    expect(months).toHaveLength(12);
    expect(local(months[0]!)).toBe('2025-01-01 00:00');
    // October starts in summer time, November in winter time: each at local midnight.
    expect(local(months[9]!)).toBe('2025-10-01 00:00');
    expect(local(months[10]!)).toBe('2025-11-01 00:00');
    expect(local(months[11]!)).toBe('2025-12-01 00:00');
  });

  it("cuts the installation's months, not the browser's or UTC", () => {
    // In New York, Bratislava's 1 January 00:00 is still 31 December: it must stay January.
    const months = monthStarts(sec('2025-01-01 00:00:00'), sec('2025-12-31 23:59:59'), BRATISLAVA);
    expect(months[0]).toBe(Date.UTC(2024, 11, 31, 23, 0, 0));
    const ny = monthStarts(
      sec('2025-01-01 00:00:00', 'America/New_York'),
      sec('2025-12-31 23:59:59', 'America/New_York'),
      'America/New_York',
    );
    expect(ny[0]).toBe(Date.UTC(2025, 0, 1, 5, 0, 0));
    expect(ny).toHaveLength(12);
  });

  it('puts a value stamped inside a month on that month', () => {
    expect(toMonthStarts([[at('2025-03-01 01:00:00'), 5]], BRATISLAVA)).toEqual([
      [at('2025-03-01 00:00:00'), 5],
    ]);
    // The server stamps a month with its local midnight; 23:00 UTC the day before is that month.
    expect(toMonthStarts([[Date.UTC(2025, 1, 28, 23, 0, 0), 7]], BRATISLAVA)).toEqual([
      [at('2025-03-01 00:00:00'), 7],
    ]);
  });

  it.each([
    ['15MIN', '2025-03-10 10:15:00', '2025-03-10 10:30:00'],
    ['HOUR', '2025-03-10 10:00:00', '2025-03-10 11:00:00'],
    ['DAY', '2025-03-10 00:00:00', '2025-03-11 00:00:00'],
    ['DAY', '2025-03-30 00:00:00', '2025-03-31 00:00:00'],
    ['MONTH', '2025-02-01 00:00:00', '2025-03-01 00:00:00'],
    ['MONTH', '2025-10-01 00:00:00', '2025-11-01 00:00:00'],
  ] as const)('ends a %s interval starting %s at %s', (period, start, end) => {
    expect(intervalEnd(at(start), period, BRATISLAVA)).toBe(at(end));
  });

  it('gives the spring-forward day 23 hours', () => {
    expect(intervalEnd(at('2025-03-30 00:00:00'), 'DAY', BRATISLAVA) - at('2025-03-30 00:00:00')).toBe(
      23 * 3_600_000,
    );
  });

  it('marks the last interval partial only while it is running', () => {
    const start = at('2025-03-10 10:00:00');
    const series = [[[start - 3_600_000, 1] as [number, number], [start, 0.2] as [number, number]]];
    expect(partialIntervalStart(series, 'HOUR', start + 600_000, BRATISLAVA)).toBe(start);
    expect(partialIntervalStart(series, 'HOUR', start + 3_600_000, BRATISLAVA)).toBeUndefined();
    expect(partialIntervalStart([[]], 'HOUR', start, BRATISLAVA)).toBeUndefined();
  });
});
