import { describe, expect, it } from 'vitest';
import { axisTimeFormatter, timeChartOption, type AxisTimeFormatter } from '../../charts/options';
import { addDays, dayOf, formatInZone, startOfDaySec } from './zone';

const BA = 'Europe/Bratislava';
const utc = (iso: string) => Date.parse(iso);

describe('calendar in the installation zone', () => {
  it.each([
    ['2026-03-28T23:30:00Z', BA, { y: 2026, m: 3, d: 29 }],
    ['2026-03-28T23:30:00Z', 'America/New_York', { y: 2026, m: 3, d: 28 }],
    ['2026-12-31T23:30:00Z', BA, { y: 2027, m: 1, d: 1 }],
  ])('puts %s on its day in %s', (at, tz, day) => {
    expect(dayOf(utc(at), tz)).toEqual(day);
  });

  it('steps over month and year ends', () => {
    expect(addDays({ y: 2026, m: 12, d: 31 }, 1)).toEqual({ y: 2027, m: 1, d: 1 });
    expect(addDays({ y: 2026, m: 3, d: 1 }, -1)).toEqual({ y: 2026, m: 2, d: 28 });
  });

  it('finds midnight on both sides of a DST change', () => {
    expect(startOfDaySec({ y: 2026, m: 3, d: 29 }, BA) * 1000).toBe(utc('2026-03-28T23:00:00Z'));
    expect(startOfDaySec({ y: 2026, m: 3, d: 30 }, BA) * 1000).toBe(utc('2026-03-29T22:00:00Z'));
  });

  it('formats an instant as the zone reads it', () => {
    expect(formatInZone(utc('2026-10-25T00:30:00Z'), 'HH:mm', BA)).toBe('02:30');
    expect(formatInZone(utc('2026-10-25T01:30:00Z'), 'HH:mm', BA)).toBe('02:30');
  });
});

describe('time axis labels in the installation zone', () => {
  const label = axisTimeFormatter(BA, 86_400_000);
  it('labels a day chart with hours, and the zone midnight with its date', () => {
    expect(label(utc('2026-03-29T05:00:00Z'), 0, { time: { lowerTimeUnit: 'hour' } })).toBe('07:00');
    expect(label(utc('2026-03-28T23:00:00Z'), 0, { time: { lowerTimeUnit: 'day' } })).toBe('29.3.');
    // A browser elsewhere puts a day tick at its own midnight: read as the zone's hour.
    expect(label(utc('2026-03-29T04:00:00Z'), 0, { time: { lowerTimeUnit: 'day' } })).toBe('06:00');
  });
  it('labels longer charts with dates, months and years', () => {
    const week = axisTimeFormatter(BA, 7 * 86_400_000);
    expect(week(utc('2026-03-29T04:00:00Z'), 0, { time: { lowerTimeUnit: 'day' } })).toBe('29.3.');
    expect(week(utc('2026-03-29T10:00:00Z'), 0, { time: { lowerTimeUnit: 'hour' } })).toBe('29.3. 12:00');
    const year = axisTimeFormatter(BA, 365 * 86_400_000);
    expect(year(utc('2025-12-31T23:00:00Z'), 0, { time: { lowerTimeUnit: 'month' } })).toBe('2026');
  });
});

describe('time axis ticks of a chart in the installation zone', () => {
  type AxisOpt = {
    xAxis: {
      axisLabel: { customValues?: number[]; formatter: AxisTimeFormatter };
      axisTick?: { customValues?: number[] };
    };
  };
  const dayOption = (fromIso: string, hours: number) => {
    const from = utc(fromIso);
    const points = Array.from({ length: hours }, (_, i) => [from + i * 3_600_000, 1] as [number, number]);
    return timeChartOption({
      series: [{ name: 'Import', kind: 'bar', points }],
      unit: 'kWh',
      yAxisType: 'linear',
      selected: {},
      formatTime: String,
      zone: BA,
    }) as unknown as AxisOpt;
  };

  it.each([
    ['2026-03-28T23:00:00Z', 23],
    ['2026-10-24T22:00:00Z', 25],
    ['2026-06-09T22:00:00Z', 24],
  ])('starts the day of %s at its midnight and labels whole hours of the zone', (fromIso, hours) => {
    const option = dayOption(fromIso, hours);
    const ticks = option.xAxis.axisLabel.customValues ?? [];
    expect(ticks[0]).toBe(utc(fromIso));
    expect(option.xAxis.axisTick?.customValues).toEqual(ticks);
    const labels = ticks.map((t, i) => option.xAxis.axisLabel.formatter(t, i));
    expect(labels[0]).toMatch(/^\d+\.\d+\.$/);
    for (const l of labels.slice(1)) expect(l).toMatch(/^\d\d:00$/);
  });
});
