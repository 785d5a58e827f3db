import { describe, expect, it } from 'vitest';
import { niceDown, niceUp, timeChartOption } from './options';

const base = {
  series: [{ name: 'Import', kind: 'bar' as const, points: [[0, 4], [900_000, 10]] as [number, number][], color: '#1668dc' }],
  unit: 'kW',
  yAxisType: 'linear' as const,
  selected: {},
  formatTime: (ms: number) => String(ms),
};

describe('timeChartOption', () => {
  it('stretches the linear axis so MRK and RK lines above all values stay visible', () => {
    const option = timeChartOption({
      ...base,
      lines: [
        { name: 'MRK', value: 50, color: '#eb2f96' },
        { name: 'RK', value: 40, color: '#fa8c16' },
      ],
    }) as { yAxis: { max: (v: { max: number }) => number; min: (v: { min: number }) => number } };
    expect(option.yAxis.max({ max: 10 })).toBe(53);
    // A column chart reads against zero, whatever the smallest value.
    expect(option.yAxis.min({ min: 4 })).toBe(0);
  });

  it('keeps zero on a column chart and lets a line chart fit its data', () => {
    const columns = timeChartOption(base) as { yAxis: { scale: boolean } };
    expect(columns.yAxis.scale).toBe(false);
    const line = timeChartOption({ ...base, series: [{ ...base.series[0]!, kind: 'line' }] }) as { yAxis: { scale: boolean } };
    expect(line.yAxis.scale).toBe(true);
  });

  it('draws MRK and RK across the whole time span with their labels outside the plot', () => {
    const option = timeChartOption({ ...base, lines: [{ name: 'MRK', value: 1.5, color: '#eb2f96' }] }) as {
      grid: { right: number };
      series: { markLine: { data: [{ coord: number[]; label: { position: string; formatter: string } }, { coord: number[] }][] } }[];
    };
    const [start, end] = option.series[0]!.markLine.data[0]!;
    expect(start.coord).toEqual([0, 1.5]);
    expect(end.coord).toEqual([900_000, 1.5]);
    expect(start.label).toMatchObject({ position: 'end', formatter: 'MRK: 1.500 kW' });
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

  it('leaves the axis to the data when there are no lines', () => {
    const option = timeChartOption(base) as { yAxis: Record<string, unknown> };
    expect(option.yAxis.max).toBeUndefined();
  });
});
