import {
  ErrorCode,
  MESSAGE_LANGUAGES,
  NotifyDestination,
  type MessageLanguage,
  type RouteAnswer,
} from '@meterportal/protocol';
import { currentLanguage } from '../../i18n/format';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, NETWORK_ERROR_CODE, call, isApiError, isDataNotFound } from '../../api/http';
import { apiErrors, type ErrorMeta } from '../../api/queryClient';
import { normalizePoints, type Point } from '../../charts/series';
import { useAuthUser, userToken } from '../auth/session';
import type { Bounds } from './monitoringRules';
import { toPair, type Destination, type Pair } from './notificationRules';

export const toolsKeys = {
  all: ['tools'] as const,
  monitoring: (token: string, period: string, from: number, to: number) =>
    [...toolsKeys.all, 'monitoring', token, period, from, to] as const,
  spaces: (userToken: string) => [...toolsKeys.all, 'webex-spaces', userToken] as const,
  email: (userToken: string) => [...toolsKeys.all, 'email', userToken] as const,
  pairs: (deviceToken: string) => [...toolsKeys.all, 'pairs', deviceToken] as const,
};

/** 610 empties the chart with data_not_found (seed 001 section 8). */
const chartErrors: ErrorMeta = {
  errorKey: (e) => (isDataNotFound(e) ? 'common.data_not_found' : 'common.api_communication_error'),
};

const unreadable = (what: string) => new ApiError(NETWORK_ERROR_CODE, `unreadable ${what} answer`, 200);

/** Hours online and offline per local day, and uptime hours at each day's end. */
export interface MonitoringDays {
  online: Point[];
  offline: Point[];
  uptime: Point[];
}

/** One slot (30 minutes or one minute): seconds offline, uptime hours at its end. */
export interface MonitoringSlot {
  timestampMs: number;
  offlineSec: number;
  uptimeH: number;
}

async function fetchMonitoring(
  token: string,
  period: 'DAY' | '30MINUTE' | 'MINUTE',
  bounds: Bounds,
  signal: AbortSignal,
): Promise<RouteAnswer<'monitoring'>['data']> {
  const body = {
    token,
    from: bounds.from,
    to: bounds.to,
    period,
    ...(period === 'DAY' ? { format: 'H' as const } : {}),
  };
  return (await call('monitoring', body, { signal })).data;
}

export function useMonitoringDaysQuery(deviceToken: string | undefined, bounds: Bounds) {
  return useQuery({
    queryKey: toolsKeys.monitoring(deviceToken ?? '', 'DAY', bounds.from, bounds.to),
    queryFn: async ({ signal }): Promise<MonitoringDays> => {
      const data = await fetchMonitoring(deviceToken ?? '', 'DAY', bounds, signal);
      if (Array.isArray(data)) throw unreadable('monitoring');
      return {
        online: normalizePoints(data.online),
        offline: normalizePoints(data.offline),
        uptime: normalizePoints(data.uptime),
      };
    },
    enabled: !!deviceToken,
    meta: chartErrors,
  });
}

/** Slots of a drill-down level; `bounds` null keeps the query idle (nothing picked yet). */
export function useMonitoringSlotsQuery(
  deviceToken: string | undefined,
  period: '30MINUTE' | 'MINUTE',
  bounds: Bounds | null,
) {
  return useQuery({
    queryKey: toolsKeys.monitoring(deviceToken ?? '', period, bounds?.from ?? 0, bounds?.to ?? 0),
    queryFn: async ({ signal }): Promise<MonitoringSlot[]> => {
      const data = await fetchMonitoring(deviceToken ?? '', period, bounds ?? { from: 0, to: 0 }, signal);
      if (!Array.isArray(data)) throw unreadable('monitoring');
      return data
        .map((p) => ({ timestampMs: p.timestamp, offlineSec: p.offline, uptimeH: p.uptime }))
        .sort((a, b) => a.timestampMs - b.timestampMs);
    },
    enabled: !!deviceToken && bounds !== null,
    meta: chartErrors,
  });
}

/**
 * One device's 30-minute slots for a row of the day's state timeline. A day the device has no
 * record of (610) is simply an empty row, said by the row itself rather than by a toast per row.
 */
export function useTimelineRowQuery(deviceToken: string | undefined, bounds: Bounds | null) {
  return useQuery({
    queryKey: [
      ...toolsKeys.monitoring(deviceToken ?? '', '30MINUTE', bounds?.from ?? 0, bounds?.to ?? 0),
      'row',
    ],
    queryFn: async ({ signal }): Promise<MonitoringSlot[]> => {
      try {
        const data = await fetchMonitoring(
          deviceToken ?? '',
          '30MINUTE',
          bounds ?? { from: 0, to: 0 },
          signal,
        );
        if (!Array.isArray(data)) throw unreadable('monitoring');
        return data.map((p) => ({ timestampMs: p.timestamp, offlineSec: p.offline, uptimeH: p.uptime }));
      } catch (e) {
        if (isDataNotFound(e)) return [];
        throw e;
      }
    },
    enabled: !!deviceToken && bounds !== null,
    meta: apiErrors,
  });
}

/** The interface language as the language of e-mail messages. */
function messageLanguage(): MessageLanguage {
  const l = currentLanguage();
  return MESSAGE_LANGUAGES.find((m) => l.startsWith(m)) ?? 'en';
}

/** Webex spaces of the configured bot; 610 means Webex is not set up, which is not an error. */
export function useWebexSpacesQuery() {
  const token = useAuthUser()?.token ?? '';
  return useQuery({
    queryKey: toolsKeys.spaces(token),
    queryFn: async () => {
      try {
        return (await call('webexSpaces', { user_token: token })).data;
      } catch (e) {
        if (isDataNotFound(e)) return [];
        throw e;
      }
    },
    enabled: token !== '',
    staleTime: 5 * 60_000,
    meta: apiErrors,
  });
}

/** Whether the installation sends e-mail, so that e-mail can be offered as a destination. */
export function useEmailDestinationQuery() {
  const token = useAuthUser()?.token ?? '';
  return useQuery({
    queryKey: toolsKeys.email(token),
    queryFn: async () => (await call('emailDestination', { user_token: token })).data.available,
    enabled: token !== '',
    staleTime: 5 * 60_000,
    meta: apiErrors,
  });
}

/** Pairs of a device, named with the space titles when those are known. */
export function usePairsQuery(deviceToken: string | undefined) {
  const spaces = useWebexSpacesQuery();
  const email = useEmailDestinationQuery();
  const query = useQuery({
    queryKey: toolsKeys.pairs(deviceToken ?? ''),
    queryFn: async () => {
      const res = await call('pairList', { user_token: userToken(), device_token: deviceToken ?? '' });
      return res.data;
    },
    enabled: !!deviceToken,
    meta: apiErrors,
  });
  const pairs: Pair[] = (query.data ?? []).map((row) => toPair(row, spaces.data ?? []));
  return {
    ...query,
    pairs,
    spaces: spaces.data ?? [],
    spacesLoading: spaces.isLoading,
    emailAvailable: email.data === true,
  };
}

export function useAddPairMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { source: number; destination: Destination }) => {
      const webex = v.destination.ID_dest === NotifyDestination.Webex;
      const email = v.destination.ID_dest === NotifyDestination.Email;
      const res = await call('pairAdd', {
        user_token: userToken(),
        device_token: deviceToken ?? '',
        notifyTypeID: v.source,
        notifyDestID: v.destination.ID_dest,
        ...(webex ? { webex_space: v.destination.ID } : {}),
        ...(email ? { email: v.destination.ID, language: messageLanguage() } : {}),
      });
      return res.data.ID_notify;
    },
    onSettled: () => qc.invalidateQueries({ queryKey: toolsKeys.pairs(deviceToken ?? '') }),
    meta: {
      errorKey: (e) =>
        isApiError(e, ErrorCode.Conflict) ? 'common.object_exists' : 'common.api_communication_error',
    },
  });
}

export function useDeletePairMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await call('pairDelete', { user_token: userToken(), device_token: deviceToken ?? '', ID: id });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: toolsKeys.pairs(deviceToken ?? '') }),
    meta: apiErrors,
  });
}
