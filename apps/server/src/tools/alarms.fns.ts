// Pure parts of alarm evaluation: the watched value of a frame, when a condition holds and when
// it has cleared, and the projected demand of the running quarter-hour.
import type { AlarmPhase, AlarmQuantity, LiveFrame } from '@meterportal/protocol';

/** A condition on one number, with the hysteresis a clear needs. */
export interface Condition {
  condition: 'above' | 'below' | 'outside';
  threshold: number;
  thresholdHigh?: number | undefined;
  hysteresis: number;
}

/** Quarter-hour length, s. */
export const QUARTER_SEC = 900;

// Quantities whose phases add up; the others (voltages, factors, angles) are averaged.
const ADDITIVE: ReadonlySet<AlarmQuantity> = new Set(['I', 'P', 'Q', 'S']);

/**
 * The value a threshold rule watches in a frame, or null when the device does not measure it
 * (a sum or average is over the phases it measures).
 */
export function quantityValue(frame: LiveFrame, quantity: AlarmQuantity, phase: AlarmPhase): number | null {
  if (quantity === 'F') return frame.F;
  const v = frame[quantity];
  if (phase !== 'SUM') return v[phase];
  const measured = [v.L1, v.L2, v.L3].filter((x): x is number => x !== null);
  if (measured.length === 0) return null;
  const sum = measured.reduce((a, b) => a + b, 0);
  return ADDITIVE.has(quantity) ? sum : sum / measured.length;
}

/** True while the value breaks the condition. */
export function violates(c: Condition, v: number): boolean {
  switch (c.condition) {
    case 'above':
      return v > c.threshold;
    case 'below':
      return v < c.threshold;
    case 'outside':
      return v < c.threshold || v > (c.thresholdHigh ?? c.threshold);
  }
}

/** True once the value is back past the threshold by the hysteresis, so a raised alarm clears. */
export function clears(c: Condition, v: number): boolean {
  switch (c.condition) {
    case 'above':
      return v <= c.threshold - c.hysteresis;
    case 'below':
      return v >= c.threshold + c.hysteresis;
    case 'outside':
      return v >= c.threshold + c.hysteresis && v <= (c.thresholdHigh ?? c.threshold) - c.hysteresis;
  }
}

/** Sum of the imported active energy registers of a frame, Wh. */
export function importedWh(frame: LiveFrame): number {
  return frame.E_I.L1 + frame.E_I.L2 + frame.E_I.L3;
}

/**
 * The average power the running quarter-hour will reach, W: the energy imported since it began
 * plus the present import held to its end, spread over the quarter.
 */
export function projectedDemandW(sinceStartWh: number, powerW: number, tsSec: number): number {
  const quarterEnd = Math.floor(tsSec / QUARTER_SEC) * QUARTER_SEC + QUARTER_SEC;
  const restWh = (Math.max(0, powerW) * (quarterEnd - tsSec)) / 3600;
  return ((Math.max(0, sinceStartWh) + restWh) * 3600) / QUARTER_SEC;
}
