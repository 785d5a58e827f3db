import type { TFunction } from 'i18next';

/** Where a tariff's check failed: the path of the first problem the protocol's rules found. */
export type ProblemPath = readonly PropertyKey[];

/** Labels of the tariff's single-number fields, and the decimals each takes. */
const FIELDS: Record<
  string,
  {
    label: 'costs.vat' | 'costs.export_price' | 'costs.monthly_fee' | 'costs.capacity_price';
    decimals: number;
  }
> = {
  vatPercent: { label: 'costs.vat', decimals: 2 },
  exportPriceKwh: { label: 'costs.export_price', decimals: 6 },
  monthlyFee: { label: 'costs.monthly_fee', decimals: 2 },
  capacityPriceKw: { label: 'costs.capacity_price', decimals: 6 },
};

/**
 * A tariff problem in the user's language, from where it was found: the protocol's own messages
 * are English and name fields by their keys, so they are never shown as they are.
 */
export function tariffProblemText(t: TFunction, path: ProblemPath, holidays: readonly string[]): string {
  const [first, index, leaf] = path;
  if (first === 'bands' && index === undefined) return t('costs.problem_bands_cover');
  if (first === 'bands' && typeof index === 'number') {
    const band = index + 1;
    return leaf === 'toHour' ? t('costs.problem_band_hours', { band }) : t('costs.problem_band', { band });
  }
  if (first === 'holidays' && typeof index === 'number')
    return t('costs.problem_holiday', { holiday: holidays[index] ?? '' });
  const field = typeof first === 'string' ? FIELDS[first] : undefined;
  if (field) return t('costs.problem_field', { field: t(field.label), decimals: field.decimals });
  return t('common.unexpected_error');
}
