import dayjs from 'dayjs';
import type { Point } from '../../charts/series';
import type { EnergyPeriod } from './views';

/** Start (ms) of every month that begins inside the range, in epoch seconds: 12 for a year. */
export function monthStarts(fromSec: number, toSec: number): number[] {
  const out: number[] = [];
  let m = dayjs(fromSec * 1000).startOf('month');
  if (m.valueOf() < fromSec * 1000) m = m.add(1, 'month');
  for (; m.valueOf() <= toSec * 1000; m = m.add(1, 'month')) out.push(m.valueOf());
  return out;
}

/** Points moved to the start of their month, so each meets its month's column. */
export function toMonthStarts(points: readonly Point[]): Point[] {
  return points.map(([t, v]) => [dayjs(t).startOf('month').valueOf(), v]);
}

/** End (ms, exclusive) of the energy interval that starts at `startMs`. */
export function intervalEnd(startMs: number, period: EnergyPeriod): number {
  switch (period) {
    case '15MIN':
      return startMs + 15 * 60_000;
    case 'HOUR':
      return startMs + 3_600_000;
    case 'DAY':
      return dayjs(startMs).add(1, 'day').valueOf();
    case 'MONTH':
      return dayjs(startMs).add(1, 'month').valueOf();
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
): number | undefined {
  const last = Math.max(-Infinity, ...series.map((s) => s.at(-1)?.[0] ?? -Infinity));
  return Number.isFinite(last) && intervalEnd(last, period) > nowMs ? last : undefined;
}
