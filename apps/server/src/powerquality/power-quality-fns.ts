// EN 50160 weekly assessment of an analyzer from its stored one-minute values. Pure: the service
// reads the minutes and the week's bounds, this module aggregates and judges them.
import type {
  PowerQualityWeek,
  PqCriterion,
  PqCriterionResult,
  PqHarmonics,
  PqVerdict,
} from '@meterportal/protocol';
import { fromWall } from '../history/calendar';
import { FREQUENCY_ALWAYS_HZ, FREQUENCY_BAND_HZ } from '../telemetry/frequency-rollup';
import { harmonicsCriterion } from './harmonics-fns';
import { floorPct, INTERVAL_SEC } from './pq-shares';

export { floorPct, INTERVAL_SEC } from './pq-shares';

/** Nominal frequency of the interconnected European grid, Hz. */
export const NOMINAL_HZ = 50;
/** Stored minutes a 10-minute interval needs to be assessed; fewer and it counts as missing. */
export const MIN_MINUTES_PER_INTERVAL = 5;
/** How many worst intervals each criterion lists. */
export const WORST_COUNT = 5;

/** Stored minute means of one analyzer, column by column, in time order. */
export interface PqMinutes {
  tsSec: readonly number[];
  /** Phase voltages L1..L3, minute means, V. */
  u: readonly [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
  /** Phase-to-phase voltages L12, L23, L31, minute means, V. */
  upp: readonly [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
  /** Voltage THD per phase, minute means, %. */
  thdU: readonly [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
  /** Frequency: minute mean, lowest and highest second of the minute, Hz. */
  fAvg: ArrayLike<number>;
  fMin: ArrayLike<number>;
  fMax: ArrayLike<number>;
}

/** Local Monday 00:00 of a `YYYY-MM-DD` Monday and the next one, unix seconds UTC. */
export function weekBounds(mondayDate: string, tz: string): { fromSec: number; toSec: number } {
  const [y, m, d] = mondayDate.split('-').map(Number) as [number, number, number];
  return { fromSec: fromWall(tz, y, m, d), toSec: fromWall(tz, y, m, d + 7) };
}

/**
 * The year to date of a week, for EN 50160's yearly frequency rule: from local 1 January 00:00 of
 * the year the week's Sunday falls in, up to the week's end. A week across New Year is never cut:
 * then the span starts with the week.
 */
export function yearToDateBounds(mondayDate: string, tz: string): { fromSec: number; toSec: number } {
  const [y, m, d] = mondayDate.split('-').map(Number) as [number, number, number];
  const sunday = new Date(Date.UTC(y, m - 1, d + 6));
  const week = weekBounds(mondayDate, tz);
  const jan1 = fromWall(tz, sunday.getUTCFullYear(), 1, 1);
  return { fromSec: Math.min(jan1, week.fromSec), toSec: week.toSec };
}

/** Frequency minutes counted over the year to date (from the frequency_quarters rollup). */
export interface FrequencyYear {
  fromSec: number;
  toSec: number;
  /** Stored minutes in the span. */
  minutes: number;
  /** Minutes whose mean is within 50 Hz ± 1 %. */
  withinBand: number;
  /** Minutes whose lowest and highest second are within 50 Hz + 4 % / − 6 %. */
  withinAlways: number;
}

/**
 * Negative-sequence unbalance in % from the three phase-to-phase voltage magnitudes
 * (IEC 61000-4-30, 5.7.2): u2 = sqrt((1 - sqrt(3 - 6b)) / (1 + sqrt(3 - 6b))) with
 * b = (U12^4 + U23^4 + U31^4) / (U12^2 + U23^2 + U31^2)^2. Line voltages hold no zero sequence,
 * so the formula is exact without the phase angles.
 */
export function unbalancePct(u12: number, u23: number, u31: number): number {
  const s2 = u12 * u12 + u23 * u23 + u31 * u31;
  if (s2 <= 0) return 0;
  const beta = (u12 ** 4 + u23 ** 4 + u31 ** 4) / (s2 * s2);
  const root = Math.sqrt(Math.max(0, 3 - 6 * beta));
  return Math.sqrt(Math.max(0, (1 - root) / (1 + root))) * 100;
}

/**
 * The frequency counts of stored minutes in [fromSec, toSec), as the frequency_quarters rollup
 * keeps them in SQL (a minute within the band by its mean, within the always-limit by its extremes).
 */
export function countFrequency(
  m: PqMinutes,
  fromSec: number,
  toSec: number,
): { minutes: number; withinBand: number; withinAlways: number } {
  let minutes = 0;
  let withinBand = 0;
  let withinAlways = 0;
  for (let i = 0; i < m.tsSec.length; i++) {
    const ts = m.tsSec[i]!;
    if (ts < fromSec || ts >= toSec) continue;
    minutes++;
    const f = m.fAvg[i]!;
    if (f >= FREQUENCY_BAND_HZ.low && f <= FREQUENCY_BAND_HZ.high) withinBand++;
    if (m.fMin[i]! >= FREQUENCY_ALWAYS_HZ.low && m.fMax[i]! <= FREQUENCY_ALWAYS_HZ.high) withinAlways++;
  }
  return { minutes, withinBand, withinAlways };
}

/** A 10-minute aggregate: root-mean-square of the stored minute means (class S style). */
interface Interval {
  startSec: number;
  minutes: number;
  u: [number, number, number];
  upp: [number, number, number];
  thd: [number, number, number];
}

/** Folds the minutes into the week's 10-minute intervals, counted from the local week start. */
export function tenMinuteIntervals(m: PqMinutes, fromSec: number, toSec: number): Interval[] {
  const count = Math.ceil((toSec - fromSec) / INTERVAL_SEC);
  const n = new Int32Array(count);
  // Sums of squares: U L1..L3, U_PP L12..L31, THD L1..L3, nine per interval.
  const sq = new Float64Array(count * 9);
  const series = [...m.u, ...m.upp, ...m.thdU];
  for (let i = 0; i < m.tsSec.length; i++) {
    const ts = m.tsSec[i]!;
    if (ts < fromSec || ts >= toSec) continue;
    const k = Math.floor((ts - fromSec) / INTERVAL_SEC);
    n[k] = n[k]! + 1;
    series.forEach((col, j) => {
      sq[k * 9 + j] = sq[k * 9 + j]! + col[i]! ** 2;
    });
  }
  const out: Interval[] = [];
  for (let k = 0; k < count; k++) {
    const minutes = n[k]!;
    if (minutes < MIN_MINUTES_PER_INTERVAL) continue;
    const r = (j: number) => Math.sqrt(sq[k * 9 + j]! / minutes);
    out.push({
      startSec: fromSec + k * INTERVAL_SEC,
      minutes,
      u: [r(0), r(1), r(2)],
      upp: [r(3), r(4), r(5)],
      thd: [r(6), r(7), r(8)],
    });
  }
  return out;
}

/** One value judged: its time, the value, its phase, whether it is within and how far outside. */
interface Judged {
  startSec: number;
  value: number;
  phase: string | null;
  within: boolean;
  /** Ranking of the worst intervals: larger is worse. */
  badness: number;
}

const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;

/**
 * Judges a criterion: passes when within/assessed reaches requiredPermille/1000, compared in
 * integers so exactly 95 % passes and 94.9 % fails without rounding doubt.
 */
function judge(
  criterion: PqCriterion,
  values: readonly Judged[],
  spec: {
    low: number;
    high: number;
    unit: string;
    requiredPermille: number;
    intervalSec: number;
    decimals: number;
    span: { fromSec: number; toSec: number };
    /** Counts over a longer span than the week's values (the year to date); the week's own share is kept beside. */
    longer?: { assessed: number; within: number };
  },
): PqCriterionResult {
  const weekAssessed = values.length;
  const weekWithin = values.filter((v) => v.within).length;
  const assessed = spec.longer ? spec.longer.assessed : weekAssessed;
  const within = spec.longer ? spec.longer.within : weekWithin;
  const verdict: PqVerdict =
    assessed === 0 ? 'NO_DATA' : within * 1000 >= spec.requiredPermille * assessed ? 'PASS' : 'FAIL';
  const worst = [...values]
    .sort((a, b) => b.badness - a.badness || a.startSec - b.startSec)
    .slice(0, WORST_COUNT)
    .map((v) => ({ startSec: v.startSec, value: round(v.value, spec.decimals), phase: v.phase }));
  return {
    criterion,
    verdict,
    lowLimit: round(spec.low, 3),
    highLimit: round(spec.high, 3),
    unit: spec.unit,
    requiredPct: spec.requiredPermille / 10,
    achievedPct: assessed === 0 ? null : floorPct(within, assessed),
    assessed,
    within,
    intervalSec: spec.intervalSec,
    worst,
    spanFromSec: spec.span.fromSec,
    spanToSec: spec.span.toSec,
    week: spec.longer
      ? {
          assessed: weekAssessed,
          within: weekWithin,
          achievedPct: weekAssessed === 0 ? null : floorPct(weekWithin, weekAssessed),
        }
      : null,
  };
}

const PHASES = ['L1', 'L2', 'L3'] as const;

/** The phase value furthest from the nominal, judged against [low, high]. */
function worstPhase(
  startSec: number,
  values: readonly number[],
  names: readonly string[],
  low: number,
  high: number,
  nominal: number,
): Judged {
  let k = 0;
  for (let p = 1; p < values.length; p++)
    if (Math.abs(values[p]! - nominal) > Math.abs(values[k]! - nominal)) k = p;
  const within = values.every((v) => v >= low && v <= high);
  return { startSec, value: values[k]!, phase: names[k]!, within, badness: Math.abs(values[k]! - nominal) };
}

const notMeasured = (
  criterion: PqCriterion,
  unit: string,
  span: { fromSec: number; toSec: number },
): PqCriterionResult => ({
  criterion,
  verdict: 'NOT_MEASURED',
  lowLimit: null,
  highLimit: null,
  unit,
  requiredPct: 100,
  achievedPct: null,
  assessed: 0,
  within: 0,
  intervalSec: INTERVAL_SEC,
  worst: [],
  spanFromSec: span.fromSec,
  spanToSec: span.toSec,
  week: null,
});

/**
 * The week's EN 50160 verdict from the analyzer's stored minutes; the frequency criteria are
 * judged over the year to date from its counted minutes, their worst minutes found in the week;
 * the individual harmonics come judged from the stored spectra.
 */
export function assessWeek(
  m: PqMinutes,
  week: { fromSec: number; toSec: number; timeZone: string; nominalV: number },
  year: FrequencyYear,
  harmonics: PqHarmonics,
): PowerQualityWeek {
  const { fromSec, toSec, nominalV: un } = week;
  const span = { fromSec, toSec };
  const yearSpan = { fromSec: year.fromSec, toSec: year.toSec };
  const intervals = tenMinuteIntervals(m, fromSec, toSec);

  const voltage = (low: number, high: number) =>
    intervals.map((iv) => worstPhase(iv.startSec, iv.u, PHASES, low, high, un));

  // Frequency from the minute means: the analyzer sends no 10-second means.
  const fMeans: Judged[] = [];
  const fExtremes: Judged[] = [];
  for (let i = 0; i < m.tsSec.length; i++) {
    const ts = m.tsSec[i]!;
    if (ts < fromSec || ts >= toSec) continue;
    const f = m.fAvg[i]!;
    fMeans.push({
      startSec: ts,
      value: f,
      phase: null,
      within: f >= FREQUENCY_BAND_HZ.low && f <= FREQUENCY_BAND_HZ.high,
      badness: Math.abs(f - NOMINAL_HZ),
    });
    const lo = m.fMin[i]!;
    const hi = m.fMax[i]!;
    const far = NOMINAL_HZ - lo > hi - NOMINAL_HZ ? lo : hi;
    fExtremes.push({
      startSec: ts,
      value: far,
      phase: null,
      within: lo >= FREQUENCY_ALWAYS_HZ.low && hi <= FREQUENCY_ALWAYS_HZ.high,
      badness: Math.abs(far - NOMINAL_HZ),
    });
  }

  const thd: Judged[] = intervals.map((iv) => {
    const k = iv.thd.indexOf(Math.max(...iv.thd));
    return {
      startSec: iv.startSec,
      value: iv.thd[k]!,
      phase: PHASES[k]!,
      within: iv.thd[k]! <= 8,
      badness: iv.thd[k]!,
    };
  });
  const unbalance: Judged[] = intervals.map((iv) => {
    const u2 = unbalancePct(...iv.upp);
    return { startSec: iv.startSec, value: u2, phase: null, within: u2 <= 2, badness: u2 };
  });

  const criteria: PqCriterionResult[] = [
    judge('VOLTAGE_95', voltage(un * 0.9, un * 1.1), {
      low: un * 0.9,
      high: un * 1.1,
      unit: 'V',
      requiredPermille: 950,
      intervalSec: INTERVAL_SEC,
      decimals: 2,
      span,
    }),
    judge('VOLTAGE_ALWAYS', voltage(un * 0.85, un * 1.1), {
      low: un * 0.85,
      high: un * 1.1,
      unit: 'V',
      requiredPermille: 1000,
      intervalSec: INTERVAL_SEC,
      decimals: 2,
      span,
    }),
    judge('FREQUENCY_995', fMeans, {
      low: NOMINAL_HZ * 0.99,
      high: NOMINAL_HZ * 1.01,
      unit: 'Hz',
      requiredPermille: 995,
      intervalSec: 60,
      decimals: 3,
      span: yearSpan,
      longer: { assessed: year.minutes, within: year.withinBand },
    }),
    judge('FREQUENCY_ALWAYS', fExtremes, {
      low: NOMINAL_HZ * 0.94,
      high: NOMINAL_HZ * 1.04,
      unit: 'Hz',
      requiredPermille: 1000,
      intervalSec: 60,
      decimals: 3,
      span: yearSpan,
      longer: { assessed: year.minutes, within: year.withinAlways },
    }),
    judge('THD_95', thd, {
      low: 0,
      high: 8,
      unit: '%',
      requiredPermille: 950,
      intervalSec: INTERVAL_SEC,
      decimals: 2,
      span,
    }),
    judge('UNBALANCE_95', unbalance, {
      low: 0,
      high: 2,
      unit: '%',
      requiredPermille: 950,
      intervalSec: INTERVAL_SEC,
      decimals: 2,
      span,
    }),
    harmonicsCriterion(harmonics, span),
    notMeasured('FLICKER', '', span),
    notMeasured('DIPS', '', span),
  ];

  const judged = criteria.filter((c) => c.verdict === 'PASS' || c.verdict === 'FAIL');
  const verdict: PqVerdict = judged.some((c) => c.verdict === 'FAIL')
    ? 'FAIL'
    : judged.length > 0
      ? 'PASS'
      : 'NO_DATA';
  const minutesInWeek = Math.round((toSec - fromSec) / 60);
  const minutesStored = fMeans.length;
  return {
    fromSec,
    toSec,
    timeZone: week.timeZone,
    nominalV: un,
    nominalHz: NOMINAL_HZ,
    verdict,
    criteria,
    coverage: {
      minutesInWeek,
      minutesStored,
      intervalsInWeek: Math.ceil((toSec - fromSec) / INTERVAL_SEC),
      intervalsAssessed: intervals.length,
      pct: floorPct(minutesStored, minutesInWeek),
    },
    harmonics,
  };
}
