import { describe, expect, it } from 'vitest';
import { ENERGY_VIEWS, PROFILE_VIEWS, REALTIME_VIEWS, viewUrl } from './views';

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
