import { describe, expect, it } from 'vitest';
import { harmonicsOption, vectorOption, waveformOption } from './chartOptions';
import { SERIES_KEYS, type KeyedSeries, type SeriesKey } from './series';

const names = Object.fromEntries(SERIES_KEYS.map((k) => [k, `name ${k}`])) as Record<SeriesKey, string>;
const selected = Object.fromEntries(SERIES_KEYS.map((k) => [k, k !== 'L2_I'])) as Record<SeriesKey, boolean>;
const legend = { names, selected, show: true };

type Series = {
  name: string;
  lineStyle?: { type: string };
  yAxisIndex?: number;
  data: unknown[];
};
type Opt = {
  legend: { show: boolean; selected: Record<string, boolean> };
  angleAxis: Record<string, unknown>;
  radiusAxis: Record<string, unknown>;
  xAxis: { data?: string[]; max?: number };
  yAxis: Record<string, unknown> | Record<string, unknown>[];
  dataZoom: unknown[];
  series: Series[];
};

describe('vector diagram option', () => {
  const phasors = SERIES_KEYS.map((key, i) => ({
    key,
    magnitude: key.endsWith('U') ? 230 : 0.01,
    angleDeg: i * 60,
  }));
  const opt = vectorOption({ phasors, legend, zeroPosition: 90, clockwise: false }) as unknown as Opt;

  it('covers 0 to 360 degrees with ticks every 45 on a logarithmic 0.1 to 300 radius', () => {
    expect(opt.angleAxis).toMatchObject({ min: 0, max: 360, interval: 45, startAngle: 0, clockwise: false });
    expect(opt.radiusAxis).toMatchObject({ type: 'log', logBase: 10, min: 0.1, max: 300 });
  });

  it('draws voltages solid and currents dashed, from the centre to the clamped magnitude', () => {
    expect(opt.series.map((s) => s.lineStyle?.type)).toEqual([
      'solid',
      'dashed',
      'solid',
      'dashed',
      'solid',
      'dashed',
    ]);
    const [centre, tip] = opt.series[1]!.data as { value: [number, number] }[];
    expect(centre!.value).toEqual([0.1, 60]);
    expect(tip!.value).toEqual([0.1, 60]);
    expect((opt.series[0]!.data[1] as { value: number[] }).value).toEqual([230, 0]);
  });

  it('names series for the legend and applies the remembered visibility', () => {
    expect(opt.series[3]!.name).toBe('name L2_I');
    expect(opt.legend.selected['name L2_I']).toBe(false);
    expect(opt.legend.selected['name L1_U']).toBe(true);
    const hidden = vectorOption({
      phasors,
      legend: { ...legend, show: false },
      zeroPosition: 0,
      clockwise: true,
    }) as unknown as Opt;
    expect(hidden.legend.show).toBe(false);
    expect(hidden.angleAxis).toMatchObject({ startAngle: 90, clockwise: true });
  });
});

const series: KeyedSeries[] = SERIES_KEYS.map((key) => ({
  key,
  points: [
    [1, 100],
    [2, 3],
    [3, 1],
  ],
}));

describe('harmonics option', () => {
  it('has x labels from 1, a 0 to 100 % axis and columns of the six series', () => {
    const opt = harmonicsOption({ series, legend, zoom: true, orders: 3 }) as unknown as Opt;
    expect(opt.xAxis.data).toEqual(['1', '2', '3']);
    expect(opt.yAxis).toMatchObject({ min: 0, max: 100, name: '%' });
    expect(opt.series).toHaveLength(6);
    expect(opt.series[0]!.data).toEqual([100, 3, 1]);
    expect(opt.dataZoom).toHaveLength(2);
  });

  it('has no zoom below permission level 2', () => {
    const opt = harmonicsOption({ series, legend, zoom: false, orders: 3 }) as unknown as Opt;
    expect(opt.dataZoom).toEqual([]);
  });
});

describe('waveform option', () => {
  it('puts currents on the A axis and voltages on the V axis, up to the last sample', () => {
    const opt = waveformOption({
      series,
      legend,
      zoom: true,
      currentAxis: 'Current (A)',
      voltageAxis: 'Voltage (V)',
      timeAxis: 'Time (ms)',
    }) as unknown as Opt;
    expect((opt.yAxis as Record<string, unknown>[]).map((a) => a.name)).toEqual([
      'Current (A)',
      'Voltage (V)',
    ]);
    expect(opt.series.map((s) => s.yAxisIndex)).toEqual([1, 0, 1, 0, 1, 0]);
    expect(opt.xAxis.max).toBe(3);
  });
});

describe('harmonics views', () => {
  const series: KeyedSeries[] = SERIES_KEYS.map((key) => ({
    key,
    points: [
      [1, 100],
      [2, 0.5],
      [3, 3],
      [4, 0],
    ],
  }));
  type H = {
    xAxis: { data: string[] };
    yAxis: Record<string, unknown>;
    series: { data: (number | null)[] }[];
  };

  it('offers a logarithmic axis from the smallest decade to 100 %, zeros left out', () => {
    const opt = harmonicsOption({ series, orders: 4, legend, zoom: false, log: true }) as unknown as H;
    expect(opt.yAxis).toMatchObject({ type: 'log', min: 0.1, max: 100 });
    expect(opt.series[0]!.data).toEqual([100, 0.5, 3, null]);
  });

  it('hides the fundamental and lets the axis fit orders 2 and up', () => {
    const opt = harmonicsOption({
      series,
      orders: 4,
      legend,
      zoom: false,
      hideFundamental: true,
    }) as unknown as H;
    expect(opt.xAxis.data).toEqual(['2', '3', '4']);
    expect(opt.series[0]!.data).toEqual([0.5, 3, 0]);
    expect(opt.yAxis.max).toBeUndefined();
  });

  it('keeps the seed linear 0 to 100 % axis by default', () => {
    const opt = harmonicsOption({ series, orders: 4, legend, zoom: false }) as unknown as H;
    expect(opt.yAxis).toMatchObject({ type: 'value', min: 0, max: 100 });
  });

  it('names the radius rings without the crowded outer 300 and the 0.1 under the tails', () => {
    const phasors = SERIES_KEYS.map((key) => ({ key, magnitude: 1, angleDeg: 0 }));
    const opt = vectorOption({ phasors, legend, zeroPosition: 0, clockwise: true }) as unknown as {
      radiusAxis: { axisLabel: { showMaxLabel: boolean; hideOverlap: boolean } };
    };
    expect(opt.radiusAxis.axisLabel).toMatchObject({
      showMinLabel: false,
      showMaxLabel: false,
      hideOverlap: true,
    });
  });
});
