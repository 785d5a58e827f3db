import { PRECISION_SCREENS, precisionUrl, type PrecisionTitle } from '../features/precision/routes';
import { ALL_VIEWS, viewAt, viewUrl, type ViewTitle } from '../features/telemetry/views';
import { COST_ROUTE, PEAKS_ROUTE, TARIFF_ROUTE } from '../features/costs/routes';
import {
  ALARMS_ROUTE,
  MONITORING_ROUTE,
  NOTIFICATION_HISTORY_ROUTE,
  NOTIFICATIONS_ROUTE,
} from '../features/tools/routes';
import { REGISTRATION_ROUTE, USER_MANAGER_ROUTE } from '../features/usermanager/routes';
import { INTEGRATION_TOKENS_ROUTE } from '../features/integration/routes';
import { FIRMWARE_ROUTE, RELAY_ROUTE } from '../features/firmware/routes';
import { SETTINGS_ROUTE } from '../features/settings/routes';
import { APPLIANCES_ROUTE } from '../features/appliances/routes';
import { ANOMALIES_ROUTE } from '../features/anomalies/routes';
import { SITE_MAPS_ROUTE, SITES_ROUTE } from '../features/sitemaps/routes';
import { REPORTS_ROUTE } from '../features/reports/routes';

export const LOGIN_ROUTE = '/login';
export const EDIT_PROFILE_ROUTE = '/user/edit-profile';
/** Named routes provided by the applied-precision and applications areas. */
export const DASHBOARD_PRECISION_ROUTE = '/applied-precision/dashboard';
export const APPLICATIONS_ROUTE = '/applications';

/** Translation keys that name a page. */
export type TitleKey =
  | `menu.${ViewTitle}`
  | PrecisionTitle
  | 'menu.edit_profile'
  | 'menu.monitoring'
  | 'menu.paired_notifications'
  | 'notification_history.title'
  | 'alarms.menu'
  | 'menu.user_manager'
  | 'integration.title'
  | 'costs.menu_cost'
  | 'costs.menu_peaks'
  | 'costs.menu_tariff'
  | 'relay.menu'
  | 'firmware.menu'
  | 'registration.menu'
  | 'settings.menu'
  | 'appliances.menu'
  | 'anomalies.menu'
  | 'sitemaps.menu'
  | 'sitemaps.sites_menu'
  | 'reports.menu'
  | 'login.title';

const titles = new Map<string, TitleKey>([
  ...ALL_VIEWS.map((v) => [viewUrl(v), `menu.${v.title}`] as const),
  ...PRECISION_SCREENS.map((s) => [precisionUrl(s.path), s.title] as const),
  [EDIT_PROFILE_ROUTE, 'menu.edit_profile'],
  [MONITORING_ROUTE, 'menu.monitoring'],
  [NOTIFICATIONS_ROUTE, 'menu.paired_notifications'],
  [NOTIFICATION_HISTORY_ROUTE, 'notification_history.title'],
  [ALARMS_ROUTE, 'alarms.menu'],
  [USER_MANAGER_ROUTE, 'menu.user_manager'],
  [INTEGRATION_TOKENS_ROUTE, 'integration.title'],
  [COST_ROUTE, 'costs.menu_cost'],
  [PEAKS_ROUTE, 'costs.menu_peaks'],
  [TARIFF_ROUTE, 'costs.menu_tariff'],
  [RELAY_ROUTE, 'relay.menu'],
  [FIRMWARE_ROUTE, 'firmware.menu'],
  [SETTINGS_ROUTE, 'settings.menu'],
  [APPLIANCES_ROUTE, 'appliances.menu'],
  [ANOMALIES_ROUTE, 'anomalies.menu'],
  [LOGIN_ROUTE, 'login.title'],
  [REGISTRATION_ROUTE, 'registration.menu'],
  [SITE_MAPS_ROUTE, 'sitemaps.menu'],
  [SITES_ROUTE, 'sitemaps.sites_menu'],
  [REPORTS_ROUTE, 'reports.menu'],
]);

/** Routes with a parameter (`:name` matches one path segment), as patterns. */
const patterns = [...titles.entries()]
  .filter(([path]) => path.includes('/:'))
  .map(([path, key]) => [new RegExp(`^${path.replace(/:[a-z_]+/g, '[^/]+')}$`), key] as const);

/** Translation key of the page title for a path (the route's name), if it has one. */
export function titleKeyFor(pathname: string): TitleKey | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return titles.get(path) ?? patterns.find(([re]) => re.test(path))?.[1];
}

/** The frame around a chart page's title, naming the kind of chart, as the chart cards do. */
export type TitleFrame = 'chart.realtime_title' | 'chart.profile_title';

/**
 * Real-time and profile pages of one quantity share the quantity's name; the top bar tells them
 * apart with the kind of chart ("Voltage – real time", "Voltage – profile").
 */
export function titleFrameFor(pathname: string): TitleFrame | undefined {
  const kind = viewAt(pathname)?.kind;
  if (kind === 'realtime') return 'chart.realtime_title';
  if (kind === 'profile') return 'chart.profile_title';
  return undefined;
}

/** Sidebar entry a page belongs to: the meters list for the wizard and the tests of a meter. */
export function menuKeyFor(pathname: string): string {
  const path = pathname.replace(/\/+$/, '') || '/';
  return path.startsWith(`${precisionUrl('meters').replace(/s$/, '')}/`) ? precisionUrl('meters') : path;
}
