import { addDays, compareDays, dayOf, startOfDaySec, type CalendarDay } from './zone';

/**
 * Date ranges of the graph toolbar (seed 000 sections 2, 3 and 4). All arithmetic is in the
 * installation's time zone with calendar operations (not fixed 24 h steps), so that a browser
 * elsewhere asks for the days the server sums, and daylight-saving days of 23 or 25 hours keep
 * their true midnight boundaries.
 */

export type Granularity = 'day' | 'week' | 'year';

export type PresetKey = 'today' | 'yesterday' | 'last7days' | 'last14days' | 'thisYear' | 'lastYear';

/** A selected range: a preset key or a custom label like '3.2. - 9.2.', bounds in epoch seconds. */
export interface DateRange {
  key: string;
  from: number;
  to: number;
}

/** Shortcuts offered per granularity. */
export const PRESETS: Record<Granularity, readonly PresetKey[]> = {
  day: ['today', 'yesterday', 'last7days', 'last14days'],
  week: ['last7days', 'last14days'],
  year: ['thisYear', 'lastYear'],
};

/** The range a granularity starts with when nothing is stored. */
export const DEFAULT_PRESET: Record<Granularity, PresetKey> = {
  day: 'today',
  week: 'last7days',
  year: 'thisYear',
};

/** The last second of a calendar day in a zone. */
function endOfDaySec(day: CalendarDay, tz: string): number {
  return startOfDaySec(addDays(day, 1), tz) - 1;
}

export function isPresetKey(key: string): key is PresetKey {
  return ['today', 'yesterday', 'last7days', 'last14days', 'thisYear', 'lastYear'].includes(key);
}

/** Bounds of a preset relative to now, in whole days of the zone. */
export function presetRange(key: PresetKey, now: Date, tz: string): DateRange {
  const today = dayOf(now.getTime(), tz);
  const days = (first: CalendarDay, last: CalendarDay): DateRange => ({
    key,
    from: startOfDaySec(first, tz),
    to: endOfDaySec(last, tz),
  });
  switch (key) {
    case 'today':
      return days(today, today);
    case 'yesterday':
      return days(addDays(today, -1), addDays(today, -1));
    case 'last7days':
      return days(addDays(today, -6), today);
    case 'last14days':
      return days(addDays(today, -13), today);
    case 'thisYear':
      return days({ y: today.y, m: 1, d: 1 }, { y: today.y, m: 12, d: 31 });
    case 'lastYear':
      return days({ y: today.y - 1, m: 1, d: 1 }, { y: today.y - 1, m: 12, d: 31 });
  }
}

/** The seed's custom label, D.M. - D.M. */
export function customLabel(from: CalendarDay, to: CalendarDay): string {
  return `${from.d}.${from.m}. - ${to.d}.${to.m}.`;
}

/** A custom range from two calendar days (order-independent), whole days of the zone inclusive. */
export function customRange(a: CalendarDay, b: CalendarDay, tz: string): DateRange {
  const [first, last] = compareDays(a, b) <= 0 ? [a, b] : [b, a];
  return { key: customLabel(first, last), from: startOfDaySec(first, tz), to: endOfDaySec(last, tz) };
}

/** The calendar cannot pick a day after today (today as the zone counts it). */
export function isAfterToday(day: CalendarDay, now: Date, tz: string): boolean {
  return compareDays(day, dayOf(now.getTime(), tz)) > 0;
}

/**
 * The range to show for a granularity from what was stored: presets are recomputed (today moves
 * on), custom ranges are kept, anything unusable falls back to the granularity's default.
 */
export function resolveRange(
  stored: DateRange | undefined,
  granularity: Granularity,
  now: Date,
  tz: string,
): DateRange {
  if (stored && isPresetKey(stored.key) && PRESETS[granularity].includes(stored.key)) {
    return presetRange(stored.key, now, tz);
  }
  if (
    stored &&
    !isPresetKey(stored.key) &&
    Number.isFinite(stored.from) &&
    Number.isFinite(stored.to) &&
    stored.from <= stored.to
  ) {
    return stored;
  }
  return presetRange(DEFAULT_PRESET[granularity], now, tz);
}

/** The energy call's upper bound: the end of the range plus one second (seed 000 section 7). */
export function energyTo(range: DateRange): number {
  return range.to + 1;
}
