import type { Series } from '@meterportal/protocol';

/** Sum (or average) over phases per instant; phases missing at an instant are skipped. */
export function combinePhases(phases: Series[], mode: 'sum' | 'avg'): Series {
  const acc = new Map<number, { sum: number; n: number }>();
  for (const s of phases) {
    for (const [t, v] of s) {
      const a = acc.get(t) ?? { sum: 0, n: 0 };
      a.sum += v;
      a.n += 1;
      acc.set(t, a);
    }
  }
  return [...acc.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([t, a]) => [t, mode === 'sum' ? a.sum : a.sum / a.n]);
}

/** Averages consecutive points into buckets of bucketMs (aligned on the epoch); 1 bucket keeps all. */
export function downsample(series: Series, bucketMs: number): Series {
  if (bucketMs <= 60_000) return series;
  const out: Series = [];
  let key = Number.NaN;
  let sum = 0;
  let n = 0;
  for (const [t, v] of series) {
    const k = t - (t % bucketMs);
    if (k !== key) {
      if (n > 0) out.push([key, sum / n]);
      key = k;
      sum = 0;
      n = 0;
    }
    sum += v;
    n += 1;
  }
  if (n > 0) out.push([key, sum / n]);
  return out;
}

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
