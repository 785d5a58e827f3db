import { sessionStore } from '../api/storage';
import { DEFAULT_VISUALIZATION_ROUTE } from '../features/telemetry/views';
import { LOGIN_ROUTE } from './routeTitles';

/** Where signed-in users land when nothing is remembered or a path is unknown. */
export const DEFAULT_ROUTE = DEFAULT_VISUALIZATION_ROUTE;

/** Every route change other than to login saves the path (48 h). */
export function rememberRoute(pathname: string): void {
  if (pathname === LOGIN_ROUTE || pathname.startsWith(`${LOGIN_ROUTE}/`)) return;
  sessionStore.set('lastRoute', pathname);
}

export function routeAfterSignIn(): string {
  return sessionStore.get<string>('lastRoute') ?? DEFAULT_ROUTE;
}

/** Default route for a device type; only the precision area exists for now, so all share it. */
export function defaultRouteForType(_type: number): string {
  return DEFAULT_ROUTE;
}
