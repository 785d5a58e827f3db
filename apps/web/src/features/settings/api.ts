import { ErrorCode, type DeviceSettings, type SettingsWriteRequest } from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError } from '../../api/http';

export const settingsKeys = {
  all: ['settings'] as const,
  device: (deviceToken: string) => [...settingsKeys.all, deviceToken] as const,
};

const failureKey = (e: unknown) =>
  isApiError(e, ErrorCode.DeviceNotResponding)
    ? 'common.device_not_responding'
    : 'common.api_communication_error';

/** The settings the device reports, asked each time the screen opens. */
export function useSettingsQuery(deviceToken: string | undefined) {
  return useQuery({
    queryKey: settingsKeys.device(deviceToken ?? ''),
    enabled: deviceToken !== undefined,
    staleTime: 0,
    gcTime: 0,
    queryFn: async ({ signal }): Promise<DeviceSettings> =>
      (await call('settingsRead', { token: deviceToken ?? '' }, { signal })).data,
    // The screen shows a failed read in place of the settings, so no snackbar repeats it.
    meta: { errorKey: () => null },
  });
}

/** Writes one section; the device's confirmed settings replace the shown ones. */
export function useSaveSettingsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: SettingsWriteRequest) => (await call('settingsWrite', body)).data,
    onSuccess: (data, body) => qc.setQueryData(settingsKeys.device(body.token), data),
    meta: { errorKey: failureKey },
  });
}
