import { ErrorCode, type NilmSettings, type RouteAnswer } from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError } from '../../api/http';
import { apiErrors, type ErrorMeta } from '../../api/queryClient';

export const appliancesKeys = {
  all: ['appliances'] as const,
  device: (token: string) => [...appliancesKeys.all, token] as const,
  list: (token: string, fromMs: number, toMs: number) =>
    [...appliancesKeys.device(token), 'list', fromMs, toMs] as const,
};

/** A refused name, a silent device and anything else each have their own text. */
const commandErrors: ErrorMeta = {
  errorKey: (e) =>
    isApiError(e, ErrorCode.Conflict)
      ? 'common.object_exists'
      : isApiError(e, ErrorCode.DeviceNotResponding)
        ? 'common.device_not_responding'
        : isApiError(e, ErrorCode.DataNotFound)
          ? 'common.data_not_found'
          : 'common.api_communication_error',
};

/** NILM switches and the appliances of an owned household meter with their figures in [fromMs, toMs). */
export function useAppliancesQuery(token: string, fromMs: number, toMs: number) {
  return useQuery({
    queryKey: appliancesKeys.list(token, fromMs, toMs),
    queryFn: async ({ signal }): Promise<RouteAnswer<'appliances'>['data']> =>
      (await call('appliances', { token, from: fromMs, to: toMs }, { signal })).data,
    meta: apiErrors,
  });
}

/** Tells the meter to listen for the edges of the named appliance. */
export function useTeachStartMutation(token: string) {
  return useMutation({
    mutationFn: async (name: string) => (await call('applianceTeachStart', { token, name })).data,
    meta: commandErrors,
  });
}

/** Asks the meter for the edges it saw; the list is read again after. */
export function useTeachFinishMutation(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => (await call('applianceTeachFinish', { token, name })).data,
    onSettled: () => qc.invalidateQueries({ queryKey: appliancesKeys.device(token) }),
    meta: commandErrors,
  });
}

/** Removes an appliance's imprint, or (`whole`) the appliance itself. */
export function useRemoveApplianceMutation(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, whole }: { name: string; whole: boolean }) =>
      (await call(whole ? 'applianceRemove' : 'applianceImprintRemove', { token, name })).data,
    onSettled: () => qc.invalidateQueries({ queryKey: appliancesKeys.device(token) }),
    meta: commandErrors,
  });
}

/** Sends the NILM switches to the meter. */
export function useNilmSettingsMutation(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (s: NilmSettings) => (await call('nilmSettings', { token, ...s })).data,
    onSettled: () => qc.invalidateQueries({ queryKey: appliancesKeys.device(token) }),
    meta: commandErrors,
  });
}
