import { DeviceType } from '@meterportal/protocol';
import { sessionStore } from '../api/storage';
import { defaultViewUrl, typeHasView, viewAt } from '../features/telemetry/views';
import { DASHBOARD_PRECISION_ROUTE, LOGIN_ROUTE } from './routeTitles';

/**
 * Where signed-in users land when nothing is remembered or a path is unknown: the index, which
 * opens the selected device's default route (the dashboard for an analyzer).
 */
export const DEFAULT_ROUTE = '/';

/** Every route change other than to login saves the path (48 h). */
export function rememberRoute(pathname: string): void {
  if (pathname === LOGIN_ROUTE || pathname.startsWith(`${LOGIN_ROUTE}/`)) return;
  sessionStore.set('lastRoute', pathname);
}

export function routeAfterSignIn(): string {
  return sessionStore.get<string>('lastRoute') ?? DEFAULT_ROUTE;
}

const PRECISION_AREA = '/applied-precision';

/**
 * Default route for a device type: the analyzer's applied-precision dashboard, for every other
 * metering type the view it opens on.
 */
export function defaultRouteForType(type: number | undefined): string {
  if (type === undefined || type === DeviceType.Precision) return DASHBOARD_PRECISION_ROUTE;
  return defaultViewUrl(type);
}

/**
 * The route after the selected device changed: the current one when the new device has it (a
 * chart of a quantity it measures, the applied-precision area for an analyzer, any screen that
 * is not about one device), otherwise the new type's default route.
 */
export function routeAfterDeviceChange(pathname: string, type: number): string {
  const view = viewAt(pathname);
  if (view) return typeHasView(type, view) ? pathname : defaultRouteForType(type);
  if (pathname === PRECISION_AREA || pathname.startsWith(`${PRECISION_AREA}/`)) {
    return type === DeviceType.Precision ? pathname : defaultRouteForType(type);
  }
  return pathname;
}
