/**
 * Calendar arithmetic in the installation's time zone. Storage is UTC; day, week and month
 * boundaries are local, so a day is 23, 24 or 25 hours long and a month 28 to 31 days.
 */

/** A calendar period of the energy and monitoring APIs. */
export type Period = '15MIN' | 'HOUR' | 'DAY' | 'MONTH';

interface Wall {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Local wall-clock time of a UTC instant. */
export function wallTime(tsSec: number, tz: string): Wall {
  const parts = formatter(tz).formatToParts(new Date(tsSec * 1000));
  const get = (t: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** Offset of local time from UTC at an instant, in seconds. */
function offsetSec(tsSec: number, tz: string): number {
  const w = wallTime(tsSec, tz);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) / 1000 - tsSec;
}

/**
 * The UTC instant of a local wall time. Out-of-range fields roll over (day 32 is next month).
 * A wall time skipped by a spring-forward change moves forward by the gap (02:30 -> 03:30).
 */
export function fromWall(tz: string, year: number, month: number, day: number, hour = 0, minute = 0): number {
  const naive = Date.UTC(year, month - 1, day, hour, minute) / 1000;
  let guess = naive - offsetSec(naive, tz);
  // Two refinements settle every real zone's transitions.
  guess = naive - offsetSec(guess, tz);
  const again = naive - offsetSec(guess, tz);
  return Math.max(guess, again);
}

/** Start of the local day holding tsSec. */
export function startOfDay(tsSec: number, tz: string): number {
  const w = wallTime(tsSec, tz);
  return fromWall(tz, w.year, w.month, w.day);
}

/** Start of the local month holding tsSec. */
export function startOfMonth(tsSec: number, tz: string): number {
  const w = wallTime(tsSec, tz);
  return fromWall(tz, w.year, w.month, 1);
}

/** Start of the period holding tsSec. Quarter hours and hours are aligned in local time too. */
export function startOfPeriod(tsSec: number, period: Period, tz: string): number {
  switch (period) {
    case '15MIN':
    case 'HOUR': {
      const step = period === '15MIN' ? 900 : 3600;
      // Every zone in use today has an offset in whole quarter hours; align on local wall time.
      const off = offsetSec(tsSec, tz);
      return Math.floor((tsSec + off) / step) * step - off;
    }
    case 'DAY':
      return startOfDay(tsSec, tz);
    case 'MONTH':
      return startOfMonth(tsSec, tz);
  }
}

/** Start of the period after the one starting at startSec. */
export function nextPeriod(startSec: number, period: Period, tz: string): number {
  switch (period) {
    case '15MIN':
      return startSec + 900;
    case 'HOUR':
      return startSec + 3600;
    case 'DAY': {
      const w = wallTime(startSec, tz);
      return fromWall(tz, w.year, w.month, w.day + 1);
    }
    case 'MONTH': {
      const w = wallTime(startSec, tz);
      return fromWall(tz, w.year, w.month + 1, 1);
    }
  }
}

// Charts ask for the same ranges again and again (this week, this year); their period starts are
// kept, since working them out through Intl costs more than the query itself.
const startsCache = new Map<string, readonly number[]>();
const STARTS_CACHE_SIZE = 500;

/** Period starts covering [fromSec, toSec): the first is the period holding fromSec. */
export function periodStarts(
  fromSec: number,
  toSec: number,
  period: Period,
  tz: string,
  limit = 100_000,
): number[] {
  const key = `${fromSec}|${toSec}|${period}|${tz}`;
  const hit = startsCache.get(key);
  if (hit) return [...hit];
  const out = computeStarts(fromSec, toSec, period, tz, limit);
  if (startsCache.size >= STARTS_CACHE_SIZE) startsCache.delete(startsCache.keys().next().value!);
  startsCache.set(key, out);
  return [...out];
}

function computeStarts(fromSec: number, toSec: number, period: Period, tz: string, limit: number): number[] {
  const out: number[] = [];
  for (let t = startOfPeriod(fromSec, period, tz); t < toSec; t = nextPeriod(t, period, tz)) {
    out.push(t);
    if (out.length > limit) throw new Error(`more than ${limit} periods`);
  }
  return out;
}

/**
 * A function giving the start of the local day holding tsSec, for many look-ups: the last day
 * found is kept, so a run of times within one day costs one comparison each instead of Intl.
 */
export function localDayFinder(tz: string): (tsSec: number) => number {
  let start = Number.NaN;
  let end = Number.NaN;
  return (tsSec) => {
    if (!(tsSec >= start && tsSec < end)) {
      start = startOfDay(tsSec, tz);
      end = nextPeriod(start, 'DAY', tz);
    }
    return start;
  };
}
