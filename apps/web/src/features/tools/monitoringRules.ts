/**
 * Calendar arithmetic of the monitoring drill-down (seed 001 sections 2 and 9): a week of days,
 * a day of 30-minute slots, a slot of minutes. Days are local and built with calendar operations,
 * so a daylight-saving day keeps its true length (46 or 50 slots).
 */

/** Length of one drill-down slot. */
export const SLOT_SEC = 1800;

/** Request bounds in unix seconds, `to` exclusive as the server reads it. */
export interface Bounds {
  from: number;
  to: number;
}

/** The local calendar day holding `dayMs`, midnight to the next midnight. */
export function dayBounds(dayMs: number): Bounds {
  const d = new Date(dayMs);
  const start = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  const next = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1);
  return { from: Math.floor(start.getTime() / 1000), to: Math.floor(next.getTime() / 1000) };
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

/** How a slot (or minute) of `spanSec` seconds looks with `offlineSec` of it offline. */
export function slotState(offlineSec: number, spanSec: number): SlotState {
  if (offlineSec <= 0) return 'online';
  if (offlineSec >= spanSec) return 'offline';
  return 'partial';
}

/** Colours of the availability states, shared by the columns and the pies. */
export const STATE_COLORS: Record<SlotState, string> = {
  online: '#52c41a',
  partial: '#faad14',
  offline: '#f5222d',
};

/**
 * The local midnight nearest to `ms`. The server cuts days in the installation's time zone; a
 * browser elsewhere sees those starts a few hours off its own midnight, and the nearest
 * midnight names the calendar day they stand for (exact for zones less than 12 h apart).
 */
export function nearestLocalMidnight(ms: number): number {
  const d = new Date(ms);
  const before = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const after = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
  return ms - before <= after - ms ? before : after;
}

/** Hours online and offline per calendar day of the chosen range, one entry per day. */
export interface DayColumn {
  dayMs: number;
  onlineH: number;
  offlineH: number;
}

/**
 * Lines up the DAY series into one column per calendar day of the range (seconds, inclusive).
 * A day the installation has begun but the browser's range has not reached is left out.
 */
export function dayColumns(
  online: readonly (readonly [number, number])[],
  offline: readonly (readonly [number, number])[],
  range: Bounds,
): DayColumn[] {
  const byDay = new Map<number, DayColumn>();
  const add = (points: readonly (readonly [number, number])[], key: 'onlineH' | 'offlineH') => {
    for (const [ms, hours] of points) {
      const dayMs = nearestLocalMidnight(ms);
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
