import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettings } from './settings';

describe('settings cookie', () => {
  it('starts in English with L1-L3 shown and SUM, AVG hidden', () => {
    expect(DEFAULT_SETTINGS.localization).toBe('en');
    expect(DEFAULT_SETTINGS.phases).toEqual({
      L1: true,
      L2: true,
      L3: true,
      SUM: false,
      AVG: false,
      CUM: false,
    });
    expect(DEFAULT_SETTINGS.ap_charts).toEqual({
      L1_U: true,
      L1_I: true,
      L2_U: true,
      L2_I: true,
      L3_U: true,
      L3_I: true,
    });
    expect(DEFAULT_SETTINGS.dataSource).toBe(1);
    expect(DEFAULT_SETTINGS.graphs).toEqual([3, 2]);
  });

  it('keeps remembered values and fills missing ones from the defaults', () => {
    const s = parseSettings(
      JSON.stringify({ localization: 'sk', sideBarMax: false, phases: { L2: false }, theme: 'dark' }),
    );
    expect(s.localization).toBe('sk');
    expect(s.sideBarMax).toBe(false);
    expect(s.theme).toBe('dark');
    expect(s.phases).toEqual({ ...DEFAULT_SETTINGS.phases, L2: false });
  });

  it('refuses unknown languages, sources and broken cookies', () => {
    expect(parseSettings(JSON.stringify({ localization: 'fr', dataSource: 7 })).localization).toBe('en');
    expect(parseSettings(JSON.stringify({ dataSource: 7 })).dataSource).toBe(1);
    expect(parseSettings('{oops')).toEqual(DEFAULT_SETTINGS);
  });

  it('remembers the vector settings and refuses zero positions other than 0, 90, 180, 270', () => {
    expect(DEFAULT_SETTINGS.vector).toEqual({ zeroPosition: 90, clockWiseDirection: false });
    expect(
      parseSettings(JSON.stringify({ vector: { zeroPosition: 180, clockWiseDirection: true } })).vector,
    ).toEqual({
      zeroPosition: 180,
      clockWiseDirection: true,
    });
    expect(
      parseSettings(JSON.stringify({ vector: { zeroPosition: 45, clockWiseDirection: 'yes' } })).vector,
    ).toEqual(DEFAULT_SETTINGS.vector);
  });
});
