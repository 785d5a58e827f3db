import dayjs from 'dayjs';
import { addDays, compareDays, dayOf, startOfDaySec, type CalendarDay } from './zone';

/**
 * Time axis ticks on the installation zone's boundaries. ECharts places time ticks in the
 * browser's zone, so from New York a "day" tick sat at 06:00 in Bratislava; these ticks are whole
 * hours, midnights and first days of a month in the installation's zone, DST days included.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Step {
  unit: 'hour' | 'day' | 'month';
  n: number;
}

const STEPS: readonly { step: Step; approxMs: number }[] = [
  ...[1, 2, 3, 6, 12].map((n) => ({ step: { unit: 'hour' as const, n }, approxMs: n * HOUR_MS })),
  ...[1, 2, 7, 14].map((n) => ({ step: { unit: 'day' as const, n }, approxMs: n * DAY_MS })),
  ...[1, 2, 3, 6, 12].map((n) => ({ step: { unit: 'month' as const, n }, approxMs: n * 30 * DAY_MS })),
];

const pad = (n: number) => String(n).padStart(2, '0');

/** The instant of a wall-clock hour of a day in a zone, or null when the clock skips it (DST). */
function hourOf(day: CalendarDay, hour: number, tz: string): number | null {
  const ms = dayjs.tz(`${day.y}-${pad(day.m)}-${pad(day.d)} ${pad(hour)}:00:00`, tz).valueOf();
  return dayjs(ms).tz(tz).hour() === hour ? ms : null;
}

/** Days since 1970-01-01 of a calendar day, so that every second day is the same on every chart. */
const dayNumber = (d: CalendarDay) => Math.round(Date.UTC(d.y, d.m - 1, d.d) / DAY_MS);

function ticksOf(step: Step, fromMs: number, toMs: number, tz: string): number[] {
  const out: number[] = [];
  const last = dayOf(toMs, tz);
  for (let day = dayOf(fromMs, tz); compareDays(day, last) <= 0; day = addDays(day, 1)) {
    if (step.unit === 'hour') {
      for (let h = 0; h < 24; h += step.n) {
        const ms = hourOf(day, h, tz);
        if (ms !== null) out.push(ms);
      }
      continue;
    }
    const keep =
      step.unit === 'day'
        ? step.n === 7 || step.n === 14
          ? // Weeks start on Mondays (1970-01-05 was one).
            (dayNumber(day) - 4) % step.n === 0
          : dayNumber(day) % step.n === 0
        : day.d === 1 && (day.m - 1) % step.n === 0;
    if (keep) out.push(startOfDaySec(day, tz) * 1000);
  }
  return out.filter((ms) => ms >= fromMs && ms <= toMs);
}

/**
 * Tick instants between two instants, on the zone's whole hours, midnights or month starts,
 * with the coarsest step that still gives at most `maxTicks` ticks over the span.
 */
export function zoneTicks(fromMs: number, toMs: number, tz: string, maxTicks = 8): number[] {
  if (!(toMs > fromMs)) return [];
  const span = toMs - fromMs;
  const choice = STEPS.find((s) => span / s.approxMs <= maxTicks) ?? STEPS[STEPS.length - 1]!;
  return ticksOf(choice.step, fromMs, toMs, tz);
}
