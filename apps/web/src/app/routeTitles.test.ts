import { describe, expect, it } from 'vitest';
import { menuKeyFor, titleFrameFor, titleKeyFor } from './routeTitles';

describe('page titles from routes', () => {
  it.each([
    ['/visualization/realtime/voltage', 'menu.voltage'],
    ['/visualization/profile/distoration-factor/current', 'menu.df_current'],
    ['/visualization/energy/active/15min/maximum', 'menu.energy_15min_max'],
    ['/visualization/energy/reactive/day/', 'menu.energy_reactive_day'],
    ['/user/edit-profile', 'menu.edit_profile'],
  ])('%s is titled %s', (path, key) => {
    expect(titleKeyFor(path)).toBe(key);
  });
  it('has no title for unknown paths and keeps the contract spelling', () => {
    expect(titleKeyFor('/visualization/profile/distortion-factor/current')).toBeUndefined();
  });
});

describe('real-time and profile pages of one quantity are titled apart', () => {
  it.each([
    ['/visualization/realtime/voltage', 'chart.realtime_title'],
    ['/visualization/realtime/energy/export/', 'chart.realtime_title'],
    ['/visualization/profile/voltage', 'chart.profile_title'],
    ['/visualization/profile/distoration-factor/current', 'chart.profile_title'],
    ['/visualization/energy/active/day', undefined],
    ['/tools/monitoring', undefined],
  ])('%s is framed by %s', (path, frame) => {
    expect(titleFrameFor(path)).toBe(frame);
  });
});

describe('titles of the tools and applications pages', () => {
  it.each([
    ['/tools/monitoring', 'menu.monitoring'],
    ['/tools/notifications/', 'menu.paired_notifications'],
    ['/applications/user-manager', 'menu.user_manager'],
  ])('%s is titled %s', (path, key) => {
    expect(titleKeyFor(path)).toBe(key);
  });
});

describe('titles of the applied-precision pages', () => {
  it.each([
    ['/applied-precision/dashboard', 'menu.precision_dashboard'],
    ['/applied-precision/vector', 'menu.vector_diagram'],
    ['/applied-precision/harmonics/', 'menu.harmonics'],
    ['/applied-precision/waveform', 'menu.waveform'],
    ['/applied-precision/meters', 'menu.meters'],
    ['/applied-precision/meter/add', 'menu.meter_add'],
    ['/applied-precision/meter/tests/17', 'menu.meter_tests'],
  ])('%s is titled %s', (path, key) => {
    expect(titleKeyFor(path)).toBe(key);
  });
  it('has no title for a tests page without its meter', () => {
    expect(titleKeyFor('/applied-precision/meter/tests')).toBeUndefined();
    expect(titleKeyFor('/applied-precision/meter/tests/1/2')).toBeUndefined();
  });
  it('keeps the meters entry of the sidebar lit on the wizard and on the tests of a meter', () => {
    expect(menuKeyFor('/applied-precision/meter/add')).toBe('/applied-precision/meters');
    expect(menuKeyFor('/applied-precision/meter/tests/17')).toBe('/applied-precision/meters');
    expect(menuKeyFor('/applied-precision/meters')).toBe('/applied-precision/meters');
    expect(menuKeyFor('/applied-precision/vector/')).toBe('/applied-precision/vector');
  });
});
