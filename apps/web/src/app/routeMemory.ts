import { sessionStore } from '../api/storage';
import { DASHBOARD_PRECISION_ROUTE, LOGIN_ROUTE } from './routeTitles';

/** Where signed-in users land when nothing is remembered or a path is unknown: the dashboard. */
export const DEFAULT_ROUTE = DASHBOARD_PRECISION_ROUTE;

/** Every route change other than to login saves the path (48 h). */
export function rememberRoute(pathname: string): void {
  if (pathname === LOGIN_ROUTE || pathname.startsWith(`${LOGIN_ROUTE}/`)) return;
  sessionStore.set('lastRoute', pathname);
}

export function routeAfterSignIn(): string {
  return sessionStore.get<string>('lastRoute') ?? DEFAULT_ROUTE;
}

/**
 * Default route for a device type. Only the precision type (3) has an area of its own; for the
 * others the dashboard's guard offers to pick a precision device.
 */
export function defaultRouteForType(_type: number): string {
  return DEFAULT_ROUTE;
}
