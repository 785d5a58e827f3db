// EN 50160 individual harmonic voltages: the weekly verdict of each order from the analyzer's
// stored 10-minute spectra. Pure: the service reads the rows, this module judges them.
import type { PqCriterionResult, PqHarmonicOrder, PqHarmonics, PqVerdict } from '@meterportal/protocol';
import type { HarmonicColumn } from '../db/schema.telemetry';
import { floorPct, INTERVAL_SEC } from './pq-shares';

/**
 * EN 50160:2010, Table 1: individual harmonic voltages at low-voltage supply terminals up to the
 * 25th order, % of the fundamental; 95 % of a week's 10-minute mean rms values must not exceed them.
 */
export const EN50160_HARMONIC_LIMITS: Readonly<Record<number, number>> = {
  // Odd, not multiples of 3.
  5: 6,
  7: 5,
  11: 3.5,
  13: 3,
  17: 2,
  19: 1.5,
  23: 1.5,
  25: 1.5,
  // Odd multiples of 3.
  3: 5,
  9: 1.5,
  15: 0.5,
  21: 0.5,
  // Even.
  2: 2,
  4: 1,
  6: 0.5,
  8: 0.5,
  10: 0.5,
  12: 0.5,
  14: 0.5,
  16: 0.5,
  18: 0.5,
  20: 0.5,
  22: 0.5,
  24: 0.5,
};

/** The orders judged and stored, 2 to 25. */
export const HARMONIC_ORDERS: readonly number[] = Array.from({ length: 24 }, (_, i) => i + 2);

/** The stored column of an order. */
export const harmonicColumn = (order: number) => `h${order}` as HarmonicColumn;

/** Share of a week's 10-minute values each order needs within its limit, per mille. */
export const HARMONICS_REQUIRED_PERMILLE = 950;

const PHASES = ['L1', 'L2', 'L3'] as const;

/** One stored 10-minute spectrum of one phase. */
export interface SpectrumInterval {
  intervalSec: number;
  /** 1, 2 or 3. */
  phase: number;
  /** % of the fundamental by order (index 0 is the 2nd); null where the device sent no such order. */
  values: readonly (number | null)[];
}

/** Counts of one order on one phase. */
interface PhaseCount {
  assessed: number;
  within: number;
}

/** Passes when within/assessed reaches the required share, compared in integers (95 % passes, 94.9 % fails). */
export function sharePasses(
  within: number,
  assessed: number,
  requiredPermille = HARMONICS_REQUIRED_PERMILLE,
) {
  return within * 1000 >= requiredPermille * assessed;
}

/** The verdict of one order from its counts per phase: every phase with values must pass. */
export function orderVerdict(counts: readonly PhaseCount[]): PqVerdict {
  const judged = counts.filter((c) => c.assessed > 0);
  if (judged.length === 0) return 'NO_DATA';
  return judged.every((c) => sharePasses(c.within, c.assessed)) ? 'PASS' : 'FAIL';
}

/** True when a phase's share is lower than another's (a worse phase). */
const lowerShare = (a: PhaseCount, b: PhaseCount) => a.within * b.assessed < b.within * a.assessed;

function judgeOrder(order: number, rows: readonly SpectrumInterval[]): PqHarmonicOrder {
  const limitPct = EN50160_HARMONIC_LIMITS[order]!;
  const counts: PhaseCount[] = PHASES.map(() => ({ assessed: 0, within: 0 }));
  let worst: PqHarmonicOrder['worst'] = null;
  for (const r of rows) {
    const v = r.values[order - 2];
    const c = counts[r.phase - 1];
    if (v === null || v === undefined || !c) continue;
    c.assessed++;
    if (v <= limitPct) c.within++;
    if (!worst || v > worst.value || (v === worst.value && r.intervalSec < worst.startSec))
      worst = { startSec: r.intervalSec, value: Math.round(v * 1000) / 1000, phase: PHASES[r.phase - 1]! };
  }
  let k = -1;
  counts.forEach((c, i) => {
    if (c.assessed > 0 && (k < 0 || lowerShare(c, counts[k]!))) k = i;
  });
  const phase = k < 0 ? null : counts[k]!;
  return {
    order,
    limitPct,
    verdict: orderVerdict(counts),
    worstPhase: k < 0 ? null : PHASES[k]!,
    assessed: phase?.assessed ?? 0,
    within: phase?.within ?? 0,
    achievedPct: phase ? floorPct(phase.within, phase.assessed) : null,
    worst,
  };
}

/** The week's harmonic orders judged from the stored spectra of [fromSec, toSec). */
export function judgeHarmonics(
  rows: readonly SpectrumInterval[],
  fromSec: number,
  toSec: number,
): PqHarmonics {
  const inWeek = rows.filter((r) => r.intervalSec >= fromSec && r.intervalSec < toSec);
  const orders = HARMONIC_ORDERS.map((h) => judgeOrder(h, inWeek));
  const intervalsInWeek = Math.ceil((toSec - fromSec) / INTERVAL_SEC);
  const intervalsWithSpectrum = new Set(inWeek.map((r) => r.intervalSec)).size;
  const verdict: PqVerdict = orders.some((o) => o.verdict === 'FAIL')
    ? 'FAIL'
    : orders.some((o) => o.verdict === 'PASS')
      ? 'PASS'
      : 'NO_DATA';
  return {
    verdict,
    requiredPct: HARMONICS_REQUIRED_PERMILLE / 10,
    intervalsInWeek,
    intervalsWithSpectrum,
    coveragePct: floorPct(intervalsWithSpectrum, intervalsInWeek),
    orders,
  };
}

/**
 * The HARMONICS criterion of the week's list: the orders' verdict, and the lowest share of any
 * order's worst phase; the limits and worst intervals are those of each order in the table.
 */
export function harmonicsCriterion(
  h: PqHarmonics,
  span: { fromSec: number; toSec: number },
): PqCriterionResult {
  let lowest: PqHarmonicOrder | null = null;
  for (const o of h.orders) if (o.assessed > 0 && (!lowest || lowerShare(o, lowest))) lowest = o;
  return {
    criterion: 'HARMONICS',
    verdict: h.verdict,
    lowLimit: null,
    highLimit: null,
    unit: '%',
    requiredPct: h.requiredPct,
    achievedPct: lowest?.achievedPct ?? null,
    assessed: lowest?.assessed ?? 0,
    within: lowest?.within ?? 0,
    intervalSec: INTERVAL_SEC,
    worst: [],
    spanFromSec: span.fromSec,
    spanToSec: span.toSec,
    week: null,
  };
}
