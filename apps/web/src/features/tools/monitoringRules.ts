import { addDays, dayOf, inZone, startOfDaySec } from '../telemetry/zone';

/**
 * Calendar arithmetic of the monitoring drill-down (seed 001 sections 2 and 9): a week of days,
 * a day of 30-minute slots, a slot of minutes. Days are the installation's (the server cuts them
 * in its time zone) and built with calendar operations, so a daylight-saving day keeps its true
 * length (46 or 50 slots).
 */

/** Length of one drill-down slot. */
export const SLOT_SEC = 1800;

/** Request bounds in unix seconds, `to` exclusive as the server reads it. */
export interface Bounds {
  from: number;
  to: number;
}

/** The installation's calendar day holding `dayMs`, midnight to the next midnight. */
export function dayBounds(dayMs: number, tz: string): Bounds {
  const day = dayOf(dayMs, tz);
  return { from: startOfDaySec(day, tz), to: startOfDaySec(addDays(day, 1), tz) };
}

/** The 30-minute slot starting at `slotMs`, for its minute drill-down. */
export function slotBounds(slotMs: number): Bounds {
  const from = Math.floor(slotMs / 1000);
  return { from, to: from + SLOT_SEC };
}

/** The week toolbar's range ends on the day's last second; the server wants it exclusive. */
export function weekBounds(range: { from: number; to: number }): Bounds {
  return { from: range.from, to: range.to + 1 };
}

export type SlotState = 'online' | 'partial' | 'offline';
/** A timeline cell also knows "nothing reported yet" (the rest of today, a day before the meter). */
export type CellState = SlotState | 'none';

/** How a slot (or minute) of `spanSec` seconds looks with `offlineSec` of it offline. */
export function slotState(offlineSec: number, spanSec: number): SlotState {
  if (offlineSec <= 0) return 'online';
  if (offlineSec >= spanSec) return 'offline';
  return 'partial';
}

/** Colours of the availability states, shared by the columns and the timelines. */
export const STATE_COLORS: Record<CellState, string> = {
  online: '#52c41a',
  partial: '#faad14',
  offline: '#f5222d',
  none: 'rgba(128, 128, 128, 0.18)',
};

/** Hours online and offline per calendar day of the chosen range, one entry per day. */
export interface DayColumn {
  dayMs: number;
  onlineH: number;
  offlineH: number;
}

/**
 * Lines up the DAY series into one column per installation day of the range (seconds,
 * inclusive). Each point is named by the installation day it falls on.
 */
export function dayColumns(
  online: readonly (readonly [number, number])[],
  offline: readonly (readonly [number, number])[],
  range: Bounds,
  tz: string,
): DayColumn[] {
  const byDay = new Map<number, DayColumn>();
  const add = (points: readonly (readonly [number, number])[], key: 'onlineH' | 'offlineH') => {
    for (const [ms, hours] of points) {
      const dayMs = dayBounds(ms, tz).from * 1000;
      if (dayMs < range.from * 1000 || dayMs > range.to * 1000) continue;
      const col = byDay.get(dayMs) ?? { dayMs, onlineH: 0, offlineH: 0 };
      col[key] += hours;
      byDay.set(dayMs, col);
    }
  };
  add(online, 'onlineH');
  add(offline, 'offlineH');
  return [...byDay.values()].sort((a, b) => a.dayMs - b.dayMs);
}

/** One cell of a state timeline: where it starts, how long it is, how it looked. */
export interface TimelineCell {
  startMs: number;
  spanSec: number;
  state: CellState;
  offlineSec: number;
}

/**
 * The cells of a span cut into equal slots, each coloured by what the server reported for it;
 * a slot it did not report is 'none'. A DST day gives 46 or 50 half-hours, like the server.
 */
export function timelineCells(
  span: Bounds,
  slotSec: number,
  reported: readonly { timestampMs: number; offlineSec: number }[],
): TimelineCell[] {
  const byStart = new Map(reported.map((r) => [r.timestampMs, r.offlineSec]));
  const cells: TimelineCell[] = [];
  for (let t = span.from; t < span.to; t += slotSec) {
    const spanSec = Math.min(slotSec, span.to - t);
    const offlineSec = byStart.get(t * 1000);
    cells.push({
      startMs: t * 1000,
      spanSec,
      state: offlineSec === undefined ? 'none' : slotState(offlineSec, spanSec),
      offlineSec: offlineSec ?? 0,
    });
  }
  return cells;
}

/** A tick of a timeline's axis: its place (0 to 1 along the span) and the hour it marks. */
export interface AxisTick {
  at: number;
  label: string;
}

/**
 * Ticks of the installation's whole hours across a span (23 on a spring-forward day, 25 on a
 * fall-back day), labelled every `every` hours of the clock, and the span's end as 24:00.
 */
export function hourTicks(span: Bounds, tz: string, every: number): AxisTick[] {
  const length = span.to - span.from;
  const ticks: AxisTick[] = [];
  for (let t = span.from; t < span.to; t += 3600) {
    const hour = inZone(t * 1000, tz).hour();
    if (hour % every === 0)
      ticks.push({ at: (t - span.from) / length, label: `${String(hour).padStart(2, '0')}:00` });
  }
  ticks.push({ at: 1, label: '24:00' });
  return ticks;
}
