import { z } from 'zod';
import { DeviceTokenString, okWith } from './common';

/** The EN 50160 criteria of the weekly power-quality assessment, in the order they are shown. */
export const PQ_CRITERIA = [
  'VOLTAGE_95',
  'VOLTAGE_ALWAYS',
  'FREQUENCY_995',
  'FREQUENCY_ALWAYS',
  'THD_95',
  'UNBALANCE_95',
  'HARMONICS',
  'FLICKER',
  'DIPS',
] as const;
/** One EN 50160 criterion. */
export type PqCriterion = (typeof PQ_CRITERIA)[number];

/** Outcome of one criterion: met, not met, no stored data in the week, or not measured by the device. */
export const PqVerdict = z.enum(['PASS', 'FAIL', 'NO_DATA', 'NOT_MEASURED']);
/** Outcome of one criterion. */
export type PqVerdict = z.infer<typeof PqVerdict>;

/** `YYYY-MM-DD` of a real calendar day that is a Monday. */
export function isMondayDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return (
    y >= 2000 &&
    y <= 2100 &&
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCDay() === 1
  );
}

/** Body of POST /precision/power-quality (read door): the week by its Monday, local date. */
export const PowerQualityWeekRequest = z.object({
  token: DeviceTokenString,
  /** The Monday the week starts on (00:00 in the installation's time zone), `YYYY-MM-DD`. */
  week: z.string().max(10).refine(isMondayDate, 'must be a Monday as YYYY-MM-DD'),
});

/** One of the worst intervals of a criterion. */
export const PqWorstInterval = z.object({
  /** Interval start, unix seconds UTC (a 10-minute interval, or a minute for frequency). */
  startSec: z.number().int(),
  /** The value found: V, Hz or %. */
  value: z.number(),
  /** The phase (L1..L3) or phase pair (L12..L31) it was found on; null for a three-phase value. */
  phase: z.string().nullable(),
});
/** One of the worst intervals of a criterion. */
export type PqWorstInterval = z.infer<typeof PqWorstInterval>;

/** The assessment of one criterion over the week (frequency: over the year to date). */
export const PqCriterionResult = z.object({
  criterion: z.enum(PQ_CRITERIA),
  verdict: PqVerdict,
  /** Lower and upper limit of a value in range, in `unit`; null where the device gives no values. */
  lowLimit: z.number().nullable(),
  highLimit: z.number().nullable(),
  /** V, Hz or %. */
  unit: z.string(),
  /** Share of the assessed intervals that must be within the limits, percent. */
  requiredPct: z.number(),
  /** Share found within the limits, percent rounded down to 0.01; null when nothing was assessed. */
  achievedPct: z.number().nullable(),
  /** Intervals assessed and those within the limits. */
  assessed: z.number().int(),
  within: z.number().int(),
  /** Length of one assessed interval: 600 (10-minute values) or 60 (minute means). */
  intervalSec: z.number().int(),
  /** The intervals furthest from the limits, worst first (at most five), found in the assessed week. */
  worst: z.array(PqWorstInterval),
  /**
   * The span the shares were counted over, unix seconds UTC: the week, or for the frequency
   * criteria the year to date (local 1 January of the week's last day's year to the week's end).
   */
  spanFromSec: z.number().int(),
  spanToSec: z.number().int(),
  /** For a criterion judged over a longer span: the assessed week's own share; else null. */
  week: z
    .object({
      assessed: z.number().int(),
      within: z.number().int(),
      achievedPct: z.number().nullable(),
    })
    .nullable(),
});
/** The assessment of one criterion over the week. */
export type PqCriterionResult = z.infer<typeof PqCriterionResult>;

/** One harmonic order's weekly verdict against the EN 50160 table. */
export const PqHarmonicOrder = z.object({
  /** Harmonic order h (2 to 25). */
  order: z.number().int(),
  /** The table's limit, percent of the fundamental (inclusive). */
  limitPct: z.number(),
  /** PASS when every phase is within the limit for the required share; NO_DATA without stored values. */
  verdict: PqVerdict,
  /** The phase with the lowest share within the limit (L1..L3); null without stored values. */
  worstPhase: z.string().nullable(),
  /** That phase's stored 10-minute values and those within the limit. */
  assessed: z.number().int(),
  within: z.number().int(),
  /** That phase's share within the limit, percent rounded down to 0.01; null without stored values. */
  achievedPct: z.number().nullable(),
  /** The highest 10-minute value of the order in the week, on any phase; null without stored values. */
  worst: PqWorstInterval.nullable(),
});
/** One harmonic order's weekly verdict. */
export type PqHarmonicOrder = z.infer<typeof PqHarmonicOrder>;

/** The week's individual harmonic voltages, judged order by order from the polled spectra. */
export const PqHarmonics = z.object({
  /** FAIL when an order fails, PASS when every order with values passes, NO_DATA without stored spectra. */
  verdict: PqVerdict,
  /** Share of 10-minute values within the limit each order needs on every phase, percent. */
  requiredPct: z.number(),
  /** 10-minute intervals of the week, and those with a stored spectrum. */
  intervalsInWeek: z.number().int(),
  intervalsWithSpectrum: z.number().int(),
  /** Intervals with a stored spectrum over the week's intervals, percent rounded down to 0.01. */
  coveragePct: z.number(),
  orders: z.array(PqHarmonicOrder),
});
/** The week's individual harmonic voltages. */
export type PqHarmonics = z.infer<typeof PqHarmonics>;

/** Answer: one week's EN 50160 verdict for an analyzer. */
export const PowerQualityWeekResponse = okWith(
  z.object({
    /** Week start and end (Monday 00:00 local, the next Monday 00:00 local), unix seconds UTC. */
    fromSec: z.number().int(),
    toSec: z.number().int(),
    /** The installation's time zone the week is counted in. */
    timeZone: z.string(),
    /** Nominal supply voltage Un, volts (NOMINAL_VOLTAGE_V, default 230). */
    nominalV: z.number(),
    /** Nominal frequency, hertz. */
    nominalHz: z.number(),
    /** PASS when every assessed criterion passes, FAIL when one fails, NO_DATA when none was assessed. */
    verdict: PqVerdict,
    criteria: z.array(PqCriterionResult),
    coverage: z.object({
      /** Minutes and 10-minute intervals in the week (a DST week has 6 intervals fewer or more). */
      minutesInWeek: z.number().int(),
      minutesStored: z.number().int(),
      intervalsInWeek: z.number().int(),
      /** 10-minute intervals with enough stored minutes to be assessed. */
      intervalsAssessed: z.number().int(),
      /** Stored minutes over the week's minutes, percent rounded down to 0.01. */
      pct: z.number(),
    }),
    /** Individual harmonic voltages order by order; the HARMONICS criterion sums them up. */
    harmonics: PqHarmonics,
  }),
);
/** One week's EN 50160 verdict. */
export type PowerQualityWeek = z.output<typeof PowerQualityWeekResponse>['data'];
