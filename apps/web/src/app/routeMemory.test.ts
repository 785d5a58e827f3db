import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../api/storage';
import {
  DEFAULT_ROUTE,
  defaultRouteForType,
  rememberRoute,
  routeAfterDeviceChange,
  routeAfterSignIn,
} from './routeMemory';

describe('remembered route', () => {
  beforeEach(() => sessionStore.remove('lastRoute'));

  it('goes to the default route when nothing is remembered', () => {
    expect(routeAfterSignIn()).toBe(DEFAULT_ROUTE);
  });
  it('remembers every route except the login page', () => {
    rememberRoute('/visualization/energy/active/day');
    rememberRoute('/login');
    expect(routeAfterSignIn()).toBe('/visualization/energy/active/day');
  });
  it('opens the analyzer on the applied-precision dashboard and other types on their charts', () => {
    expect(defaultRouteForType(3)).toBe('/applied-precision/dashboard');
    expect(defaultRouteForType(undefined)).toBe('/applied-precision/dashboard');
    expect(defaultRouteForType(1)).toBe('/visualization/energy/active/day');
    expect(defaultRouteForType(4)).toBe('/visualization/energy/active/15min/maximum');
    expect(defaultRouteForType(5)).toBe('/visualization/realtime/power/active');
  });
});

describe('route after a device change', () => {
  it.each([
    // The new device has the view: stay.
    ['/visualization/profile/current', 4, '/visualization/profile/current'],
    ['/visualization/realtime/voltage', 5, '/visualization/realtime/voltage'],
    ['/visualization/energy/reactive/day', 6, '/visualization/energy/reactive/day'],
    ['/applied-precision/harmonics', 3, '/applied-precision/harmonics'],
    // Screens that are not about one device stay too.
    ['/tools/monitoring', 5, '/tools/monitoring'],
    ['/applications/user-manager', 1, '/applications/user-manager'],
    // The new device lacks the view: its type's default route.
    ['/visualization/profile/power/reactive', 5, '/visualization/realtime/power/active'],
    ['/visualization/energy/reactive/day', 2, '/visualization/realtime/power/active'],
    ['/applied-precision/dashboard', 1, '/visualization/energy/active/day'],
    ['/applied-precision/meters', 4, '/visualization/energy/active/15min/maximum'],
  ] as const)('from %s to a type %i device goes to %s', (from, type, to) => {
    expect(routeAfterDeviceChange(from, type)).toBe(to);
  });
});
