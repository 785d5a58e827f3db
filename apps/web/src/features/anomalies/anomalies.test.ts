import { describe, expect, it } from 'vitest';
import type { DeviceListEntry } from '@meterportal/protocol';
import { timeChartOption } from '../../charts/options';
import { hasAnomalyBand, ownedHouseholdMeters } from './routes';

const device = (type: number, owner: boolean) =>
  ({ type, owner, mac: `m${type}${owner}`, token: 't', expire: 0, title: 'x' }) as unknown as DeviceListEntry;

describe('anomaly models on screen', () => {
  it('are for owners of household meters only', () => {
    const list = [device(1, true), device(1, false), device(4, true)];
    expect(ownedHouseholdMeters(list)).toEqual([list[0]]);
  });

  it.each([
    [device(1, true), 'HOUR', true],
    [device(1, true), 'DAY', false],
    [device(1, false), 'HOUR', false],
    [device(2, true), 'HOUR', false],
    [undefined, 'HOUR', false],
  ])('shows a band on %o at period %s: %s', (d, period, shown) => {
    expect(hasAnomalyBand(d, period)).toBe(shown);
  });

  it('draws the band as a hidden lower edge and a filled width behind the columns', () => {
    const option = timeChartOption({
      series: [{ name: 'Import', points: [[0, 1.5]], kind: 'bar' }],
      unit: 'kWh',
      yAxisType: 'linear',
      selected: {},
      formatTime: String,
      band: { name: 'Expected band', points: [[0, 0.5, 2]], color: '#fa8c16' },
    }) as { series: { name: string; data: unknown[]; stack?: string; areaStyle?: unknown }[] };
    expect(option.series.map((s) => s.name)).toEqual(['Expected band', 'Expected band', 'Import']);
    expect(option.series[0]!.data).toEqual([[0, 0.5]]);
    expect(option.series[1]!.data).toEqual([[0, 1.5]]);
    expect(option.series[0]!.stack).toBe(option.series[1]!.stack);
    expect(option.series[1]!.areaStyle).toBeDefined();
    expect(option.series[0]!.areaStyle).toBeUndefined();
  });

  it('draws no band series without points', () => {
    const option = timeChartOption({
      series: [],
      unit: 'kWh',
      yAxisType: 'linear',
      selected: {},
      formatTime: String,
      band: { name: 'Expected band', points: [], color: '#fa8c16' },
    }) as { series: unknown[] };
    expect(option.series).toEqual([]);
  });
});
