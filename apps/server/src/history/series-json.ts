// A day profile of every quantity is about 60,000 [time, value] points. Building a two-element
// array per point only to have JSON.stringify take it apart again is most of the cost of the
// answer, so profile series are kept as two columns and written straight to JSON text, with
// exactly the bytes JSON.stringify would give the [time, value] pairs.
import type { Series } from '@meterportal/protocol';

/** A series held as a column of times (ms) and a column of values; JSON is the usual pairs. */
export class ColumnSeries {
  constructor(
    readonly times: readonly number[],
    readonly values: readonly number[],
  ) {
    if (times.length !== values.length) throw new Error('times and values differ in length');
  }

  get length(): number {
    return this.values.length;
  }

  /** The [time, value] pairs (what any JSON.stringify of it writes). */
  toJSON(): Series {
    const out: Series = new Array<[number, number]>(this.values.length);
    for (let i = 0; i < out.length; i++) out[i] = [this.times[i]!, this.values[i]!];
    return out;
  }
}

// "[<time>," for each time of a column, shared by every series over the same times.
const prefixCache = new WeakMap<readonly number[], string[]>();
function prefixes(times: readonly number[]): string[] {
  let p = prefixCache.get(times);
  if (!p) {
    p = times.map((t) => `[${JSON.stringify(t)},`);
    prefixCache.set(times, p);
  }
  return p;
}

function columnJson(s: ColumnSeries): string {
  const n = s.values.length;
  if (n === 0) return '[]';
  // The engine's own number formatting, once for the whole column: "[v0,v1,...]".
  const text = JSON.stringify(s.values);
  const pre = prefixes(s.times);
  const parts = new Array<string>(n);
  let pos = 1;
  for (let i = 0; i < n; i++) {
    const end = i === n - 1 ? text.length - 1 : text.indexOf(',', pos);
    parts[i] = `${pre[i]!}${text.slice(pos, end)}]`;
    pos = end + 1;
  }
  return `[${parts.join(',')}]`;
}

/**
 * JSON text of a value that may hold ColumnSeries anywhere in plain objects; the same text as
 * JSON.stringify(value) (keys in insertion order, undefined members left out).
 */
export function seriesJson(value: unknown): string {
  if (value instanceof ColumnSeries) return columnJson(value);
  if (
    value === null ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    Object.getPrototypeOf(value) !== Object.prototype ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    return JSON.stringify(value) ?? 'null';
  }
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    parts.push(`${JSON.stringify(k)}:${seriesJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}
