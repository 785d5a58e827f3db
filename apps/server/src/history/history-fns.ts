import type { Series } from '@meterportal/protocol';

/** Bucket width that keeps a profile near maxPoints points: whole minutes, at least one. */
export function profileBucketMs(spanSec: number, maxPoints = 2880): number {
  return Math.max(1, Math.ceil(spanSec / 60 / maxPoints)) * 60_000;
}

/**
 * Adds bucket values into the periods that hold them. `starts` are ascending period starts; a
 * bucket belongs to the last start at or before it. Periods no bucket fell into are left out.
 */
export function sumIntoPeriods(buckets: { tsSec: number; value: number }[], starts: number[]): Series {
  const sums = new Map<number, number>();
  let i = 0;
  for (const b of buckets) {
    while (i + 1 < starts.length && starts[i + 1]! <= b.tsSec) i += 1;
    if (starts[i] === undefined || starts[i]! > b.tsSec) continue;
    sums.set(starts[i]!, (sums.get(starts[i]!) ?? 0) + b.value);
  }
  return [...sums.entries()].sort((a, b) => a[0] - b[0]).map(([t, v]) => [t * 1000, v]);
}

/** The largest value per period, with the same assignment rule as sumIntoPeriods. */
export function maxIntoPeriods(buckets: { tsSec: number; value: number }[], starts: number[]): Series {
  const max = new Map<number, number>();
  let i = 0;
  for (const b of buckets) {
    while (i + 1 < starts.length && starts[i + 1]! <= b.tsSec) i += 1;
    if (starts[i] === undefined || starts[i]! > b.tsSec) continue;
    max.set(starts[i]!, Math.max(max.get(starts[i]!) ?? Number.NEGATIVE_INFINITY, b.value));
  }
  return [...max.entries()].sort((a, b) => a[0] - b[0]).map(([t, v]) => [t * 1000, v]);
}

/** Average active power of a quarter hour in kW from its energy in Wh. */
export function quarterKw(energyWh: number): number {
  return (energyWh * 4) / 1000;
}

/** Buckets of ascending times: each bucket's start time and the index of its first time. */
export interface Buckets {
  times: Float64Array;
  /** first[b] is the first index of bucket b; first[times.length] is the end. */
  first: Int32Array;
}

/** The buckets of bucketMs (aligned on the epoch) that ascending times fall into. */
export function bucketsOf(times: Float64Array, bucketMs: number): Buckets {
  const starts: number[] = [];
  const first: number[] = [];
  let key = Number.NaN;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    const k = t - (t % bucketMs);
    if (k !== key) {
      starts.push(k);
      first.push(i);
      key = k;
    }
  }
  first.push(times.length);
  return { times: Float64Array.from(starts), first: Int32Array.from(first) };
}

/** The average of values within each bucket, for values aligned with the bucketed times. */
export function averageIn(b: Buckets, values: Float64Array): Float64Array {
  const out = new Float64Array(b.times.length);
  for (let k = 0; k < out.length; k++) {
    const from = b.first[k]!;
    const to = b.first[k + 1]!;
    let sum = 0;
    for (let i = from; i < to; i++) sum += values[i]!;
    out[k] = sum / (to - from);
  }
  return out;
}
