// Device clocks that tell local wall time (Tasmota's `Time`, a P1 telegram's timestamp) turned
// into unix seconds in a named time zone. The hour a clock is put back repeats; without more to
// go by the earlier is taken. A P1 meter says its offset itself with its summer/winter flag.
import { wallTime } from '../history/calendar';

/** A local wall-clock time, month 1..12. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const sameWall = (tsSec: number, tz: string, w: LocalTime) => {
  const x = wallTime(tsSec, tz);
  return (
    x.year === w.year &&
    x.month === w.month &&
    x.day === w.day &&
    x.hour === w.hour &&
    x.minute === w.minute &&
    x.second === w.second
  );
};

/** The wall time as if it were UTC; null for a date that does not exist. */
function naiveSec(w: LocalTime): number | null {
  const naive = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) / 1000;
  const check = new Date(naive * 1000);
  if (
    check.getUTCFullYear() !== w.year ||
    check.getUTCMonth() !== w.month - 1 ||
    check.getUTCDate() !== w.day ||
    w.hour > 23 ||
    w.minute > 59 ||
    w.second > 59
  )
    return null;
  return naive;
}

/** Offset of tz from UTC at tsSec, seconds. */
function offsetAt(tsSec: number, tz: string): number {
  const x = wallTime(tsSec, tz);
  return Date.UTC(x.year, x.month - 1, x.day, x.hour, x.minute, x.second) / 1000 - tsSec;
}

/**
 * Unix seconds of a local time in tz. Of a repeated hour (autumn) the earlier is taken; a time
 * that does not exist (the hour skipped in spring) is read with the offset before the change.
 * Null for a date that does not exist at all.
 */
export function localToUnix(w: LocalTime, tz: string): number | null {
  const naive = naiveSec(w);
  if (naive === null) return null;
  // The offsets in force a day either side bracket any transition near this time.
  const offsets = new Set<number>();
  for (const probe of [naive - 86_400, naive, naive + 86_400]) offsets.add(offsetAt(probe, tz));
  const candidates = [...offsets]
    .map((off) => ({ off, ts: naive - off }))
    .filter((c) => sameWall(c.ts, tz, w))
    .sort((a, b) => a.ts - b.ts);
  return candidates.length ? candidates[0]!.ts : naive - Math.min(...offsets);
}

/**
 * Unix seconds of a local time that names its offset by a summer flag, as P1 meters do: the
 * zone's standard (winter) offset of that year, one hour more in summer time. The flag decides
 * even where it disagrees with the zone's calendar (a month's start stamped S in March).
 */
export function flaggedLocalToUnix(w: LocalTime, tz: string, summer: boolean): number | null {
  const naive = naiveSec(w);
  if (naive === null) return null;
  const standard = Math.min(
    offsetAt(Date.UTC(w.year, 0, 1) / 1000, tz),
    offsetAt(Date.UTC(w.year, 6, 1) / 1000, tz),
  );
  return naive - standard - (summer ? 3600 : 0);
}

/** Whether tz is a time zone this runtime knows. */
export function knownTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
