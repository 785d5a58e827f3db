import { z } from 'zod';
import { DeviceTokenString, okWith } from './common';

/** Currencies a tariff may be priced in; each has two minor digits (cents). */
export const TARIFF_CURRENCIES = ['EUR', 'CZK', 'PLN', 'HUF', 'CHF', 'GBP', 'USD'] as const;
/** Days a time-of-use band applies on; holidays of the tariff count as weekend days. */
export const TARIFF_DAYS = ['ALL', 'WEEKDAY', 'WEEKEND'] as const;
/** Most bands one tariff may have. */
export const TARIFF_MAX_BANDS = 8;
/** Most holidays one tariff may list. */
export const TARIFF_MAX_HOLIDAYS = 60;
/** Most tariff versions one device may keep. */
export const TARIFF_MAX_VERSIONS = 120;

/** True when n is finite, from 0 to max, with at most `decimals` decimals. */
export function isDecimalAmount(n: number, decimals: number, max: number): boolean {
  if (!Number.isFinite(n) || n < 0 || n > max) return false;
  const scaled = n * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

const amount = (decimals: number, max: number) =>
  z.number().refine((n) => isDecimalAmount(n, decimals, max), {
    message: `must be 0 to ${max} with at most ${decimals} decimals`,
  });

/** A price per kWh or kW: up to 6 decimals of the currency, at most 1,000,000. */
export const UnitPrice = amount(6, 1_000_000);
/** A money amount: up to 2 decimals (cents), at most 100,000,000. */
export const MoneyAmount = amount(2, 100_000_000);

/** A local calendar date, YYYY-MM-DD, that exists. */
export const LocalDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
  .refine((s) => {
    const [y, m, d] = s.split('-').map(Number) as [number, number, number];
    const t = new Date(Date.UTC(y, m - 1, d));
    return y >= 2000 && y <= 2100 && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
  }, 'not a calendar date from 2000 to 2100');

/** One time-of-use band: a price for the hours [fromHour, toHour) of the days it applies on. */
export const TariffBand = z
  .object({
    /** Name shown beside its cost, e.g. "High" or "VT"; bands of one name add up together. */
    name: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .regex(/^[^<>\p{Cc}]*$/u, 'may not contain < > or control characters'),
    days: z.enum(TARIFF_DAYS),
    /** First local hour of the band, 0 to 23. */
    fromHour: z.number().int().min(0).max(23),
    /** Local hour the band ends at (exclusive), 1 to 24. */
    toHour: z.number().int().min(1).max(24),
    /** Energy price per kWh, net of VAT. */
    priceKwh: UnitPrice,
  })
  .refine((b) => b.toHour > b.fromHour, { message: 'toHour must be after fromHour', path: ['toHour'] });
/** One time-of-use band. */
export type TariffBand = z.infer<typeof TariffBand>;

/** The first band of a list that applies at a local hour of a weekday or weekend day, or -1. */
export function bandIndexAt(bands: readonly TariffBand[], weekend: boolean, hour: number): number {
  return bands.findIndex(
    (b) => (b.days === 'ALL' || (b.days === 'WEEKEND') === weekend) && hour >= b.fromHour && hour < b.toHour,
  );
}

/** A tariff version: valid from the local midnight of validFrom until the next version starts. */
export const Tariff = z
  .object({
    validFrom: LocalDate,
    currency: z.enum(TARIFF_CURRENCIES),
    /** VAT in percent, up to 2 decimals, added to the charges (not to the export credit). */
    vatPercent: amount(2, 100),
    /** Time-of-use bands; the first that applies to a quarter hour prices it. */
    bands: z.array(TariffBand).min(1).max(TARIFF_MAX_BANDS),
    /** Local dates priced as weekend days. */
    holidays: z.array(LocalDate).max(TARIFF_MAX_HOLIDAYS).default([]),
    /** Credit per exported (fed-in) kWh, net. */
    exportPriceKwh: UnitPrice,
    /** Fixed fee per month, net; a month shared by two versions pays each its share of the time. */
    monthlyFee: MoneyAmount,
    /** Charge per kW of the month's highest quarter-hour demand, net. */
    capacityPriceKw: UnitPrice,
  })
  .refine(
    (t) =>
      [false, true].every((weekend) =>
        Array.from({ length: 24 }, (_, h) => h).every((h) => bandIndexAt(t.bands, weekend, h) >= 0),
      ),
    { message: 'the bands must cover every hour of weekdays and weekends', path: ['bands'] },
  );
/** A tariff version. */
export type Tariff = z.infer<typeof Tariff>;

/** Body of POST (read) /tariffs. */
export const TariffsReadRequest = z.object({ token: DeviceTokenString });
/** Answer of POST (read) /tariffs: the device's versions, oldest first; owner says who may edit. */
export const TariffsResponse = okWith(z.object({ owner: z.boolean(), tariffs: z.array(Tariff) }));
/** Body of POST (write) /tariffs: adds a version, or replaces the one of the same validFrom. */
export const TariffSaveRequest = z.object({ token: DeviceTokenString, tariff: Tariff });
/** Body of DELETE (write) /tariffs: removes the version starting on validFrom. */
export const TariffDeleteRequest = z.object({ token: DeviceTokenString, validFrom: LocalDate });

/** Periods cost is answered in. */
export const COST_PERIODS = ['HOUR', 'DAY', 'MONTH', 'YEAR'] as const;
/** A period of a cost answer. */
export type CostPeriod = (typeof COST_PERIODS)[number];
/** Longest span of a cost request, seconds (a little over a year, like the energy route). */
export const COST_MAX_SPAN_SEC = 367 * 86400;

/** Body of POST (read) /energy/cost. */
export const CostRequest = z
  .object({
    token: DeviceTokenString,
    /** Range start, unix seconds. */
    from: z.number().int().min(0),
    /** Range end (exclusive), unix seconds. */
    to: z.number().int().min(0),
    period: z.enum(COST_PERIODS),
  })
  .refine((r) => r.to > r.from && r.to - r.from <= COST_MAX_SPAN_SEC, {
    message: 'to must be after from, at most 367 days later',
    path: ['to'],
  });
/** Body of POST (read) /energy/cost. */
export type CostRequest = z.infer<typeof CostRequest>;

/**
 * Energy and its cost over one period, money in cents (minor units), each figure rounded half up
 * once from its exact value. Fixed fee and capacity charge appear in MONTH and YEAR periods only.
 */
export const CostRow = z.object({
  /** Period start, unix ms (a local hour, day, month or year). */
  t: z.number(),
  /** Imported active energy, Wh. */
  importWh: z.number().int(),
  /** Exported active energy, Wh. */
  exportWh: z.number().int(),
  /** Energy cost per band name, cents. */
  bands: z.record(z.string(), z.number().int()),
  /** Sum of the bands, cents. */
  energyCents: z.number().int(),
  fixedCents: z.number().int(),
  capacityCents: z.number().int(),
  vatCents: z.number().int(),
  /** Credit for exported energy (no VAT), cents. */
  exportCreditCents: z.number().int(),
  /** energy + fixed + capacity + VAT - export credit, cents. */
  totalCents: z.number().int(),
});
/** Energy and its cost over one period. */
export type CostRow = z.infer<typeof CostRow>;

/** Answer of POST (read) /energy/cost: one row per period with energy, and the range's total. */
export const CostResponse = okWith(
  z.object({
    currency: z.enum(TARIFF_CURRENCIES),
    /** Band names in the order of the tariffs' bands. */
    bandNames: z.array(z.string()),
    rows: z.array(CostRow),
    total: CostRow,
  }),
);
/** Answer data of POST (read) /energy/cost. */
export type CostData = z.output<typeof CostResponse>['data'];

/** Body of POST (read) /energy/peaks. */
export const PeaksRequest = z.object({
  token: DeviceTokenString,
  /** How many local months to answer, ending with the current one. */
  months: z.number().int().min(1).max(36).default(13),
});

/** One month's highest quarter-hour demand and the 12-month average of monthly peaks. */
export const MonthPeak = z.object({
  /** Local month start, unix ms. */
  monthMs: z.number(),
  /** Highest quarter-hour average import power, kW; null when the month has no data. */
  peakKw: z.number().nullable(),
  /** Start of that quarter hour, unix ms. */
  atMs: z.number().nullable(),
  /** Average of the monthly peaks of the 12 months ending with this one (months with data). */
  avg12Kw: z.number().nullable(),
  /**
   * The meter's own record of the month's peak (a P1 meter of the Belgian capacity tariff,
   * 1-0:1.6.0 and 0-0:98.1.0), kW; null when it has none for the month. Only for such a meter.
   */
  meterPeakKw: z.number().nullable().optional(),
  /** When the meter's peak was, as the meter stamps it, unix ms. */
  meterAtMs: z.number().nullable().optional(),
  /** Average of the meter's own peaks of the 12 months ending with this one (months it recorded). */
  meterAvg12Kw: z.number().nullable().optional(),
});
/** One month's peak. */
export type MonthPeak = z.infer<typeof MonthPeak>;

/** The running quarter hour against the contract limits and the month's peak. */
export const RunningQuarter = z.object({
  /** Start of the running quarter hour, unix ms. */
  startMs: z.number(),
  /** Seconds of it gone. */
  elapsedSec: z.number().int(),
  /** Import energy so far, Wh. */
  energyWh: z.number().int(),
  /** Demand so far (energy so far over a whole quarter), kW. */
  demandKw: z.number(),
  /** Demand the quarter ends with if the import goes on as so far, kW. */
  projectedKw: z.number(),
  /** Contract limits, kW (0 when not set). */
  mrkKw: z.number(),
  rkKw: z.number(),
  /** This month's highest finished quarter so far, kW (0 when none). */
  monthPeakKw: z.number(),
  /**
   * The running quarter hour's average demand as the meter last reported it (1-0:1.4.0), kW; only
   * for a meter that records the capacity tariff, null while it has reported none.
   */
  meterAverageKw: z.number().nullable().optional(),
  /** Time of the telegram that reported it, unix ms. */
  meterAverageAtMs: z.number().nullable().optional(),
});
/** The running quarter hour. */
export type RunningQuarter = z.infer<typeof RunningQuarter>;

/** Answer of POST (read) /energy/peaks: months oldest first, and the running quarter hour. */
export const PeaksResponse = okWith(z.object({ months: z.array(MonthPeak), running: RunningQuarter }));
/** Answer data of POST (read) /energy/peaks. */
export type PeaksData = z.output<typeof PeaksResponse>['data'];
