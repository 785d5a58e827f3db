import { describe, expect, it } from 'vitest';
import {
  SLOT_SEC,
  dayBounds,
  dayColumns,
  nearestLocalMidnight,
  slotBounds,
  slotState,
  weekBounds,
} from './monitoringRules';

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min).getTime();
const sec = (ms: number) => ms / 1000;

describe('monitoring drill-down ranges', () => {
  it.each([
    ['midnight', local(2026, 3, 10, 0, 0)],
    ['noon', local(2026, 3, 10, 12, 0)],
    ['last minute', local(2026, 3, 10, 23, 59)],
  ])('maps a day column clicked at %s to that local day', (_name, at) => {
    expect(dayBounds(at)).toEqual({ from: sec(local(2026, 3, 10)), to: sec(local(2026, 3, 11)) });
  });

  it('keeps calendar midnights across month ends', () => {
    expect(dayBounds(local(2026, 1, 31, 8))).toEqual({
      from: sec(local(2026, 1, 31)),
      to: sec(local(2026, 2, 1)),
    });
  });

  it('covers exactly one 30-minute slot for the minute drill-down', () => {
    const start = local(2026, 3, 10, 14, 30);
    expect(slotBounds(start)).toEqual({ from: sec(start), to: sec(start) + SLOT_SEC });
    expect(slotBounds(start).to - slotBounds(start).from).toBe(1800);
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
  const h = 3_600_000;
  const week = { from: sec(local(2026, 3, 9)), to: sec(local(2026, 3, 15, 23, 59)) };

  it.each([
    ['an hour before midnight', local(2026, 3, 10) - h, local(2026, 3, 10)],
    ['exactly midnight', local(2026, 3, 10), local(2026, 3, 10)],
    ['five hours after midnight', local(2026, 3, 10) + 5 * h, local(2026, 3, 10)],
    ['eleven hours before midnight', local(2026, 3, 10) - 11 * h, local(2026, 3, 10)],
  ])('names a day start %s by its nearest local midnight', (_name, ms, expected) => {
    expect(nearestLocalMidnight(ms)).toBe(expected);
  });

  it('keeps one column per day of the range and drops a day the range has not reached', () => {
    const shift = -h; // an installation one hour east of the browser
    const starts = [9, 10, 15, 16].map((d) => local(2026, 3, d) + shift);
    const cols = dayColumns(
      starts.map((t) => [t, 2] as const),
      starts.map((t) => [t, 22] as const),
      week,
    );
    expect(cols.map((c) => c.dayMs)).toEqual([9, 10, 15].map((d) => local(2026, 3, d)));
    expect(cols[0]).toEqual({ dayMs: local(2026, 3, 9), onlineH: 2, offlineH: 22 });
  });

  it('gives a day without an online point zero online hours', () => {
    const t = local(2026, 3, 11);
    expect(dayColumns([], [[t, 24]], week)).toEqual([{ dayMs: t, onlineH: 0, offlineH: 24 }]);
  });
});
