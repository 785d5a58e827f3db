// The anomaly model of a household meter: per hour of the week (in the installation's zone) the
// median of the hour's consumption over the weeks learned from and a band around it that is wide
// by a robust spread (the median absolute deviation), so one odd week does not move it. Detection
// walks the completed hours in order and raises once the consumption has stayed outside the band
// for enough hours in a row.
import type { AnomalySlot } from '@meterportal/protocol';
import { wallTime } from '../history/calendar';

/** Seconds of an hour and of a week. */
export const HOUR_SEC = 3600;
export const WEEK_SEC = 7 * 86400;
/** Scales the median absolute deviation to a standard deviation of normally spread values. */
const MAD_SCALE = 1.4826;
/** How many spreads the band reaches on each side of the median. */
export const BAND_SPREADS = 3;
/** The smallest spread: a tenth of the median, and never under 50 Wh (a flat history stays usable). */
const MIN_SPREAD_SHARE = 0.1;
export const MIN_SPREAD_WH = 100;
/** Fewest weeks that must have an hour of the week before it gets a band. */
export const MIN_SLOT_SAMPLES = 2;
/** How far beyond the 90th and 10th percentiles the band reaches. */
const QUANTILE_MARGIN_HIGH = 1.25;
const QUANTILE_MARGIN_LOW = 0.75;

/** One hour of consumption: its start (unix s) and imported energy (Wh). */
export interface HourEnergy {
  tsSec: number;
  wh: number;
}

/** Hour of the week of an instant in a zone: 0 is Monday 00:00-01:00 local, 167 Sunday 23:00. */
export function slotOf(tsSec: number, tz: string): number {
  const w = wallTime(tsSec, tz);
  const weekday = (new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() + 6) % 7;
  return weekday * 24 + w.hour;
}

/** Median of values (not empty). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** The q-quantile of sorted values, interpolated. */
export function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/**
 * The expected band of an hour from its past values: the median, three robust spreads either side,
 * widened to a quarter beyond the 10th and 90th percentiles, so an appliance that runs in some
 * weeks at that hour stays expected. It is never narrower than MIN_SPREAD_WH each way.
 */
export function bandOf(values: readonly number[]): { medianWh: number; lowWh: number; highWh: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const m = median(sorted);
  const mad = median(sorted.map((v) => Math.abs(v - m)));
  const spread = Math.max(MAD_SCALE * mad, MIN_SPREAD_SHARE * Math.abs(m), MIN_SPREAD_WH);
  const high = Math.max(
    m + BAND_SPREADS * spread,
    QUANTILE_MARGIN_HIGH * quantile(sorted, 0.9) + MIN_SPREAD_WH,
  );
  const low = Math.min(
    m - BAND_SPREADS * spread,
    QUANTILE_MARGIN_LOW * quantile(sorted, 0.1) - MIN_SPREAD_WH,
  );
  return { medianWh: round3(m), lowWh: round3(Math.max(0, low)), highWh: round3(high) };
}

/** The 168 hours of the week learned from hours of history; hours seen in too few weeks have none. */
export function trainSlots(hours: readonly HourEnergy[], tz: string): AnomalySlot[] {
  const bySlot = new Map<number, number[]>();
  for (const h of hours) {
    const s = slotOf(h.tsSec, tz);
    const list = bySlot.get(s);
    if (list) list.push(h.wh);
    else bySlot.set(s, [h.wh]);
  }
  const slots: AnomalySlot[] = [];
  for (let slot = 0; slot < 168; slot++) {
    const values = bySlot.get(slot) ?? [];
    if (values.length < MIN_SLOT_SAMPLES) continue;
    slots.push({ slot, ...bandOf(values), samples: values.length });
  }
  return slots;
}

/** What the history offers: its first and end hour, hours with data and whole weeks spanned. */
export function historyExtent(hours: readonly HourEnergy[], toSec: number) {
  if (hours.length === 0) return { fromSec: null, toSec: null, hours: 0, weeks: 0 };
  const first = Math.min(...hours.map((h) => h.tsSec));
  const last = Math.max(...hours.map((h) => h.tsSec));
  return {
    fromSec: first,
    toSec: last + HOUR_SEC,
    hours: hours.length,
    weeks: Math.floor((Math.min(toSec, last + HOUR_SEC) - first) / WEEK_SEC),
  };
}

/** A run of hours outside the band, carried from one check to the next. */
export interface RunState {
  /** Start of its first hour, unix s; null when the last hour checked was inside. */
  startSec: number | null;
  hours: number;
  direction: 'HIGH' | 'LOW' | null;
  lowWh: number;
  highWh: number;
  seenWh: number;
  /** Whether the run lasted long enough to be raised. */
  raised: boolean;
}

/** No run. */
export const NO_RUN: RunState = {
  startSec: null,
  hours: 0,
  direction: null,
  lowWh: 0,
  highWh: 0,
  seenWh: 0,
  raised: false,
};

/** What one hour did to the run: raised it, made a raised one longer, ended a raised one. */
export type RunEvent = 'RAISE' | 'CONTINUE' | 'END' | null;

/**
 * One completed hour checked against its band. An hour without data or without a band tells
 * nothing and leaves the run as it is; an hour inside the band ends it.
 */
export function stepRun(
  run: RunState,
  hour: { tsSec: number; wh: number | null; band: { lowWh: number; highWh: number } | null },
  hoursInRow: number,
): { run: RunState; event: RunEvent; ended?: RunState } {
  if (hour.wh === null || hour.band === null) return { run, event: null };
  const { wh, band } = hour;
  const outside = wh > band.highWh ? 'HIGH' : wh < band.lowWh ? 'LOW' : null;
  if (!outside) {
    if (run.raised) return { run: NO_RUN, event: 'END', ended: run };
    return { run: NO_RUN, event: null };
  }
  const next: RunState = {
    startSec: run.startSec ?? hour.tsSec,
    hours: run.hours + 1,
    direction: run.direction ?? outside,
    lowWh: round3(run.lowWh + band.lowWh),
    highWh: round3(run.highWh + band.highWh),
    seenWh: round3(run.seenWh + wh),
    raised: run.raised || run.hours + 1 >= hoursInRow,
  };
  return { run: next, event: run.raised ? 'CONTINUE' : next.raised ? 'RAISE' : null };
}
