import { formatFixed, formatMachine } from '../i18n/format';

/**
 * Chart data helpers. The history calls answer with series whose element shape the seeds leave
 * open, so the reader accepts the usual encodings and yields [time ms, value] pairs.
 */

export type Point = [number, number];

/** Live window size (seed 000 section 9). */
export const REALTIME_WINDOW = 20;

/** Epoch seconds or milliseconds to milliseconds (values below 1e11 are seconds). */
export function toMs(ts: number): number {
  return ts < 1e11 ? ts * 1000 : ts;
}

function toTime(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return toMs(v);
  if (typeof v === 'string') {
    if (/^\d+(\.\d+)?$/.test(v)) return toMs(Number(v));
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

function toValue(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

const TIME_KEYS = ['ts', 'timestamp', 'time', 't', 'x'];
const VALUE_KEYS = ['value', 'v', 'val', 'y'];

/**
 * Reads a series: [[ts, v], ...], [{ts|timestamp|time, value|v}, ...], { ts: v, ... } or
 * { timestamps: [...], values: [...] }. Points are sorted by time; unreadable ones are skipped.
 */
export function normalizePoints(raw: unknown, divisor = 1): Point[] {
  const out: Point[] = [];
  const push = (t: unknown, v: unknown) => {
    const time = toTime(t);
    const value = toValue(v);
    if (time !== undefined && value !== undefined) out.push([time, value / divisor]);
  };
  if (Array.isArray(raw)) {
    for (const item of raw) {
      if (Array.isArray(item)) push(item[0], item[1]);
      else if (item && typeof item === 'object') {
        const o = item as Record<string, unknown>;
        const tk = TIME_KEYS.find((k) => k in o);
        const vk = VALUE_KEYS.find((k) => k in o);
        if (tk && vk) push(o[tk], o[vk]);
      }
    }
  } else if (raw && typeof raw === 'object') {
    const o = raw as Record<string, unknown>;
    const times = o.timestamps ?? o.ts ?? o.time;
    const values = o.values ?? o.value ?? o.data;
    if (Array.isArray(times) && Array.isArray(values)) {
      times.forEach((t, i) => push(t, values[i]));
    } else {
      for (const [k, v] of Object.entries(o)) push(k, v);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** Appends a point and keeps the last `size`: once more than 20 are shown the oldest shift out. */
export function pushWindow(points: readonly Point[], point: Point, size = REALTIME_WINDOW): Point[] {
  const next = [...points, point];
  return next.length > size ? next.slice(next.length - size) : next;
}

/** Sum and average over the phases present at each time (average = sum / phase count). */
export function sumAndAverage(phases: readonly Point[][]): { sum: Point[]; avg: Point[] } {
  const acc = new Map<number, { total: number; count: number }>();
  for (const series of phases) {
    for (const [t, v] of series) {
      const a = acc.get(t) ?? { total: 0, count: 0 };
      a.total += v;
      a.count += 1;
      acc.set(t, a);
    }
  }
  const times = [...acc.keys()].sort((a, b) => a - b);
  return {
    sum: times.map((t) => [t, acc.get(t)!.total]),
    avg: times.map((t) => [t, acc.get(t)!.total / acc.get(t)!.count]),
  };
}

export interface NamedSeries {
  name: string;
  points: readonly Point[];
}

/** Rows for tables and files: one time column and one column per series. */
export function toTable(series: readonly NamedSeries[]): { header: string[]; rows: (number | null)[][] } {
  const times = [...new Set(series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b);
  const lookups = series.map((s) => new Map(s.points));
  return {
    header: series.map((s) => s.name),
    rows: times.map((t) => [t, ...lookups.map((m) => m.get(t) ?? null)]),
  };
}

function csvCell(v: string): string {
  return /[",;\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * Machine-readable CSV in every language: a first line saying so (`note`), then the header, a key
 * column written by `formatKey` (ISO 8601 times, or plain numbers) and values with a dot decimal,
 * no grouping and 3 decimals.
 */
export function toCsv(
  series: readonly NamedSeries[],
  keyHeader: string,
  formatKey: (key: number) => string,
  note?: string,
): string {
  const { header, rows } = toTable(series);
  const lines = note ? [`# ${note}`] : [];
  lines.push([keyHeader, ...header].map(csvCell).join(','));
  for (const [t, ...values] of rows) {
    lines.push([csvCell(formatKey(t ?? 0)), ...values.map((v) => formatMachine(v))].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** Tooltip and table number format: 3 decimals in the user's language. */
export function format3(v: number | null | undefined): string {
  return formatFixed(v, 3);
}
