import { ALL_VIEWS, viewUrl } from '../features/telemetry/views';

export const LOGIN_ROUTE = '/login';
export const EDIT_PROFILE_ROUTE = '/user/edit-profile';
/** Named routes provided by the applied-precision and applications areas. */
export const DASHBOARD_PRECISION_ROUTE = '/applied-precision/dashboard';
export const APPLICATIONS_ROUTE = '/applications';

const titles = new Map<string, string>([
  ...ALL_VIEWS.map((v) => [viewUrl(v), `menu.${v.title}`] as const),
  [EDIT_PROFILE_ROUTE, 'menu.edit_profile'],
  [LOGIN_ROUTE, 'login.title'],
]);

/** Translation key of the page title for a path (the route's name), if it has one. */
export function titleKeyFor(pathname: string): string | undefined {
  return titles.get(pathname.replace(/\/+$/, '') || '/');
}
