import { MRK_PATTERN, isValidContractKw } from '@meterportal/protocol';

/** Colours of the contract limits and of the month's peak, on every chart that marks them. */
export const LIMIT_COLORS = { MRK: '#eb2f96', RK: '#fa8c16', PEAK: '#722ed1' } as const;

/**
 * MRK/RK text entry: digits with one optional separator (dot or comma) and up to 3 decimals,
 * 0 to 100000000. Returns the number to send, or null when the entry is not valid.
 */
export function parseContractKw(text: string): number | null {
  const s = text.trim();
  if (!MRK_PATTERN.test(s)) return null;
  const n = Number(s.replace(',', '.'));
  return isValidContractKw(n) ? n : null;
}
