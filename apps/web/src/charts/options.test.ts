import { describe, expect, it } from 'vitest';
import { exceededColor, niceDown, niceUp, periodMaximum, timeChartOption, valueAxisBounds } from './options';

const base = {
  series: [
    {
      name: 'Import',
      kind: 'bar' as const,
      points: [
        [0, 4],
        [900_000, 10],
      ] as [number, number][],
      color: '#1668dc',
    },
  ],
  unit: 'kW',
  yAxisType: 'linear' as const,
  selected: {},
  formatTime: (ms: number) => String(ms),
};

type Opt = {
  grid: { right: number };
  xAxis: { type: string; data?: string[]; axisLabel: { formatter?: (v: number) => string } };
  yAxis: { min?: number; max?: number; scale: boolean; axisLabel: { formatter: (v: number) => string } };
  tooltip: { valueFormatter: (v: unknown) => string };
  series: {
    data: {
      value: [number | null, number | null];
      itemStyle?: Record<string, unknown>;
      label?: { formatter: string };
    }[];
    markLine: {
      data: [{ coord: number[]; label: { position: string; formatter: string } }, { coord: number[] }][];
    };
  }[];
};

describe('timeChartOption', () => {
  it('stretches the axis so MRK and RK lines above all values stay visible, from zero', () => {
    const option = timeChartOption({
      ...base,
      lines: [
        { name: 'MRK', value: 50, color: '#eb2f96' },
        { name: 'RK', value: 40, color: '#fa8c16' },
      ],
    }) as unknown as Opt;
    // 50 kW plus room for the label, up to the next tick step of 20.
    expect(option.yAxis.max).toBe(60);
    expect(option.yAxis.min).toBe(0);
  });

  it('keeps zero on a column chart and lets a line chart fit its data', () => {
    const columns = timeChartOption(base) as unknown as Opt;
    expect(columns.yAxis.scale).toBe(false);
    const line = timeChartOption({
      ...base,
      series: [{ ...base.series[0]!, kind: 'line' }],
    }) as unknown as Opt;
    expect(line.yAxis.scale).toBe(true);
  });

  it('draws MRK and RK across the whole time span with their labels outside the plot', () => {
    const option = timeChartOption({
      ...base,
      lines: [{ name: 'MRK', value: 1.5, color: '#eb2f96' }],
    }) as unknown as Opt;
    const [start, end] = option.series[0]!.markLine.data[0]!;
    expect(start.coord).toEqual([0, 1.5]);
    expect(end.coord).toEqual([900_000, 1.5]);
    expect(start.label).toMatchObject({ position: 'end', formatter: 'MRK: 1.5 kW' });
    expect(option.grid.right).toBeGreaterThanOrEqual(100);
  });

  it('rounds axis ends to two significant digits', () => {
    expect(niceUp(3.2172)).toBe(3.3);
    expect(niceUp(52.5)).toBe(53);
    expect(niceUp(0.01234)).toBe(0.013);
    expect(niceUp(3)).toBe(3);
    expect(niceDown(0.6349)).toBe(0.63);
    expect(niceDown(228.4)).toBe(220);
    expect(niceDown(-3.21)).toBe(-3.3);
  });

  it('colours the quarter-hours above a line in the colour of the highest line passed', () => {
    const lines = [
      { name: 'MRK', value: 5, color: 'pink' },
      { name: 'RK', value: 8, color: 'orange' },
    ];
    expect(exceededColor(4, lines)).toBeUndefined();
    expect(exceededColor(6, lines)).toBe('pink');
    expect(exceededColor(9, lines)).toBe('orange');
    expect(exceededColor(9, [...lines, { name: 'peak', value: 8.5, color: 'violet', markOnly: true }])).toBe(
      'orange',
    );
    const option = timeChartOption({ ...base, lines, highlightAbove: true }) as unknown as Opt;
    expect(option.series[0]!.data.map((d) => d.itemStyle?.color)).toEqual([undefined, 'orange']);
  });

  it('draws the running interval pale and labelled as partial', () => {
    const option = timeChartOption({
      ...base,
      partial: { from: 900_000, label: 'partial' },
    }) as unknown as Opt;
    const [done, running] = option.series[0]!.data;
    expect(done!.itemStyle).toBeUndefined();
    expect(running!.itemStyle).toMatchObject({ opacity: 0.45, borderType: 'dashed' });
    expect(running!.label?.formatter).toBe('partial');
  });

  it('puts the columns on fixed month buckets, empty months included', () => {
    const option = timeChartOption({
      ...base,
      buckets: { times: [0, 900_000, 1_800_000], label: (ms) => `m${ms / 900_000}` },
    }) as unknown as Opt;
    expect(option.xAxis).toMatchObject({ type: 'category', data: ['m0', 'm1', 'm2'] });
    expect(option.series[0]!.data.map((d) => d.value)).toEqual([
      [0, 4],
      [1, 10],
    ]);
  });

  it('formats axis labels and tooltips in the current language', () => {
    const option = timeChartOption(base) as unknown as Opt;
    expect(option.yAxis.axisLabel.formatter(8000)).toBe('8,000');
    expect(option.tooltip.valueFormatter(228.361)).toBe('228.361 kW');
  });
});

describe('value axis bounds', () => {
  it('fits a logarithmic voltage axis to the data instead of 100 to 1000 V', () => {
    expect(valueAxisBounds({ values: [228.1, 231.9, 230], log: true, columns: false })).toEqual({
      min: 220,
      max: 240,
    });
    expect(valueAxisBounds({ values: [0, -1], log: true, columns: false })).toEqual({});
  });

  it('gives the power factor at least 0.1 of span, inside -1 to 1', () => {
    const rule = { minSpan: 0.1, floor: -1, ceiling: 1 };
    expect(valueAxisBounds({ values: [0.8925, 0.8929], log: false, columns: false, rule })).toEqual({
      min: 0.84,
      max: 0.96,
    });
    // Ends on the tick step, so the top label does not crowd the one below it.
    expect(valueAxisBounds({ values: [0.893, 0.943], log: false, columns: false, rule })).toEqual({
      min: 0.86,
      max: 0.98,
    });
    const nearOne = valueAxisBounds({ values: [0.999, 1], log: false, columns: false, rule });
    expect(nearOne.max).toBe(1);
    expect(nearOne.min).toBeLessThanOrEqual(0.9);
  });

  it('leaves a wide line chart to the chart', () => {
    expect(valueAxisBounds({ values: [1, 100], log: false, columns: false, rule: { minSpan: 10 } })).toEqual(
      {},
    );
  });
});

describe('time axis labels and the maximum', () => {
  it('finds the highest value with its time and series', () => {
    expect(
      periodMaximum([
        {
          name: 'Import',
          points: [
            [1, 2],
            [2, 7],
          ],
        },
        { name: 'Export', points: [[1, 5]] },
      ]),
    ).toEqual({ name: 'Import', t: 2, v: 7 });
    expect(periodMaximum([{ name: 'Import', points: [] }])).toBeNull();
  });
});
