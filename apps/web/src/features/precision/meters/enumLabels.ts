import { METER_ENUM_FIELDS } from '@meterportal/protocol';
import type { TFunction } from 'i18next';
import type { EnumField } from './meterRules';

/**
 * Names of an enumeration's items. Energy and constant type are words and are translated; the
 * others (3P4W, LED, i/kWh, Algo 1...) are the instrument's own codes and read the same everywhere.
 */
export function enumOptions(field: EnumField, t: TFunction): { value: number; label: string }[] {
  return METER_ENUM_FIELDS[field].map((code, i) => ({ value: i, label: enumLabel(field, i, t) ?? code }));
}

export function enumLabel(field: EnumField, index: unknown, t: TFunction): string | undefined {
  const i = Number(index);
  const list: readonly string[] = METER_ENUM_FIELDS[field];
  if (!Number.isInteger(i) || i < 0 || i >= list.length) return undefined;
  const key = String(i) as '0' | '1';
  if (field === 'MENERGYTYPE') return t(`meters.energies.${key}`);
  if (field === 'CONSTTYPE') return t(`meters.constant_types.${key}`);
  return list[i];
}
