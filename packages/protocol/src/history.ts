import { z } from 'zod';
import { DeviceTokenString, okWith } from './common';

/** A time series point: [unix milliseconds, value] (the 'H' format). */
export const SeriesPoint = z.tuple([z.number(), z.number()]);
/** A time series in the 'H' format. */
export const Series = z.array(SeriesPoint);
/** A time series in the 'H' format. */
export type Series = z.infer<typeof Series>;

/**
 * A profile series: its value is null where the device does not measure the quantity or phase
 * (never a zero that looks measured).
 */
export const ProfileSeries = z.array(z.tuple([z.number(), z.number().nullable()]));
/** A profile series. */
export type ProfileSeries = z.infer<typeof ProfileSeries>;

/** Quantities a profile may ask for (seed 000 section 7). */
export const PROFILE_QUANTITIES = [
  'U',
  'I',
  'P',
  'Q',
  'S',
  'E_I',
  'E_E',
  'Q_E',
  'S_E',
  'F',
  'PF',
  'DF_U',
  'DF_I',
] as const;
/** A profile quantity. */
export type ProfileQuantity = (typeof PROFILE_QUANTITIES)[number];

/** Seconds that one history request may span at most (a little over a year). */
export const HISTORY_MAX_SPAN_SEC = 367 * 86400;

/** A comma list or an array of names, each from the allowed set. */
function nameList<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z
    .union([z.string().max(200), z.array(z.string().max(20)).max(20)])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.enum(allowed)).min(1));
}

const Range = {
  /** Range start, unix seconds. */
  from: z.number().int().min(0),
  /** Range end (exclusive), unix seconds. */
  to: z.number().int().min(0),
};

/** Every history range must run forward and span at most HISTORY_MAX_SPAN_SEC. */
const rangeRule: [(r: { from: number; to: number }) => boolean, { message: string; path: string[] }] = [
  (r) => r.to > r.from && r.to - r.from <= HISTORY_MAX_SPAN_SEC,
  { message: 'to must be after from, at most 367 days later', path: ['to'] },
];

/** Data source: 1 WiFi, 2 LoRa. */
export const Source = z.union([z.literal(1), z.literal(2)]);

/** Body of POST /profile. */
export const ProfileRequest = z
  .object({
    token: DeviceTokenString,
    data: nameList(PROFILE_QUANTITIES),
    phase: z.string().max(20).default('L1,L2,L3'),
    ...Range,
    format: z.literal('H').default('H'),
    /** Sum over phases when true, average when false. */
    cumulative: z.boolean().default(true),
    source: Source.optional(),
  })
  .refine(...rangeRule);
/** Body of POST /profile. */
export type ProfileRequest = z.infer<typeof ProfileRequest>;

/** Per-phase series of one profile quantity; `cumulative` is the sum (or average) over phases. */
export const PhaseSeries = z.object({
  L1: ProfileSeries.optional(),
  L2: ProfileSeries.optional(),
  L3: ProfileSeries.optional(),
  cumulative: ProfileSeries,
});
/**
 * Resolution of a profile answer, chosen by the span of its range: MINUTE rows (energy quantities
 * per quarter hour) up to two days, HOUR up to 62 days, DAY beyond. Averages per hour or day for
 * the measured quantities, sums for the energy quantities.
 */
export const PROFILE_RESOLUTIONS = ['MINUTE', 'HOUR', 'DAY'] as const;
/** Resolution of a profile answer. */
export type ProfileResolution = (typeof PROFILE_RESOLUTIONS)[number];
/** Longest span answered with minute rows, seconds (two days: 2,880 points per series). */
export const PROFILE_MINUTE_MAX_SPAN_SEC = 2 * 86400;
/** Longest span answered with hourly points, seconds (62 days: 1,488 points per series). */
export const PROFILE_HOUR_MAX_SPAN_SEC = 62 * 86400;

/** The resolution a profile over spanSec seconds is answered in. */
export function profileResolution(spanSec: number): ProfileResolution {
  if (spanSec <= PROFILE_MINUTE_MAX_SPAN_SEC) return 'MINUTE';
  return spanSec <= PROFILE_HOUR_MAX_SPAN_SEC ? 'HOUR' : 'DAY';
}

/** Answer of POST /profile: data[key]; F is a plain series; resolution says how points were combined. */
export const ProfileResponse = okWith(z.record(z.string(), z.union([PhaseSeries, ProfileSeries]))).extend({
  resolution: z.enum(PROFILE_RESOLUTIONS),
});

/** Most periods one energy series may have: 93 days of 15MIN, a year and more of HOUR. */
export const ENERGY_MAX_PERIODS = 8928;

/** Energy series kinds: active import/export or reactive quadrants. */
export const ENERGY_KINDS = ['E_I', 'E_E', 'Q1', 'Q2', 'Q3', 'Q4'] as const;
/** Energy periods (seed 000 section 9). */
export const ENERGY_PERIODS = ['15MIN', 'HOUR', 'DAY', 'MONTH'] as const;

/** Body of POST /energy. */
export const EnergyRequest = z
  .object({
    token: DeviceTokenString,
    data: nameList(ENERGY_KINDS),
    phase: z.string().max(20).default('CUM'),
    ...Range,
    period: z.enum(ENERGY_PERIODS),
    format: z.literal('H').default('H'),
    /** Quarter-hour maximum active power in kW instead of energy. */
    maximum: z.boolean().default(false),
    source: Source.optional(),
  })
  .refine(...rangeRule);
/** Body of POST /energy. */
export type EnergyRequest = z.infer<typeof EnergyRequest>;
/** Answer of POST /energy: data[key].CUM, in kWh (kvarh) per period, or kW with maximum. */
export const EnergyResponse = okWith(z.record(z.string(), z.object({ CUM: Series })));

/** Monitoring periods (seed 001 section 9). */
export const MONITORING_PERIODS = ['30MINUTE', 'MINUTE', 'DAY'] as const;
/** Body of POST /tools/monitoring. */
export const MonitoringRequest = z
  .object({
    token: DeviceTokenString,
    ...Range,
    period: z.enum(MONITORING_PERIODS),
    format: z.literal('H').optional(),
  })
  .refine(...rangeRule);
/** Body of POST /tools/monitoring. */
export type MonitoringRequest = z.infer<typeof MonitoringRequest>;

/** One slot of availability: offline seconds (0 means online all the time) and uptime percent. */
export const MonitoringPoint = z.object({ timestamp: z.number(), offline: z.number(), uptime: z.number() });
/** Per-day availability: hours online and offline, uptime percent. */
export const MonitoringDays = z.object({ online: Series, offline: Series, uptime: Series });
/** Answer of POST /tools/monitoring. */
export const MonitoringResponse = okWith(z.union([z.array(MonitoringPoint), MonitoringDays]));
