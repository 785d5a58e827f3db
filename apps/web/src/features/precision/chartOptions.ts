import type { EChartsCoreOption } from '../../charts/echarts';
import { format3 } from '../../charts/series';
import { formatAngle, formatFixed, formatNumber, withUnit } from '../../i18n/format';
import {
  RADIUS_MAX,
  RADIUS_MIN,
  angleAxisFor,
  arrowRotation,
  drawnRadius,
  type Phasor,
  type ZeroPosition,
} from './phasors';
import { SERIES_COLORS, seriesParts, type KeyedSeries, type SeriesKey } from './series';

/** Legend names of the six series and the legend's remembered visibility. */
interface Legend {
  names: Record<SeriesKey, string>;
  selected: Record<SeriesKey, boolean>;
  show: boolean;
}

function legendOption(legend: Legend, keys: readonly SeriesKey[]) {
  return {
    show: legend.show,
    top: 0,
    type: 'scroll' as const,
    selected: Object.fromEntries(keys.map((k) => [legend.names[k], legend.selected[k]])),
  };
}

export interface VectorInput {
  phasors: readonly Phasor[];
  legend: Legend;
  zeroPosition: ZeroPosition;
  clockwise: boolean;
}

/** Decades of the logarithmic radius, plus its end at 300. */
export const RADIUS_TICKS = [0.1, 1, 10, 100, 300] as const;

/**
 * Polar phasor diagram: each phasor a line from the centre (0.1 on the logarithmic radius) to its
 * magnitude at its angle, with an arrow head; voltages solid, currents dashed.
 */
export function vectorOption(input: VectorInput): EChartsCoreOption {
  const axis = angleAxisFor(input.zeroPosition, input.clockwise);
  return {
    animation: false,
    legend: legendOption(
      input.legend,
      input.phasors.map((p) => p.key),
    ),
    // Room outside the circle for the angle labels (margin 14 px plus "180°") down to a phone's width.
    polar: { radius: '70%', center: ['50%', '54%'] },
    tooltip: {
      trigger: 'item',
      formatter: (p: { seriesName: string; data: { phasor?: Phasor } }) => {
        const ph = p.data.phasor;
        if (!ph) return p.seriesName;
        const unit = seriesParts(ph.key).kind === 'U' ? 'V' : 'A';
        return `${p.seriesName}<br/>${withUnit(format3(ph.magnitude), unit)} ∠ ${formatAngle(ph.angleDeg, 3)}`;
      },
    },
    angleAxis: {
      type: 'value',
      min: 0,
      max: 360,
      interval: 45,
      startAngle: axis.startAngle,
      clockwise: axis.clockwise,
      // Clear of the radius labels, which run along the zero direction.
      axisLabel: { formatter: '{value}°', margin: 14 },
      splitLine: { show: true, lineStyle: { type: 'dotted' } },
    },
    radiusAxis: {
      type: 'log',
      logBase: 10,
      min: RADIUS_MIN,
      max: RADIUS_MAX,
      // 300 sits half a decade from 100 and 0.1 under the arrows' tails: both rings stay unnamed.
      axisLabel: {
        formatter: (v: number) => formatNumber(Number(v.toPrecision(3))),
        showMinLabel: false,
        showMaxLabel: false,
        hideOverlap: true,
      },
      splitLine: { show: true, lineStyle: { type: 'dashed', opacity: 0.6 } },
    },
    series: input.phasors.map((ph) => {
      const { kind } = seriesParts(ph.key);
      const color = SERIES_COLORS[ph.key];
      return {
        name: input.legend.names[ph.key],
        type: 'line',
        coordinateSystem: 'polar',
        color,
        lineStyle: { color, width: 2.5, type: kind === 'U' ? 'solid' : 'dashed' },
        itemStyle: { color },
        data: [
          { value: [RADIUS_MIN, ph.angleDeg], symbol: 'none', phasor: ph },
          {
            value: [drawnRadius(ph.magnitude), ph.angleDeg],
            symbol: 'arrow',
            symbolSize: 12,
            symbolRotate: arrowRotation(ph.angleDeg, axis),
            phasor: ph,
          },
        ],
      };
    }),
  };
}

export interface CommandChartInput {
  series: readonly KeyedSeries[];
  legend: Legend;
  zoom: boolean;
}

/**
 * What the command charts share: the legend of their series and, when zoomable, the zoom slider
 * under the plot, which the grid's bottom (`zoomedBottom` instead of `bottom`) leaves room for.
 */
function commandChartFrame(
  input: CommandChartInput,
  grid: { top: number; bottom: number; zoomedBottom: number },
) {
  return {
    animation: false,
    legend: legendOption(
      input.legend,
      input.series.map((s) => s.key),
    ),
    grid: {
      left: 16,
      right: 24,
      top: grid.top,
      bottom: input.zoom ? grid.zoomedBottom : grid.bottom,
      containLabel: true,
    },
    dataZoom: input.zoom
      ? [
          { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
          { type: 'slider', xAxisIndex: 0, bottom: 12, height: 20, filterMode: 'none' },
        ]
      : [],
  };
}

/** How the harmonic spectrum is drawn. */
export interface HarmonicsView {
  /** Logarithmic value axis, so that orders of 0.1 % stand beside the fundamental's 100 %. */
  log: boolean;
  /** Leaves out order 1 and lets the axis fit orders 2..N. */
  hideFundamental: boolean;
}

/**
 * Column chart of harmonic orders: 1..N on 0 to 100 %, or 2..N without the fundamental, on a
 * linear or logarithmic axis.
 */
export function harmonicsOption(
  input: CommandChartInput & { orders: number } & Partial<HarmonicsView>,
): EChartsCoreOption {
  const first = input.hideFundamental ? 2 : 1;
  const log = input.log ?? false;
  const values = input.series.flatMap((s) => s.points.filter(([o]) => o >= first).map(([, v]) => v));
  const positive = values.filter((v) => v > 0);
  const yAxis = log
    ? {
        type: 'log',
        logBase: 10,
        min: positive.length ? 10 ** Math.floor(Math.log10(Math.min(...positive))) : 0.01,
        max: input.hideFundamental ? 10 ** Math.ceil(Math.log10(Math.max(1e-9, ...positive))) : 100,
      }
    : input.hideFundamental
      ? { type: 'value', min: 0 }
      : { type: 'value', min: 0, max: 100 };
  return {
    ...commandChartFrame(input, { top: 48, bottom: 24, zoomedBottom: 56 }),
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v: unknown) => withUnit(formatFixed(typeof v === 'number' ? v : Number(v)), '%'),
    },
    xAxis: {
      type: 'category',
      data: Array.from({ length: Math.max(0, input.orders - first + 1) }, (_v, i) => String(i + first)),
    },
    yAxis: { ...yAxis, name: '%', axisLabel: { formatter: (v: number) => formatNumber(v) } },
    series: input.series.map((s) => ({
      name: input.legend.names[s.key],
      type: 'bar',
      color: SERIES_COLORS[s.key],
      data: s.points.filter(([o]) => o >= first).map(([, v]) => (log && v <= 0 ? null : v)),
    })),
  };
}

/** Smooth lines over one period: currents on the A axis (left), voltages on the V axis (right). */
export function waveformOption(
  input: CommandChartInput & { currentAxis: string; voltageAxis: string; timeAxis: string },
): EChartsCoreOption {
  const lastMs = Math.max(0, ...input.series.map((s) => s.points.at(-1)?.[0] ?? 0));
  return {
    ...commandChartFrame(input, { top: 56, bottom: 36, zoomedBottom: 72 }),
    tooltip: {
      trigger: 'axis',
      axisPointer: {
        label: { formatter: (p: { value: unknown }) => withUnit(format3(Number(p.value)), 'ms') },
      },
    },
    xAxis: {
      type: 'value',
      min: 0,
      max: lastMs,
      name: input.timeAxis,
      nameLocation: 'middle',
      nameGap: 28,
      // At the bottom, not through the current axis' zero where it would meet the voltage labels.
      axisLine: { onZero: false },
      axisLabel: { formatter: (v: number) => formatNumber(v, 1) },
    },
    yAxis: [
      {
        type: 'value',
        name: input.currentAxis,
        position: 'left',
        splitLine: { show: false },
        axisLabel: { formatter: (v: number) => formatNumber(v) },
      },
      {
        type: 'value',
        name: input.voltageAxis,
        position: 'right',
        axisLabel: { formatter: (v: number) => formatNumber(v) },
      },
    ],
    series: input.series.map((s) => {
      const voltage = seriesParts(s.key).kind === 'U';
      return {
        name: input.legend.names[s.key],
        type: 'line',
        smooth: true,
        showSymbol: false,
        yAxisIndex: voltage ? 1 : 0,
        color: SERIES_COLORS[s.key],
        lineStyle: { width: 2, type: voltage ? 'solid' : 'dashed' },
        tooltip: { valueFormatter: (v: unknown) => `${format3(Number(v))} ${voltage ? 'V' : 'A'}` },
        data: s.points,
      };
    }),
  };
}
