// Turns cumulative meter registers into energy per time bucket (quarter-hours by default).
// Registers are the truth: a lost frame moves energy into the next delta instead of losing it,
// so deltas are computed between consecutive readings and spread over the buckets they span.

/** Quarter-hour bucket length, seconds. */
export const QUARTER_SEC = 900;

/** A register reading: time and one integer value per channel (Wh, varh or VAh). */
export interface RegisterReading {
  tsSec: number;
  values: readonly number[];
}

/** Limits that tell real energy from a register reset or a corrupt jump. */
export interface DeltaLimits {
  /** Highest plausible power on one channel, W (or var, VA); larger increases are jumps. */
  maxPowerW: number;
  /** Longest gap spread over buckets; beyond it the energy cannot be placed in time and is skipped. */
  maxSpreadSec: number;
  /** Bucket length, seconds. */
  bucketSec: number;
}

/** Defaults for a meter of up to 250 kW per phase. */
export const DEFAULT_DELTA_LIMITS: DeltaLimits = {
  maxPowerW: 250_000,
  maxSpreadSec: 31 * 86_400,
  bucketSec: QUARTER_SEC,
};

/** Why a channel's change was not counted as it stood. */
export type Anomaly = 'reset' | 'jump' | 'gap';

/** Energy per bucket between two readings. */
export interface DeltaResult {
  /** Bucket start (unix seconds) -> energy per channel in that bucket; all values >= 0. */
  buckets: Map<number, number[]>;
  /** Channels whose change was a reset, an implausible jump, or too long a gap. */
  anomalies: { channel: number; kind: Anomaly }[];
}

/** Start of the bucket holding tsSec. */
export function bucketStart(tsSec: number, bucketSec: number = QUARTER_SEC): number {
  return Math.floor(tsSec / bucketSec) * bucketSec;
}

// Energy the channel could plausibly have counted in elapsedSec, with 1 unit of slack for the
// integer registers' rounding.
function capOf(elapsedSec: number, limits: DeltaLimits): number {
  return Math.floor((limits.maxPowerW * elapsedSec) / 3600) + 1;
}

/**
 * Splits each channel's increase between prev and next over the buckets the interval (prev, next]
 * spans, in proportion to time, so the parts are non-negative integers summing exactly to the
 * increase. A decrease (reset) counts the new value when plausible; an implausible increase
 * (jump) or a gap longer than maxSpreadSec counts nothing. Requires next.tsSec > prev.tsSec.
 */
export function registerDeltas(
  prev: RegisterReading,
  next: RegisterReading,
  limits: DeltaLimits = DEFAULT_DELTA_LIMITS,
): DeltaResult {
  const t0 = prev.tsSec;
  const t1 = next.tsSec;
  if (!(t1 > t0)) throw new Error('registerDeltas needs increasing timestamps');
  const n = next.values.length;
  const elapsed = t1 - t0;
  const cap = capOf(elapsed, limits);
  const anomalies: DeltaResult['anomalies'] = [];
  const inc: number[] = new Array<number>(n).fill(0);
  const tooLong = elapsed > limits.maxSpreadSec;
  for (let c = 0; c < n; c++) {
    const a = prev.values[c] ?? 0;
    const b = next.values[c] ?? 0;
    let d = b - a;
    if (d < 0) {
      // The meter restarted its count: what it shows now was counted since the reset.
      anomalies.push({ channel: c, kind: 'reset' });
      d = b <= cap ? b : 0;
    } else if (d > cap) {
      anomalies.push({ channel: c, kind: 'jump' });
      d = 0;
    }
    if (tooLong && d > 0) {
      anomalies.push({ channel: c, kind: 'gap' });
      d = 0;
    }
    inc[c] = d;
  }

  const buckets = new Map<number, number[]>();
  if (tooLong) return { buckets, anomalies };
  // Energy of (t0, t1] belongs to the buckets holding t0+, ..., t1; a reading exactly on a
  // boundary closes the bucket before it.
  const first = bucketStart(t0, limits.bucketSec);
  const last = bucketStart(t1 - 1e-9, limits.bucketSec);
  if (first === last) {
    buckets.set(first, inc);
    return { buckets, anomalies };
  }
  const span = BigInt(elapsed);
  const given = new Array<bigint>(n).fill(0n);
  for (let start = first; start <= last; start += limits.bucketSec) {
    const end = Math.min(start + limits.bucketSec, t1);
    const row = new Array<number>(n).fill(0);
    for (let c = 0; c < n; c++) {
      const total = BigInt(inc[c] ?? 0);
      // Cumulative rounding: the share up to `end` is floor(total * elapsedToEnd / span), so
      // the parts never go negative and add up to exactly `total` at t1.
      const upTo = end === t1 ? total : (total * BigInt(end - t0)) / span;
      row[c] = Number(upTo - (given[c] ?? 0n));
      given[c] = upTo;
    }
    buckets.set(start, row);
  }
  return { buckets, anomalies };
}

/** Adds b into a, channel by channel. */
export function addInto(a: number[], b: readonly number[]): void {
  for (let i = 0; i < b.length; i++) a[i] = (a[i] ?? 0) + (b[i] ?? 0);
}
