import type { NotificationType, RouteBody } from '@meterportal/protocol';
import { defaultRouteForType } from '../../app/routeMemory';
import { customRange, type DateRange } from '../telemetry/dateRanges';
import { PROFILE_VIEWS, typeHasView, viewUrl, type ViewTitle } from '../telemetry/views';
import { dayOf } from '../telemetry/zone';

/** Rows of one history page. */
export const HISTORY_PAGE_SIZE = 20;

/** What the history screen filters by. */
export interface HistoryFilters {
  /** Device token; absent: every device. */
  deviceToken?: string;
  types: NotificationType[];
  /** Whole days of the installation's zone, epoch seconds (a DateRange of the toolbar). */
  range?: { from: number; to: number };
  read?: 'READ' | 'UNREAD';
}

/** The request of one page: the filters, and the cursor of the page (none for the newest). */
export function historyRequest(
  userToken: string,
  f: HistoryFilters,
  beforeId: number | undefined,
): RouteBody<'notificationHistory'> {
  return {
    user_token: userToken,
    limit: HISTORY_PAGE_SIZE,
    ...(f.deviceToken ? { device_token: f.deviceToken } : {}),
    ...(f.types.length > 0 ? { types: f.types } : {}),
    ...(f.range ? { from_ms: f.range.from * 1000, to_ms: f.range.to * 1000 + 999 } : {}),
    ...(f.read ? { read: f.read } : {}),
    ...(beforeId !== undefined ? { before_id: beforeId } : {}),
  };
}

/** The chart each kind of event is best seen on. */
const CHART_OF: Record<NotificationType, ViewTitle> = {
  STATUS: 'power_active',
  NILM: 'power_active',
  ANOMALY: 'power_active',
  DISCONNECTOR: 'current',
};

/**
 * Where a notification's chart is: the profile of the event's quantity over the day it happened
 * (in the installation's zone), or of the first quantity the device measures; a device without
 * profiles opens its own first screen.
 */
export function chartTarget(
  type: NotificationType,
  deviceType: number,
  timeMs: number,
  tz: string,
): { route: string; range: DateRange | null } {
  const measured = PROFILE_VIEWS.filter((v) => typeHasView(deviceType, v));
  const view = measured.find((v) => v.title === CHART_OF[type]) ?? measured[0];
  if (!view) return { route: defaultRouteForType(deviceType), range: null };
  const day = dayOf(timeMs, tz);
  return { route: viewUrl(view), range: customRange(day, day, tz) };
}
