import type { z } from 'zod';
import type { Tariff } from '@meterportal/protocol';

/**
 * A tariff of the worked examples: "High" 6-22 on weekdays, "Low" at every other hour, 20 % VAT,
 * 0.05 per exported kWh, 6 January as a holiday.
 */
export function workdayTariff(
  validFrom: string,
  high: number,
  low: number,
  monthlyFee: number,
  capacityPriceKw: number,
): z.input<typeof Tariff> {
  return {
    validFrom,
    currency: 'EUR',
    vatPercent: 20,
    bands: [
      { name: 'High', days: 'WEEKDAY', fromHour: 6, toHour: 22, priceKwh: high },
      { name: 'Low', days: 'ALL', fromHour: 0, toHour: 24, priceKwh: low },
    ],
    holidays: ['2026-01-06'],
    exportPriceKwh: 0.05,
    monthlyFee,
    capacityPriceKw,
  };
}
