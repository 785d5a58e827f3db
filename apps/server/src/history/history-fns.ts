import type { Series } from '@meterportal/protocol';

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

/** Rows of one time column and value columns, in ascending time. */
export interface TimedColumns {
  tsSec: readonly number[];
  values: readonly Float64Array[];
}

/**
 * Rows folded into the periods that hold them (ascending `starts`, the same assignment rule as
 * sumIntoPeriods): per value column the sum, or the mean weighted by `weights` (rows that are
 * themselves averages of that many minutes). Periods no row fell into are left out.
 */
export function foldIntoPeriods(
  rows: TimedColumns,
  starts: readonly number[],
  how: 'sum' | { weights: readonly number[] },
): TimedColumns {
  const period: number[] = [];
  const first: number[] = [];
  let i = 0;
  let last = -1;
  rows.tsSec.forEach((t, r) => {
    while (i + 1 < starts.length && starts[i + 1]! <= t) i += 1;
    if (starts[i] === undefined || starts[i]! > t) return;
    if (i !== last) {
      period.push(starts[i]!);
      first.push(r);
      last = i;
    }
  });
  const ends = [...first.slice(1), rows.tsSec.length];
  const values = rows.values.map((col) =>
    Float64Array.from(first, (from, k) => {
      let sum = 0;
      let weight = 0;
      for (let r = from; r < ends[k]!; r++) {
        // An unmeasured row (NaN) leaves a mean alone; a period of none stays NaN (0 / 0).
        if (how !== 'sum' && Number.isNaN(col[r]!)) continue;
        const w = how === 'sum' ? 1 : how.weights[r]!;
        sum += how === 'sum' ? col[r]! : col[r]! * w;
        weight += w;
      }
      return how === 'sum' ? sum : sum / weight;
    }),
  );
  return { tsSec: period, values };
}
