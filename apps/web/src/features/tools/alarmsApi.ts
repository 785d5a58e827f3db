import {
  ErrorCode,
  type AlarmLanguage,
  type AlarmRuleDefinition,
  type RouteBody,
} from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError } from '../../api/http';
import { apiErrors } from '../../api/queryClient';
import { userToken } from '../auth/session';

/** Filters of the alarm list, as the list request takes them. */
export type AlarmFilters = Pick<RouteBody<'alarmList'>, 'state' | 'severity' | 'from' | 'to'>;

export const alarmsKeys = {
  all: ['alarms'] as const,
  rules: (deviceToken: string) => [...alarmsKeys.all, 'rules', deviceToken] as const,
  list: (deviceToken: string, f: AlarmFilters) => [...alarmsKeys.all, 'list', deviceToken, f] as const,
};

/** How often the alarm lists are read again while the screen is open, ms. */
const REFRESH_MS = 3000;

/** The signed-in user's rules on a device. */
export function useAlarmRulesQuery(deviceToken: string | undefined) {
  return useQuery({
    queryKey: alarmsKeys.rules(deviceToken ?? ''),
    queryFn: async ({ signal }) =>
      (await call('alarmRuleList', { user_token: userToken(), device_token: deviceToken ?? '' }, { signal }))
        .data,
    enabled: !!deviceToken,
    meta: apiErrors,
  });
}

/** The signed-in user's alarms on a device, newest first, read again every few seconds. */
export function useAlarmsQuery(deviceToken: string | undefined, filters: AlarmFilters) {
  return useQuery({
    queryKey: alarmsKeys.list(deviceToken ?? '', filters),
    queryFn: async ({ signal }) =>
      (
        await call(
          'alarmList',
          { user_token: userToken(), device_token: deviceToken ?? '', ...filters },
          { signal },
        )
      ).data,
    enabled: !!deviceToken,
    refetchInterval: REFRESH_MS,
    meta: apiErrors,
  });
}

export function useSaveRuleMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { ID?: number | undefined; lang: AlarmLanguage; rule: AlarmRuleDefinition }) =>
      (
        await call('alarmRuleSave', {
          user_token: userToken(),
          device_token: deviceToken ?? '',
          lang: v.lang,
          rule: v.rule,
          ...(v.ID !== undefined ? { ID: v.ID } : {}),
        })
      ).data.ID,
    onSettled: () => qc.invalidateQueries({ queryKey: alarmsKeys.all }),
    meta: {
      errorKey: (e) =>
        isApiError(e, ErrorCode.Conflict) ? 'alarms.errors.too_many' : 'common.api_communication_error',
    },
  });
}

export function useDeleteRuleMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await call('alarmRuleDelete', { user_token: userToken(), device_token: deviceToken ?? '', ID: id });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: alarmsKeys.all }),
    meta: apiErrors,
  });
}

export function useAcknowledgeMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { ID: number; note: string }) => {
      await call('alarmAck', { user_token: userToken(), device_token: deviceToken ?? '', ...v });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: alarmsKeys.all }),
    meta: apiErrors,
  });
}
