// One-minute aggregation of live frames: average of every quantity and phase, plus min and max
// of the quantities whose charts draw an envelope. Works on flat arrays so 20k frames/s stay cheap.
import { LIVE_PHASE_QUANTITIES, type LiveFrame, type LivePhaseQuantity } from '@meterportal/protocol';

/** Minute length, seconds. */
export const MINUTE_SEC = 60;

const PHASES = ['L1', 'L2', 'L3'] as const;

// Angles and power factor have no useful envelope; voltages, currents, powers, distortion and
// frequency do (sags, peaks, worst distortion).
const WITH_MIN_MAX: ReadonlySet<string> = new Set<LivePhaseQuantity | 'F'>([
  'U',
  'I',
  'P',
  'Q',
  'S',
  'DF_U',
  'DF_I',
  'F',
]);

/** One aggregated channel: a quantity on one phase (or F), and whether min/max are kept. */
export interface MinuteChannel {
  /** Column stem, e.g. `u_l1` or `f`. */
  column: string;
  quantity: LivePhaseQuantity | 'F';
  phase: 'L1' | 'L2' | 'L3' | null;
  minMax: boolean;
}

/** Every aggregated channel, in a fixed order. */
export const MINUTE_CHANNELS: readonly MinuteChannel[] = [
  ...LIVE_PHASE_QUANTITIES.flatMap((q) =>
    PHASES.map((p) => ({
      column: `${q.toLowerCase()}_${p.toLowerCase()}`,
      quantity: q,
      phase: p,
      minMax: WITH_MIN_MAX.has(q),
    })),
  ),
  { column: 'f', quantity: 'F', phase: null, minMax: true },
];

/** Column names of the minute table for the channels, in MINUTE_CHANNELS order. */
export const MINUTE_VALUE_COLUMNS: readonly string[] = MINUTE_CHANNELS.flatMap((c) =>
  c.minMax ? [`${c.column}_avg`, `${c.column}_min`, `${c.column}_max`] : [`${c.column}_avg`],
);

/** Running sums of one device's minute. */
export interface MinuteBucket {
  minuteStartSec: number;
  samples: number;
  sum: Float64Array;
  min: Float64Array;
  max: Float64Array;
}

/** Starts an empty minute. */
export function newMinuteBucket(minuteStartSec: number): MinuteBucket {
  const n = MINUTE_CHANNELS.length;
  return {
    minuteStartSec,
    samples: 0,
    sum: new Float64Array(n),
    min: new Float64Array(n).fill(Number.POSITIVE_INFINITY),
    max: new Float64Array(n).fill(Number.NEGATIVE_INFINITY),
  };
}

/** Start of the minute holding tsSec. */
export function minuteStart(tsSec: number): number {
  return Math.floor(tsSec / MINUTE_SEC) * MINUTE_SEC;
}

/**
 * Channel values of a frame, in MINUTE_CHANNELS order; NaN where the device does not measure the
 * quantity or phase. NaN survives the running sums and the stored open minute, so a channel
 * without a measured value in its minute is stored as null.
 */
export function frameChannels(frame: Pick<LiveFrame, LivePhaseQuantity | 'F'>): number[] {
  return MINUTE_CHANNELS.map(
    (c) => (c.phase === null ? frame.F : frame[c.quantity as LivePhaseQuantity][c.phase]) ?? Number.NaN,
  );
}

/** Folds one sample (channel values) into the bucket. */
export function addSample(bucket: MinuteBucket, values: readonly number[]): void {
  bucket.samples++;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? 0;
    bucket.sum[i] = (bucket.sum[i] ?? 0) + v;
    if (v < (bucket.min[i] ?? v)) bucket.min[i] = v;
    if (v > (bucket.max[i] ?? v)) bucket.max[i] = v;
  }
}

/**
 * A finished minute: sample count and one value per column of MINUTE_VALUE_COLUMNS, null where
 * the device did not measure the channel in every frame of the minute.
 */
export interface MinuteAggregate {
  minuteStartSec: number;
  samples: number;
  values: (number | null)[];
}

const measured = (v: number | undefined): number | null => (v === undefined || Number.isNaN(v) ? null : v);

/** Averages, minima and maxima of a bucket with at least one sample. */
export function finishMinute(bucket: MinuteBucket): MinuteAggregate {
  if (bucket.samples === 0) throw new Error('empty minute');
  const values: (number | null)[] = [];
  MINUTE_CHANNELS.forEach((c, i) => {
    const avg = measured((bucket.sum[i] ?? 0) / bucket.samples);
    values.push(avg);
    if (c.minMax)
      values.push(avg === null ? null : (bucket.min[i] ?? 0), avg === null ? null : (bucket.max[i] ?? 0));
  });
  return { minuteStartSec: bucket.minuteStartSec, samples: bucket.samples, values };
}

/** Both values when measured, else null (a channel measured in one part only is not whole). */
const both = (
  a: number | null | undefined,
  b: number | null | undefined,
  f: (x: number, y: number) => number,
) => (a === null || a === undefined || b === null || b === undefined ? null : f(a, b));

/** Merges two aggregates of the same minute (a redelivered part after a restart, say). */
export function mergeMinutes(a: MinuteAggregate, b: MinuteAggregate): MinuteAggregate {
  const n = a.samples + b.samples;
  const values: (number | null)[] = [];
  let col = 0;
  for (const c of MINUTE_CHANNELS) {
    values.push(both(a.values[col], b.values[col], (x, y) => (x * a.samples + y * b.samples) / n));
    col++;
    if (c.minMax) {
      values.push(
        both(a.values[col], b.values[col], Math.min),
        both(a.values[col + 1], b.values[col + 1], Math.max),
      );
      col += 2;
    }
  }
  return { minuteStartSec: a.minuteStartSec, samples: n, values };
}

/**
 * A minute still open, as bytes: start, samples, then the sums, minima and maxima of every
 * channel as float64. Stored with the device's position in each commit, so the partial minute
 * of frames already acknowledged survives a restart exactly.
 */
export function encodeOpenMinute(bucket: MinuteBucket): Buffer {
  const n = MINUTE_CHANNELS.length;
  const out = new Float64Array(2 + 3 * n);
  out[0] = bucket.minuteStartSec;
  out[1] = bucket.samples;
  out.set(bucket.sum, 2);
  out.set(bucket.min, 2 + n);
  out.set(bucket.max, 2 + 2 * n);
  return Buffer.from(out.buffer);
}

/** The open minute stored by encodeOpenMinute, or null when the bytes are not one. */
export function decodeOpenMinute(bytes: Uint8Array | null): MinuteBucket | null {
  const n = MINUTE_CHANNELS.length;
  if (!bytes || bytes.byteLength !== (2 + 3 * n) * 8) return null;
  const all = new Float64Array(new Uint8Array(bytes).buffer);
  const samples = all[1] ?? 0;
  if (samples <= 0) return null;
  return {
    minuteStartSec: all[0] ?? 0,
    samples,
    sum: all.slice(2, 2 + n),
    min: all.slice(2 + n, 2 + 2 * n),
    max: all.slice(2 + 2 * n, 2 + 3 * n),
  };
}
