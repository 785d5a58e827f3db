import type { MeterTestResult } from '@meterportal/protocol';
import { formatFixed } from '../../../i18n/format';

/** Phases of a test result (suffix 1 to 3 of the per-phase keys). */
export const PHASES = [1, 2, 3] as const;
export type Phase = (typeof PHASES)[number];

/** Values the device does not send but a tester reads: impedance and the current's components. */
export interface Derived {
  /** Impedance Z = U / I, Ω. */
  impedanceOhm?: number;
  /** sin φ of the angle between voltage and current. */
  sinPhi?: number;
  /** Active current Ip = I · cos φ, A. */
  activeCurrentA?: number;
  /** Reactive current Iq = I · sin φ, A. */
  reactiveCurrentA?: number;
}

const finite = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

/** Derived values from voltage (V), current (A) and the angle between them (degrees). */
export function derive(voltageV?: number, currentA?: number, phiDeg?: number): Derived {
  const out: Derived = {};
  if (finite(voltageV) && finite(currentA) && currentA !== 0) out.impedanceOhm = voltageV / currentA;
  if (finite(phiDeg)) {
    const rad = (phiDeg * Math.PI) / 180;
    out.sinPhi = Math.sin(rad);
    if (finite(currentA)) {
      out.activeCurrentA = currentA * Math.cos(rad);
      out.reactiveCurrentA = currentA * Math.sin(rad);
    }
  }
  return out;
}

/** A per-phase value of a result, e.g. at(r, 'MCHNLA', 2) is the L2 voltage. */
export function at(result: MeterTestResult, prefix: string, phase: Phase): number | undefined {
  const v = (result as Record<string, unknown>)[`${prefix}${phase}`];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A value of a result by its key, when it is a number. */
export function num(result: MeterTestResult, key: string): number | undefined {
  const v = (result as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** An angle folded into (-180°, 180°]. */
export function fold180(deg: number): number {
  const a = ((deg % 360) + 360) % 360;
  return a > 180 ? a - 360 : a;
}

/**
 * Load angle φ of a phase: how far the current lags the voltage, positive for an inductive load,
 * so that P = U·I·cos φ and Q = U·I·sin φ. From the voltage and current angles when both are
 * sent, otherwise from PH, which the device gives the other way round (current minus voltage).
 */
export function phiOf(result: MeterTestResult, phase: Phase): number | undefined {
  const a = at(result, 'MPHA', phase);
  const b = at(result, 'MPHB', phase);
  if (a !== undefined && b !== undefined) return fold180(a - b);
  const ph = at(result, 'PH', phase);
  return ph === undefined ? undefined : fold180(-ph);
}

export function derivedOf(result: MeterTestResult, phase: Phase): Derived {
  return derive(at(result, 'MCHNLA', phase), at(result, 'MCHNLB', phase), phiOf(result, phase));
}

/**
 * Phase sequence from the voltage angles (seed 001 section 3: by sorting the MPHA angles). Angles
 * run counter-clockwise from L1, so in the right sequence L2 lags at 240° (-120°) and L3 at 120°:
 * sorted by angle from L1 downwards the phases read L1-L2-L3; otherwise L1-L3-L2. Undefined
 * without all three angles.
 */
export function phaseSequence(angles: readonly (number | undefined)[]): 'L1-L2-L3' | 'L1-L3-L2' | undefined {
  if (angles.length !== 3 || !angles.every(finite)) return undefined;
  // Angles relative to L1, in [0, 360).
  const rel = angles.map((a) => (((a - angles[0]!) % 360) + 360) % 360);
  const descending = [1, 2].sort((x, y) => rel[y]! - rel[x]! || x - y);
  return descending[0] === 1 ? 'L1-L2-L3' : 'L1-L3-L2';
}

/** A number with fixed decimals in the user's language (`0,12` in Slovak), or '-' when absent. */
export function fixed(n: number | undefined, decimals: number, lng?: string): string {
  return formatFixed(n, decimals, lng);
}
