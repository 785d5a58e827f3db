import { browserZone, inZone } from '../features/telemetry/zone';
import { zoneTicks } from '../features/telemetry/zoneTicks';
import { formatFixed, formatNumber, withUnit } from '../i18n/format';
import type { EChartsCoreOption } from './echarts';
import type { Point } from './series';

export interface ChartSeries {
  /** Legend name, also the key of the visibility map. */
  name: string;
  points: readonly Point[];
  kind: 'line' | 'area' | 'bar';
  color?: string;
}

export interface ChartLine {
  name: string;
  value: number;
  color: string;
  /** A mark only (the month's peak): columns above it keep their colour. */
  markOnly?: boolean;
}

/** How a quantity's value axis may be scaled (see `valueAxisBounds`). */
export interface AxisRule {
  /** Smallest span the axis shows, so that noise is not blown up to full height. */
  minSpan?: number;
  /** Physical limits the axis never passes (power factor: -1 to 1). */
  floor?: number;
  ceiling?: number;
}

/** A shaded band behind the series (an expected range per time), drawn as two stacked lines. */
export interface ChartBand {
  /** Legend name. */
  name: string;
  /** [time ms, low, high]. */
  points: readonly (readonly [number, number, number])[];
  color: string;
}

/** Category x axis of fixed buckets (the twelve months of a year), instead of a time axis. */
export interface ChartBuckets {
  times: readonly number[];
  label: (ms: number) => string;
}

export interface TimeChartInput {
  series: readonly ChartSeries[];
  unit: string;
  yAxisType: 'linear' | 'logarithmic';
  /** Legend visibility by series name. */
  selected: Record<string, boolean>;
  /** Horizontal reference lines (MRK, RK). */
  lines?: readonly ChartLine[];
  formatTime: (ms: number) => string;
  /** Zone of the time axis labels; the browser's when not given. */
  zone?: string;
  /** Live charts redraw every second; animation would only blur them. */
  animate?: boolean;
  zoom?: boolean;
  axisRule?: AxisRule;
  buckets?: ChartBuckets;
  /** Columns above a line take that line's colour (quarter-hours above MRK or RK). */
  highlightAbove?: boolean;
  /** Points from this time on belong to an interval not yet over: drawn pale and labelled. */
  partial?: { from: number; label: string };
  /** A shaded band behind the series (the expected consumption of an anomaly model). */
  band?: ChartBand;
}

export const PHASE_COLORS: Record<string, string> = {
  L1: '#d4a106',
  L2: '#cf1322',
  L3: '#389e0d',
  SUM: '#1668dc',
  AVG: '#722ed1',
};

/** The next value up with two significant digits (3.2172 -> 3.3), for a tidy log axis end. */
export function niceUp(v: number): number {
  if (v <= 0) return v === 0 ? 0 : -niceDown(-v);
  const step = 10 ** (Math.floor(Math.log10(v)) - 1);
  return Number((Math.ceil(v / step - 1e-9) * step).toPrecision(12));
}

/** The next value down with two significant digits (0.6349 -> 0.63). */
export function niceDown(v: number): number {
  if (v <= 0) return v === 0 ? 0 : -niceUp(-v);
  const step = 10 ** (Math.floor(Math.log10(v)) - 1);
  return Number((Math.floor(v / step + 1e-9) * step).toPrecision(12));
}

/** A time axis label formatter: the tick's instant and the units ECharts suggests for it. */
export type AxisTimeFormatter = (
  ms: number,
  index: number,
  extra?: { time?: { lowerTimeUnit?: string; upperTimeUnit?: string } },
) => string;

const DATE_UNITS = new Set(['day', 'week', 'half-month', 'month', 'quarter', 'half-year', 'year']);

/**
 * Time axis labels in a zone (ECharts places and labels ticks in the browser's zone): times of
 * day on a chart of a day or two, with the date at the zone's midnight; dates on longer charts;
 * months and years on coarser ticks.
 */
export function axisTimeFormatter(tz: string, spanMs = 0): AxisTimeFormatter {
  return (ms, _index, extra) => {
    const z = inZone(ms, tz);
    const midnight = z.hour() === 0 && z.minute() === 0 && z.second() === 0;
    // Ticks placed in the zone come without ECharts' unit: a month start on a long chart is a month.
    const unit =
      extra?.time?.lowerTimeUnit ??
      (midnight && z.date() === 1 && spanMs > 62 * 86_400_000 ? 'month' : 'hour');
    if (unit === 'year') return z.format('YYYY');
    if (unit === 'month' || unit === 'quarter' || unit === 'half-year')
      return z.format(z.month() === 0 ? 'YYYY' : 'MMM');
    if (spanMs <= 2 * 86_400_000)
      return midnight ? z.format('D.M.') : z.format(z.second() === 0 ? 'HH:mm' : 'HH:mm:ss');
    return DATE_UNITS.has(unit) || midnight ? z.format('D.M.') : z.format('D.M. HH:mm');
  };
}

export interface AxisBoundsInput {
  values: readonly number[];
  log: boolean;
  /** Column charts read against zero. */
  columns: boolean;
  /** Reference line values that must stay on screen. */
  lines?: readonly number[];
  rule?: AxisRule;
}

/**
 * Value axis ends chosen from the data. A logarithmic axis hugs the positive values (2 % margin),
 * so 228 to 232 V does not sit flat on a 100 to 1000 V axis; a linear axis keeps zero under
 * columns, keeps reference lines in view and spans at least the rule's minimum. Undefined ends
 * are left to the chart.
 */
export function valueAxisBounds(input: AxisBoundsInput): { min?: number; max?: number } {
  const lines = input.lines ?? [];
  if (input.log) {
    const positive = [...input.values, ...lines].filter((v) => v > 0);
    if (!positive.length) return {};
    return { min: niceDown(Math.min(...positive) / 1.02), max: niceUp(Math.max(...positive) * 1.02) };
  }
  const all = [...input.values, ...lines];
  if (!all.length) return {};
  const rule = input.rule ?? {};
  let lo = Math.min(...all);
  // A line's label sits on the line: a little room above the highest one.
  let hi = lines.length ? Math.max(...input.values, ...lines.map((l) => l * 1.05)) : Math.max(...all);
  if (input.columns) {
    lo = Math.min(0, lo);
    hi = Math.max(0, hi);
  }
  const span = rule.minSpan ?? 0;
  if (hi - lo < span) {
    const mid = (hi + lo) / 2;
    lo = mid - span / 2;
    hi = mid + span / 2;
    // Slide the window inside the physical limits rather than cutting it.
    if (rule.ceiling !== undefined && hi > rule.ceiling) {
      lo -= hi - rule.ceiling;
      hi = rule.ceiling;
    }
    if (rule.floor !== undefined && lo < rule.floor) {
      hi += rule.floor - lo;
      lo = rule.floor;
    }
  } else if (!lines.length) {
    // Wide enough already, and nothing to keep in view: the chart picks tidy ends itself.
    return {};
  }
  if (hi <= lo) return {};
  // Ends on a tidy tick step (1, 2 or 5 times a power of ten), about five steps apart, so the
  // end labels do not crowd their neighbours.
  const raw = (hi - lo) / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((st) => st >= raw - 1e-12) ?? 10 * mag;
  const round = (v: number) => Number(v.toPrecision(12));
  return {
    min: round(Math.max(rule.floor ?? -Infinity, Math.floor(lo / step + 1e-9) * step)),
    max: round(Math.min(rule.ceiling ?? Infinity, Math.ceil(hi / step - 1e-9) * step)),
  };
}

/** The highest point of the given series: value, time and series name (null when empty). */
export function periodMaximum(
  series: readonly Pick<ChartSeries, 'name' | 'points'>[],
): { name: string; t: number; v: number } | null {
  let best: { name: string; t: number; v: number } | null = null;
  for (const s of series)
    for (const [t, v] of s.points) if (!best || v > best.v) best = { name: s.name, t, v };
  return best;
}

/** The colour of the highest line a value exceeds, if any. */
export function exceededColor(v: number, lines: readonly ChartLine[]): string | undefined {
  const above = lines.filter((l) => !l.markOnly && v > l.value).sort((a, b) => b.value - a.value);
  return above[0]?.color;
}

/** ECharts option for a time-based line, area or column chart, local time, 3-decimal tooltips. */
export function timeChartOption(input: TimeChartInput): EChartsCoreOption {
  const log = input.yAxisType === 'logarithmic';
  const unit = input.unit;
  // Columns are read against zero, so a column chart's value axis always includes it.
  const columns = input.series.some((s) => s.kind === 'bar');
  // Reference lines (MRK, RK) stay on screen even when every value lies below or above them.
  const lines = input.lines ?? [];
  const visible = input.series.filter((s) => input.selected[s.name] !== false);
  const bounds = valueAxisBounds({
    values: visible.flatMap((s) => s.points.map(([, v]) => v)),
    log,
    columns,
    lines: lines.map((l) => l.value),
    ...(input.axisRule ? { rule: input.axisRule } : {}),
  });
  // The lines run across the whole time span of the data, their labels right of the plot.
  const times = input.series.flatMap((s) => s.points.map(([t]) => t));
  const span = times.length ? { from: Math.min(...times), to: Math.max(...times) } : null;
  const spanMs = span ? span.to - span.from : 0;
  const zone = input.zone ?? browserZone();
  // Ticks on the zone's hours and midnights, not on the browser's.
  const ticks = span && !input.buckets ? zoneTicks(span.from, span.to, zone) : [];
  const buckets = input.buckets;
  const bucketIndex = new Map(buckets?.times.map((t, i) => [t, i]));

  const point = (s: ChartSeries, [t, v]: Point) => {
    const value = log && v <= 0 ? null : v;
    const at = buckets ? (bucketIndex.get(t) ?? null) : t;
    const style: Record<string, unknown> = {};
    const over = input.highlightAbove && value !== null ? exceededColor(v, lines) : undefined;
    if (over) style.color = over;
    const partial = input.partial && t >= input.partial.from;
    if (partial) {
      style.opacity = 0.45;
      style.borderType = 'dashed';
      style.borderColor = over ?? s.color ?? '#1668dc';
      style.borderWidth = 1;
    }
    const item: Record<string, unknown> = { value: [at, value] };
    if (Object.keys(style).length) item.itemStyle = style;
    if (partial && input.partial)
      item.label = { show: true, position: 'top', formatter: input.partial.label, fontSize: 11 };
    return buckets && at === null ? null : item;
  };

  const lineEnds = (value: number) =>
    buckets
      ? [
          [0, value],
          [Math.max(0, buckets.times.length - 1), value],
        ]
      : span
        ? [
            [span.from, value],
            [span.to, value],
          ]
        : null;

  return {
    animation: input.animate ?? true,
    grid: {
      left: 16,
      right: lines.length && span ? 120 : 24,
      top: 48,
      bottom: input.zoom ? 64 : 24,
      containLabel: true,
    },
    legend: { top: 8, selected: input.selected },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => withUnit(formatFixed(typeof v === 'number' ? v : Number(v)), unit),
      axisPointer: {
        label: {
          formatter: (p: { value: unknown }) =>
            buckets ? buckets.label(buckets.times[Number(p.value)] ?? 0) : input.formatTime(Number(p.value)),
        },
      },
    },
    xAxis: buckets
      ? {
          type: 'category',
          data: buckets.times.map((t) => buckets.label(t)),
          axisLabel: { interval: 0, hideOverlap: true },
        }
      : {
          type: 'time',
          axisLabel: {
            hideOverlap: true,
            formatter: axisTimeFormatter(zone, spanMs),
            ...(ticks.length ? { customValues: ticks } : {}),
          },
          ...(ticks.length ? { axisTick: { customValues: ticks } } : {}),
        },
    yAxis: {
      type: log ? 'log' : 'value',
      name: unit,
      scale: !log && !columns,
      ...(log ? { logBase: 10 } : {}),
      ...bounds,
      axisLabel: { formatter: (v: number) => formatNumber(log ? Number(v.toPrecision(3)) : v) },
    },
    dataZoom: input.zoom ? [{ type: 'inside' }, { type: 'slider', bottom: 16, height: 20 }] : [],
    series: [
      ...bandSeries(input.band, unit),
      ...input.series.map((s, i) => {
        const ends = lines.map((l) => ({ l, ends: lineEnds(l.value) }));
        return {
          name: s.name,
          type: s.kind === 'bar' ? 'bar' : 'line',
          showSymbol: s.kind !== 'bar' && s.points.length < 60,
          ...(s.kind === 'area' ? { areaStyle: { opacity: 0.08 } } : {}),
          ...(s.color ? { itemStyle: { color: s.color }, lineStyle: { color: s.color } } : {}),
          // A log axis cannot show zero or negative values: those points become gaps.
          data: s.points.map((p) => point(s, p)).filter((p) => p !== null),
          ...(i === 0 && lines.length && (span || buckets)
            ? {
                markLine: {
                  symbol: 'none',
                  silent: true,
                  data: ends.flatMap(({ l, ends: e }) =>
                    e
                      ? [
                          [
                            {
                              name: l.name,
                              coord: e[0],
                              lineStyle: { color: l.color, width: 2, type: 'solid' },
                              label: {
                                formatter: `${l.name}: ${withUnit(formatNumber(l.value), unit)}`,
                                position: 'end',
                                color: l.color,
                              },
                            },
                            { coord: e[1] },
                          ],
                        ]
                      : [],
                  ),
                },
              }
            : {}),
        };
      }),
    ],
  };
}

/**
 * The band as two lines stacked on each other: an invisible lower edge and the band's width filled
 * above it, both under one legend name. The tooltip shows the band's ends, not its width.
 */
function bandSeries(band: ChartBand | undefined, unit: string): Record<string, unknown>[] {
  if (!band || band.points.length === 0) return [];
  const common = {
    name: band.name,
    type: 'line',
    stack: `band:${band.name}`,
    symbol: 'none',
    silent: true,
    z: 0,
    lineStyle: { opacity: 0 },
    itemStyle: { color: band.color },
  };
  const ends = new Map(band.points.map(([t, lo, hi]) => [t, [lo, hi] as const]));
  return [
    { ...common, data: band.points.map(([t, lo]) => [t, lo]), tooltip: { show: false } },
    {
      ...common,
      areaStyle: { color: band.color, opacity: 0.25 },
      data: band.points.map(([t, lo, hi]) => [t, hi - lo]),
      tooltip: {
        valueFormatter: (_v: unknown, i: number) => {
          const e = ends.get(band.points[i]?.[0] ?? NaN);
          return e ? `${formatFixed(e[0])} – ${withUnit(formatFixed(e[1]), unit)}` : '-';
        },
      },
    },
  ];
}
