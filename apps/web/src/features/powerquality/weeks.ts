import { addDays, dayOf, type CalendarDay } from '../telemetry/zone';

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of a calendar day. */
export const isoDay = (d: CalendarDay) => `${d.y}-${pad(d.m)}-${pad(d.d)}`;

/** The Monday of the local week holding an instant. */
export function mondayOf(ms: number, tz: string): CalendarDay {
  const day = dayOf(ms, tz);
  const weekday = (new Date(Date.UTC(day.y, day.m - 1, day.d)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The Mondays of the current local week and `count - 1` weeks before it, newest first. */
export function recentMondays(nowMs: number, tz: string, count: number): CalendarDay[] {
  const current = mondayOf(nowMs, tz);
  return Array.from({ length: count }, (_, i) => addDays(current, -7 * i));
}
