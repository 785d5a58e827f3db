import { describe, expect, it } from 'vitest';
import {
  SLOT_SEC,
  dayBounds,
  dayColumns,
  hourTicks,
  slotBounds,
  slotState,
  timelineCells,
  weekBounds,
} from './monitoringRules';

const BA = 'Europe/Bratislava';
const utc = (iso: string) => Date.parse(iso);
const sec = (ms: number) => ms / 1000;

describe('monitoring drill-down ranges in the installation zone', () => {
  it.each([
    ['its midnight', '2026-03-09T23:00:00Z'],
    ['noon', '2026-03-10T11:00:00Z'],
    ['its last minute', '2026-03-10T22:59:00Z'],
  ])('maps a day clicked at %s to that installation day', (_name, at) => {
    expect(dayBounds(utc(at), BA)).toEqual({
      from: sec(utc('2026-03-09T23:00:00Z')),
      to: sec(utc('2026-03-10T23:00:00Z')),
    });
  });

  it.each([
    ['2026-03-29T12:00:00Z', '2026-03-28T23:00:00Z', 23],
    ['2026-10-25T12:00:00Z', '2026-10-24T22:00:00Z', 25],
    ['2026-01-31T08:00:00Z', '2026-01-30T23:00:00Z', 24],
  ])('gives the day of %s its true length', (at, start, hours) => {
    const b = dayBounds(utc(at), BA);
    expect(b.from).toBe(sec(utc(start)));
    expect(b.to - b.from).toBe(hours * 3600);
  });

  it('covers exactly one 30-minute slot for the minute drill-down', () => {
    const start = utc('2026-03-10T13:30:00Z');
    expect(slotBounds(start)).toEqual({ from: sec(start), to: sec(start) + SLOT_SEC });
  });

  it('makes the week range end exclusive', () => {
    expect(weekBounds({ from: 100, to: 199 })).toEqual({ from: 100, to: 200 });
  });
});

describe('slot state', () => {
  it.each([
    [0, 1800, 'online'],
    [1, 1800, 'partial'],
    [1799, 1800, 'partial'],
    [1800, 1800, 'offline'],
    [60, 60, 'offline'],
    [0, 60, 'online'],
  ] as const)('reads %i s offline of %i s as %s', (offline, span, state) => {
    expect(slotState(offline, span)).toBe(state);
  });
});

describe('day columns', () => {
  const week = { from: sec(utc('2026-03-08T23:00:00Z')), to: sec(utc('2026-03-15T22:59:59Z')) };

  it('keeps one column per installation day of the range and drops a day outside it', () => {
    const starts = [
      '2026-03-08T23:00:00Z',
      '2026-03-09T23:00:00Z',
      '2026-03-14T23:00:00Z',
      '2026-03-15T23:00:00Z',
    ].map(utc);
    const cols = dayColumns(
      starts.map((t) => [t, 2] as const),
      starts.map((t) => [t, 22] as const),
      week,
      BA,
    );
    expect(cols.map((c) => c.dayMs)).toEqual(starts.slice(0, 3));
    expect(cols[0]).toEqual({ dayMs: starts[0], onlineH: 2, offlineH: 22 });
  });

  it('gives a day without an online point zero online hours', () => {
    const t = utc('2026-03-10T23:00:00Z');
    expect(dayColumns([], [[t, 24]], week, BA)).toEqual([{ dayMs: t, onlineH: 0, offlineH: 24 }]);
  });
});

describe('state timeline', () => {
  const day = dayBounds(utc('2026-03-10T12:00:00Z'), BA);

  it('cuts a day into 48 half-hours coloured by state, unreported ones as none', () => {
    const cells = timelineCells(day, SLOT_SEC, [
      { timestampMs: day.from * 1000, offlineSec: 0 },
      { timestampMs: (day.from + 1800) * 1000, offlineSec: 600 },
      { timestampMs: (day.from + 3600) * 1000, offlineSec: 1800 },
    ]);
    expect(cells).toHaveLength(48);
    expect(cells.slice(0, 4).map((c) => c.state)).toEqual(['online', 'partial', 'offline', 'none']);
    expect(cells[1]).toEqual({
      startMs: (day.from + 1800) * 1000,
      spanSec: 1800,
      state: 'partial',
      offlineSec: 600,
    });
  });

  it.each([
    ['2026-03-29T12:00:00Z', 46],
    ['2026-10-25T12:00:00Z', 50],
  ])('gives the DST day of %s %i half-hours', (at, n) => {
    expect(timelineCells(dayBounds(utc(at), BA), SLOT_SEC, [])).toHaveLength(n);
  });

  it('marks the installation hours on a 24-hour axis, also on DST days', () => {
    const ticks = hourTicks(day, BA, 6);
    expect(ticks.map((t) => t.label)).toEqual(['00:00', '06:00', '12:00', '18:00', '24:00']);
    expect(ticks[2]!.at).toBe(0.5);
    const spring = hourTicks(dayBounds(utc('2026-03-29T12:00:00Z'), BA), BA, 6);
    // 02:00 does not exist that day: 06:00 comes five hours after midnight.
    expect(spring[1]).toEqual({ at: 5 / 23, label: '06:00' });
    const fall = hourTicks(dayBounds(utc('2026-10-25T12:00:00Z'), BA), BA, 3);
    expect(fall.map((t) => t.label)).toEqual([
      '00:00',
      '03:00',
      '06:00',
      '09:00',
      '12:00',
      '15:00',
      '18:00',
      '21:00',
      '24:00',
    ]);
    expect(fall[1]!.at).toBe(4 / 25);
  });
});
