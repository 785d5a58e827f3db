import { describe, expect, it } from 'vitest';
import { timeChartOption } from './options';

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
    expect(option.yAxis.max({ max: 10 })).toBeCloseTo(52.5, 9);
    expect(option.yAxis.min({ min: 4 })).toBe(4);
  });

  it('leaves the axis to the data when there are no lines', () => {
    const option = timeChartOption(base) as { yAxis: Record<string, unknown> };
    expect(option.yAxis.max).toBeUndefined();
  });
});
