import type { EChartsCoreOption } from './echarts';
import { format3, type Point } from './series';

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
  /** Live charts redraw every second; animation would only blur them. */
  animate?: boolean;
  zoom?: boolean;
}

export const PHASE_COLORS: Record<string, string> = {
  L1: '#d4a106',
  L2: '#cf1322',
  L3: '#389e0d',
  SUM: '#1668dc',
  AVG: '#722ed1',
};

/** The next value up with two significant digits (3.2172 -> 3.3), for a tidy axis end. */
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

/** ECharts option for a time-based line, area or column chart, local time, 3-decimal tooltips. */
export function timeChartOption(input: TimeChartInput): EChartsCoreOption {
  const log = input.yAxisType === 'logarithmic';
  const unit = input.unit ? ` ${input.unit}` : '';
  // Columns are read against zero, so a column chart's value axis always includes it.
  const columns = input.series.some((s) => s.kind === 'bar');
  // Reference lines (MRK, RK) stay on screen even when every value lies below or above them.
  const lines = input.lines ?? [];
  const lineValues = lines.map((l) => l.value);
  const axisRange = lineValues.length
    ? {
        max: (v: { max: number }) => niceUp(Math.max(v.max, ...lineValues) * 1.05),
        min: (v: { min: number }) => (columns ? Math.min(0, niceDown(Math.min(v.min, ...lineValues))) : niceDown(Math.min(v.min, ...lineValues))),
      }
    : {};
  // The lines run across the whole time span of the data, their labels right of the plot.
  const times = input.series.flatMap((s) => s.points.map(([t]) => t));
  const span = times.length ? { from: Math.min(...times), to: Math.max(...times) } : null;
  return {
    animation: input.animate ?? true,
    grid: { left: 16, right: lines.length && span ? 120 : 24, top: 48, bottom: input.zoom ? 64 : 24, containLabel: true },
    legend: { top: 8, selected: input.selected },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => `${format3(typeof v === 'number' ? v : Number(v))}${unit}`,
      axisPointer: { label: { formatter: (p: { value: unknown }) => input.formatTime(Number(p.value)) } },
    },
    xAxis: { type: 'time', axisLabel: { hideOverlap: true } },
    yAxis: {
      type: log ? 'log' : 'value',
      name: input.unit,
      scale: !log && !columns,
      ...(log ? { logBase: 10 } : axisRange),
    },
    dataZoom: input.zoom ? [{ type: 'inside' }, { type: 'slider', bottom: 16, height: 20 }] : [],
    series: input.series.map((s, i) => ({
      name: s.name,
      type: s.kind === 'bar' ? 'bar' : 'line',
      showSymbol: s.kind !== 'bar' && s.points.length < 60,
      ...(s.kind === 'area' ? { areaStyle: { opacity: 0.08 } } : {}),
      ...(s.color ? { itemStyle: { color: s.color }, lineStyle: { color: s.color } } : {}),
      // A log axis cannot show zero or negative values: those points become gaps.
      data: log ? s.points.map(([t, v]) => [t, v > 0 ? v : null]) : s.points,
      ...(i === 0 && lines.length && span
        ? {
            markLine: {
              symbol: 'none',
              silent: true,
              data: lines.map((l) => [
                {
                  name: l.name,
                  coord: [span.from, l.value],
                  lineStyle: { color: l.color, width: 2, type: 'solid' },
                  label: { formatter: `${l.name}: ${format3(l.value)}${unit}`, position: 'end', color: l.color },
                },
                { coord: [span.to, l.value] },
              ]),
            },
          }
        : {}),
    })),
  };
}
