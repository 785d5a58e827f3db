import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../api/storage';
import { DEFAULT_ROUTE, defaultRouteForType, rememberRoute, routeAfterSignIn } from './routeMemory';

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
  it('lands on the applied-precision dashboard, also after a change to the precision type', () => {
    expect(DEFAULT_ROUTE).toBe('/applied-precision/dashboard');
    expect(defaultRouteForType(3)).toBe('/applied-precision/dashboard');
  });
});
