import { describe, expect, it } from 'vitest';
import {
  ENERGY_VIEWS,
  PROFILE_VIEWS,
  REALTIME_VIEWS,
  defaultViewUrl,
  energySeriesOf,
  typeHasView,
  viewAt,
  viewsOfType,
  viewUrl,
} from './views';

describe('visualization views', () => {
  it('has the seed routes with their exact paths', () => {
    expect(REALTIME_VIEWS.filter((v) => !v.hidden)).toHaveLength(12);
    expect(REALTIME_VIEWS.find((v) => v.hidden)?.path).toBe('realtime/energy/export');
    expect(PROFILE_VIEWS).toHaveLength(12);
    expect(PROFILE_VIEWS.map(viewUrl)).toContain('/visualization/profile/distoration-factor/voltage');
    expect(ENERGY_VIEWS.map((v) => v.path)).toEqual([
      'energy/active/15min/maximum',
      'energy/active/15min',
      'energy/active/hour',
      'energy/active/day',
      'energy/active/month',
      'energy/reactive/day',
    ]);
  });

  it('shows live Wh registers in kWh but takes history energies as they come', () => {
    for (const v of REALTIME_VIEWS) expect(v.divisor, v.path).toBe(v.unit.endsWith('h') ? 1000 : 1);
    for (const v of [...PROFILE_VIEWS, ...ENERGY_VIEWS]) expect(v.divisor, v.path).toBe(1);
  });

  it('uses the seed granularities and hidden series', () => {
    const g = Object.fromEntries(ENERGY_VIEWS.map((v) => [v.path, v.granularity]));
    expect(g).toEqual({
      'energy/active/15min/maximum': 'day',
      'energy/active/15min': 'day',
      'energy/active/hour': 'day',
      'energy/active/day': 'week',
      'energy/active/month': 'year',
      'energy/reactive/day': 'week',
    });
    expect(ENERGY_VIEWS[0]?.hiddenAtStart).toEqual(['E_E']);
    expect(ENERGY_VIEWS[5]?.hiddenAtStart).toEqual(['Q2', 'Q3']);
    expect(PROFILE_VIEWS.filter((v) => v.startLogarithmic).map((v) => v.quantity)).toEqual(['U']);
  });
});

describe('views per device type', () => {
  const paths = (type: number) => viewsOfType(type).map((v) => v.path);
  const ALL = [...REALTIME_VIEWS, ...PROFILE_VIEWS, ...ENERGY_VIEWS].map((v) => v.path);

  it.each([1, 3, 4, 6])('gives type %i every view', (type) => {
    expect(paths(type)).toEqual(ALL);
  });

  it('gives the disconnector its active and apparent quantities but no reactive ones or distortion', () => {
    const p = paths(2);
    expect(p).toContain('realtime/power/apparent');
    expect(p).toContain('realtime/energy/export');
    expect(p).toContain('energy/active/15min/maximum');
    expect(p).not.toContain('realtime/power/reactive');
    expect(p).not.toContain('profile/energy/reactive');
    expect(p).not.toContain('profile/distoration-factor/current');
    expect(p).not.toContain('energy/reactive/day');
  });

  it('gives the plug what it measures: voltage, current, active power, power factor, frequency, import', () => {
    expect(paths(5)).toEqual([
      'realtime/voltage',
      'realtime/current',
      'realtime/power/active',
      'realtime/energy/import',
      'realtime/frequency',
      'realtime/power-factor',
      'profile/voltage',
      'profile/current',
      'profile/power/active',
      'profile/energy/import',
      'profile/frequency',
      'profile/power-factor',
      'energy/active/15min/maximum',
      'energy/active/15min',
      'energy/active/hour',
      'energy/active/day',
      'energy/active/month',
    ]);
    expect(energySeriesOf(ENERGY_VIEWS[3]!, 5)).toEqual(['E_I']);
    expect(energySeriesOf(ENERGY_VIEWS[3]!, 2)).toEqual(['E_I', 'E_E']);
  });

  it.each([1, 2, 3, 4, 5, 6])('opens type %i on a view it has', (type) => {
    const v = viewAt(defaultViewUrl(type));
    expect(v).toBeDefined();
    expect(typeHasView(type, v!)).toBe(true);
  });

  it('finds a view by its path', () => {
    expect(viewAt('/visualization/profile/distoration-factor/voltage/')?.title).toBe('df_voltage');
    expect(viewAt('/applied-precision/dashboard')).toBeUndefined();
  });
});
