import { CLOCK_AHEAD_TOLERANCE_SEC } from '@meterportal/protocol';

/** How a meter's clock error is told: which way, and a rounded amount in a fitting unit. */
export interface ClockSkewMark {
  direction: 'ahead' | 'behind';
  amount: number;
  unit: 's' | 'min' | 'h' | 'd';
}

/**
 * The mark shown for a meter whose frames are refused for their time; null while its clock is
 * within the tolerance (or not known to be wrong). Seconds up to two minutes, then minutes, hours
 * up to two days, then days.
 */
export function clockSkewMark(skewSec: number | null | undefined): ClockSkewMark | null {
  if (skewSec === null || skewSec === undefined || !Number.isFinite(skewSec)) return null;
  const abs = Math.abs(skewSec);
  if (abs <= CLOCK_AHEAD_TOLERANCE_SEC) return null;
  const direction = skewSec > 0 ? 'ahead' : 'behind';
  if (abs < 120) return { direction, amount: Math.round(abs), unit: 's' };
  if (abs < 2 * 3600) return { direction, amount: Math.round(abs / 60), unit: 'min' };
  if (abs < 2 * 86400) return { direction, amount: Math.round(abs / 3600), unit: 'h' };
  return { direction, amount: Math.round(abs / 86400), unit: 'd' };
}
