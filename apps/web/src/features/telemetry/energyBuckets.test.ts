import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { intervalEnd, monthStarts, partialIntervalStart, toMonthStarts } from './energyBuckets';

const sec = (s: string) => dayjs(s).valueOf() / 1000;

describe('energy intervals', () => {
  it('gives a year its twelve months', () => {
    const months = monthStarts(sec('2025-01-01T00:00:00'), sec('2025-12-31T23:59:59'));
    expect(months).toHaveLength(12);
    expect(dayjs(months[0]).format('YYYY-MM-DD HH:mm')).toBe('2025-01-01 00:00');
    expect(dayjs(months[11]).format('YYYY-MM-DD')).toBe('2025-12-01');
  });

  it('puts a value stamped inside a month on that month', () => {
    const t = dayjs('2025-03-01T01:00:00').valueOf();
    expect(toMonthStarts([[t, 5]])).toEqual([[dayjs('2025-03-01').valueOf(), 5]]);
  });

  it.each([
    ['15MIN', '2025-03-10T10:15:00', '2025-03-10T10:30:00'],
    ['HOUR', '2025-03-10T10:00:00', '2025-03-10T11:00:00'],
    ['DAY', '2025-03-10T00:00:00', '2025-03-11T00:00:00'],
    ['MONTH', '2025-02-01T00:00:00', '2025-03-01T00:00:00'],
  ] as const)('ends a %s interval starting %s at %s', (period, start, end) => {
    expect(intervalEnd(dayjs(start).valueOf(), period)).toBe(dayjs(end).valueOf());
  });

  it('marks the last interval partial only while it is running', () => {
    const start = dayjs('2025-03-10T10:00:00').valueOf();
    const series = [[[start - 3_600_000, 1] as [number, number], [start, 0.2] as [number, number]]];
    expect(partialIntervalStart(series, 'HOUR', start + 600_000)).toBe(start);
    expect(partialIntervalStart(series, 'HOUR', start + 3_600_000)).toBeUndefined();
    expect(partialIntervalStart([[]], 'HOUR', start)).toBeUndefined();
  });
});
