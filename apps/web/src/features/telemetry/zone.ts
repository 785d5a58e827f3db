import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { getConfig } from '../../api/config';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Calendar arithmetic in the installation's time zone. The server cuts days, weeks and months in
 * its `TZ`; the browser builds every range and label in the same zone, wherever it runs, so that
 * "today" asks for the very day the server sums.
 */

/** A calendar day: year, month 1 to 12, day of month. */
export interface CalendarDay {
  y: number;
  m: number;
  d: number;
}

/** The browser's own zone. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function isZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The installation's zone from /config.json; the browser's when the server did not say. */
export function installationZone(): string {
  const tz = getConfig().tz;
  return tz && isZone(tz) ? tz : browserZone();
}

const partsFormat = new Map<string, Intl.DateTimeFormat>();

/** The calendar day an instant falls on in a zone. */
export function dayOf(ms: number, tz: string): CalendarDay {
  let f = partsFormat.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: 'numeric', day: 'numeric' });
    partsFormat.set(tz, f);
  }
  const parts = Object.fromEntries(f.formatToParts(ms).map((p) => [p.type, p.value]));
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day) };
}

/** The day `n` calendar days later (or earlier). */
export function addDays(day: CalendarDay, n: number): CalendarDay {
  const t = new Date(Date.UTC(day.y, day.m - 1, day.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The first second of a calendar day in a zone, unix seconds (days of 23 and 25 hours too). */
export function startOfDaySec(day: CalendarDay, tz: string): number {
  return dayjs.tz(`${day.y}-${pad(day.m)}-${pad(day.d)} 00:00:00`, tz).unix();
}

/** Whether two calendar days are the same, earlier (< 0) or later (> 0). */
export function compareDays(a: CalendarDay, b: CalendarDay): number {
  return a.y - b.y || a.m - b.m || a.d - b.d;
}

/** An instant shown in a zone with a dayjs format (localized tokens included). */
export function formatInZone(ms: number, format: string, tz: string): string {
  return dayjs(ms).tz(tz).format(format);
}

/** A dayjs of an instant in a zone, for components that format or compare it further. */
export function inZone(ms: number, tz: string): dayjs.Dayjs {
  return dayjs(ms).tz(tz);
}

/**
 * An instant on screen in the installation's zone (`L LTS` and the like): the times of lists,
 * dialogs and tables read like the charts beside them, wherever the browser runs.
 */
export function formatLocal(ms: number, format: string): string {
  return formatInZone(ms, format, installationZone());
}
