/**
 * Date ranges of the graph toolbar (seed 000 sections 2, 3 and 4). All arithmetic is in the
 * browser's local time with calendar operations (not fixed 24 h steps) so that daylight-saving
 * days of 23 or 25 hours keep their true midnight boundaries.
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

const sec = (d: Date): number => Math.floor(d.getTime() / 1000);

export function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate(), 0, 0, 0, 0);
}

/** Last second of the local day. */
export function endOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate(), 23, 59, 59, 0);
}

function addDays(d: Date, days: number): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days);
}

export function isPresetKey(key: string): key is PresetKey {
  return ['today', 'yesterday', 'last7days', 'last14days', 'thisYear', 'lastYear'].includes(key);
}

/** Bounds of a preset relative to now. */
export function presetRange(key: PresetKey, now: Date): DateRange {
  const today = startOfDay(now);
  switch (key) {
    case 'today':
      return { key, from: sec(today), to: sec(endOfDay(today)) };
    case 'yesterday': {
      const y = addDays(today, -1);
      return { key, from: sec(y), to: sec(endOfDay(y)) };
    }
    case 'last7days':
      return { key, from: sec(addDays(today, -6)), to: sec(endOfDay(today)) };
    case 'last14days':
      return { key, from: sec(addDays(today, -13)), to: sec(endOfDay(today)) };
    case 'thisYear':
      return {
        key,
        from: sec(new Date(now.getFullYear(), 0, 1)),
        to: sec(endOfDay(new Date(now.getFullYear(), 11, 31))),
      };
    case 'lastYear':
      return {
        key,
        from: sec(new Date(now.getFullYear() - 1, 0, 1)),
        to: sec(endOfDay(new Date(now.getFullYear() - 1, 11, 31))),
      };
  }
}

/** The seed's custom label, D.M. - D.M. */
export function customLabel(from: Date, to: Date): string {
  return `${from.getDate()}.${from.getMonth() + 1}. - ${to.getDate()}.${to.getMonth() + 1}.`;
}

/** A custom range from two calendar days (order-independent), whole days inclusive. */
export function customRange(a: Date, b: Date): DateRange {
  const [first, last] = a.getTime() <= b.getTime() ? [a, b] : [b, a];
  return { key: customLabel(first, last), from: sec(startOfDay(first)), to: sec(endOfDay(last)) };
}

/** The calendar cannot pick a day after today. */
export function isAfterToday(day: Date, now: Date): boolean {
  return startOfDay(day).getTime() > startOfDay(now).getTime();
}

/**
 * The range to show for a granularity from what was stored: presets are recomputed (today moves
 * on), custom ranges are kept, anything unusable falls back to the granularity's default.
 */
export function resolveRange(stored: DateRange | undefined, granularity: Granularity, now: Date): DateRange {
  if (stored && isPresetKey(stored.key) && PRESETS[granularity].includes(stored.key)) {
    return presetRange(stored.key, now);
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
  return presetRange(DEFAULT_PRESET[granularity], now);
}

/** The energy call's upper bound: the end of the range plus one second (seed 000 section 7). */
export function energyTo(range: DateRange): number {
  return range.to + 1;
}
