import { ErrorCode, type RelayState, type RouteAnswer } from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError } from '../../api/http';
import { apiErrors } from '../../api/queryClient';

export const relayKeys = {
  all: ['relay'] as const,
  history: (deviceToken: string) => [...relayKeys.all, 'history', deviceToken] as const,
};

/** State, switchings and DISCONNECTOR notifications of an owned disconnector. */
export function useRelayHistoryQuery(deviceToken: string | undefined) {
  return useQuery({
    queryKey: relayKeys.history(deviceToken ?? ''),
    enabled: deviceToken !== undefined,
    queryFn: async ({ signal }): Promise<RouteAnswer<'relayHistory'>['data']> =>
      (await call('relayHistory', { token: deviceToken ?? '' }, { signal })).data,
    meta: apiErrors,
  });
}

/** Opens or closes the relay; the history is read again afterwards. */
export function useSwitchRelayMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (state: RelayState) =>
      (await call('relay', { token: deviceToken ?? '', state })).data.state,
    onSettled: () => qc.invalidateQueries({ queryKey: relayKeys.history(deviceToken ?? '') }),
    meta: {
      errorKey: (e) =>
        isApiError(e, ErrorCode.DeviceNotResponding)
          ? 'common.device_not_responding'
          : 'common.api_communication_error',
    },
  });
}
