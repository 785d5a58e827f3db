import type { Quantity } from './views';

export type Phase = 'L1' | 'L2' | 'L3';
export const PHASES: readonly Phase[] = ['L1', 'L2', 'L3'];

export interface LiveSample {
  /** Time of the sample, epoch ms. */
  tsMs: number;
  values: Partial<Record<Phase, number>>;
}

/**
 * Reads one quantity from a live Data message: ts in seconds and per quantity L1, L2, L3 (F may
 * be a plain number). Energies are divided (Wh to kWh). Null when the message lacks it.
 */
export function readLiveSample(
  message: unknown,
  quantity: Quantity,
  divisor: number,
  phaseCount: number,
): LiveSample | null {
  if (!message || typeof message !== 'object') return null;
  const m = message as Record<string, unknown>;
  const payload = (m.data && typeof m.data === 'object' ? m.data : m) as Record<string, unknown>;
  const ts = typeof payload.ts === 'number' ? payload.ts * 1000 : undefined;
  const raw = payload[quantity];
  if (ts === undefined || raw === undefined || raw === null) return null;
  const values: Partial<Record<Phase, number>> = {};
  if (typeof raw === 'number') {
    values.L1 = raw / divisor;
  } else if (typeof raw === 'object') {
    const q = raw as Record<string, unknown>;
    for (const p of PHASES.slice(0, phaseCount)) {
      const v = q[p];
      if (typeof v === 'number' && Number.isFinite(v)) values[p] = v / divisor;
    }
  }
  return Object.keys(values).length ? { tsMs: ts, values } : null;
}

/**
 * Whether a live Data message says the device does not measure the quantity: the key is there
 * with null (frequency) or null on every phase in use. Such a frame is not a fault.
 */
export function liveQuantityAbsent(message: unknown, quantity: Quantity, phaseCount: number): boolean {
  if (!message || typeof message !== 'object') return false;
  const m = message as Record<string, unknown>;
  const payload = (m.data && typeof m.data === 'object' ? m.data : m) as Record<string, unknown>;
  const raw = payload[quantity];
  if (raw === null) return true;
  if (!raw || typeof raw !== 'object') return false;
  const q = raw as Record<string, unknown>;
  return PHASES.slice(0, phaseCount).every((p) => q[p] === null);
}

/** The seed's placeholder for live voltage distortion: random percentages per phase. */
export function randomSample(
  tsMs: number,
  phaseCount: number,
  random: () => number = Math.random,
): LiveSample {
  const values: Partial<Record<Phase, number>> = {};
  for (const p of PHASES.slice(0, phaseCount)) values[p] = Math.round(random() * 5000) / 1000;
  return { tsMs, values };
}
