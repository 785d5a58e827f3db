import type { CostPeriod, CostRow, Tariff } from '@meterportal/protocol';
import { formatFixed, withUnit } from '../../i18n/format';
import type { Granularity } from '../telemetry/dateRanges';

/** An amount in cents with its currency, in the interface language's number format. */
export function formatMoney(cents: number, currency: string, lng?: string): string {
  return withUnit(formatFixed(cents / 100, 2, lng), currency);
}

/** Watt-hours as kWh with three decimals. */
export function formatKwh(wh: number, lng?: string): string {
  return formatFixed(wh / 1000, 3, lng);
}

/** The date range menu that fits a cost period: a day of hours, a week of days, a year of months. */
export function granularityFor(period: CostPeriod): Granularity {
  return period === 'HOUR' ? 'day' : period === 'DAY' ? 'week' : 'year';
}

/** Label format of a period start, for formatInZone. */
export const PERIOD_FORMATS: Record<CostPeriod, string> = {
  HOUR: 'L LT',
  DAY: 'L',
  MONTH: 'MMMM YYYY',
  YEAR: 'YYYY',
};

/** How much of a limit a value reaches, in whole percent; null when the limit is not set. */
export function percentOf(value: number, limit: number): number | null {
  return limit > 0 ? Math.round((value / limit) * 100) : null;
}

/** The colour of a share of a limit: calm below 80 %, warning to 100 %, alarm above. */
export function shareStatus(percent: number | null): 'normal' | 'active' | 'exception' {
  if (percent === null || percent < 80) return 'normal';
  return percent <= 100 ? 'active' : 'exception';
}

/** A new version's starting values: today's date, the latest version's prices, or a flat tariff. */
export function draftTariff(latest: Tariff | undefined, today: string): Tariff {
  if (latest) return { ...latest, validFrom: today };
  return {
    validFrom: today,
    currency: 'EUR',
    vatPercent: 20,
    bands: [
      { name: 'High', days: 'WEEKDAY', fromHour: 6, toHour: 22, priceKwh: 0.2 },
      { name: 'Low', days: 'ALL', fromHour: 0, toHour: 24, priceKwh: 0.1 },
    ],
    holidays: [],
    exportPriceKwh: 0,
    monthlyFee: 0,
    capacityPriceKw: 0,
  };
}

/** Per band, the cents of each row, for the stacked cost chart. */
export function bandSeries(
  rows: readonly CostRow[],
  bandNames: readonly string[],
): [string, [number, number][]][] {
  return bandNames.map((name) => [name, rows.map((r) => [r.t, (r.bands[name] ?? 0) / 100])]);
}
