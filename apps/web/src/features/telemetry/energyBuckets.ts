import type { Point } from '../../charts/series';
import { addDays, dayOf, startOfDaySec, type CalendarDay } from './zone';
import type { EnergyPeriod } from './views';

/**
 * Start (ms) of every month of the installation's zone that begins inside the range (epoch
 * seconds): 12 for a year, wherever the browser runs.
 */
export function monthStarts(fromSec: number, toSec: number, tz: string): number[] {
  const out: number[] = [];
  let m = firstOfMonth(dayOf(fromSec * 1000, tz));
  if (startMs(m, tz) < fromSec * 1000) m = nextMonth(m);
  for (; startMs(m, tz) <= toSec * 1000; m = nextMonth(m)) out.push(startMs(m, tz));
  return out;
}

// Calendar steps are taken on days, then placed in the zone: a fixed offset added to an instant
// would put every month after a clock change an hour off midnight.
const firstOfMonth = (d: CalendarDay): CalendarDay => ({ y: d.y, m: d.m, d: 1 });
const nextMonth = (d: CalendarDay): CalendarDay =>
  d.m === 12 ? { y: d.y + 1, m: 1, d: 1 } : { y: d.y, m: d.m + 1, d: 1 };
const startMs = (d: CalendarDay, tz: string) => startOfDaySec(d, tz) * 1000;

/** Points moved to the start of their month in the zone, so each meets its month's column. */
export function toMonthStarts(points: readonly Point[], tz: string): Point[] {
  return points.map(([t, v]) => [startMs(firstOfMonth(dayOf(t, tz)), tz), v]);
}

/** End (ms, exclusive) of the energy interval that starts at `start` (ms); days and months of the zone. */
export function intervalEnd(start: number, period: EnergyPeriod, tz: string): number {
  switch (period) {
    case '15MIN':
      return start + 15 * 60_000;
    case 'HOUR':
      return start + 3_600_000;
    case 'DAY':
      return startMs(addDays(dayOf(start, tz), 1), tz);
    case 'MONTH':
      return startMs(nextMonth(dayOf(start, tz)), tz);
  }
}

/**
 * Start of the last interval when it is not over yet at `nowMs`: its energy is still being
 * counted, so it is drawn as partial rather than read as a drop.
 */
export function partialIntervalStart(
  series: readonly (readonly Point[])[],
  period: EnergyPeriod,
  nowMs: number,
  tz: string,
): number | undefined {
  const last = Math.max(-Infinity, ...series.map((s) => s.at(-1)?.[0] ?? -Infinity));
  return Number.isFinite(last) && intervalEnd(last, period, tz) > nowMs ? last : undefined;
}
