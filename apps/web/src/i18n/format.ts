import i18next from 'i18next';

/**
 * Numbers on screen, in the user's language: every axis, table, tooltip and label formats through
 * here. Files (CSV, XLSX) stay machine-readable and do not use these.
 */

/** The number locale of each interface language; English is British, like the calendar. */
const LOCALES: Record<string, string> = { en: 'en-GB', sk: 'sk-SK', de: 'de-DE' };

const cache = new Map<string, Intl.NumberFormat>();

function formatter(lng: string, min: number, max: number): Intl.NumberFormat {
  const locale = LOCALES[lng] ?? LOCALES.en!;
  const key = `${locale}|${min}|${max}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max });
    cache.set(key, f);
  }
  return f;
}

/** The current interface language (the number locale follows it). */
export function currentLanguage(): string {
  return i18next.resolvedLanguage ?? i18next.language ?? 'en';
}

function isNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * A measured value with a fixed number of decimals (3 unless told), grouped: `1,234.500` in
 * English, `1 234,500` in Slovak, `1.234,500` in German. Missing values read '-'.
 */
export function formatFixed(v: number | null | undefined, decimals = 3, lng = currentLanguage()): string {
  return isNumber(v) ? formatter(lng, decimals, decimals).format(v) : '-';
}

/** A value with at most `maxDecimals` decimals and no trailing zeros: labels and axis ticks. */
export function formatNumber(v: number | null | undefined, maxDecimals = 3, lng = currentLanguage()): string {
  return isNumber(v) ? formatter(lng, 0, maxDecimals).format(v) : '-';
}

/** A value and its unit, separated by a space when there is a unit. */
export function withUnit(text: string, unit: string): string {
  return unit ? `${text} ${unit}` : text;
}

/** An angle in degrees, 0 to 360, with the decimals given. */
export function formatAngle(deg: number | null | undefined, decimals = 2, lng = currentLanguage()): string {
  return isNumber(deg) ? `${formatter(lng, decimals, decimals).format(deg)}°` : '-';
}

/**
 * Machine-readable number for files: dot decimal, no grouping, `decimals` places. Spreadsheets and
 * scripts read these the same in every language.
 */
export function formatMachine(v: number | null | undefined, decimals = 3): string {
  return isNumber(v) ? v.toFixed(decimals) : '';
}
