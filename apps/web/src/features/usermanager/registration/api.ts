import {
  ErrorCode,
  type DeviceConnectionSettings,
  type JsonMapping,
  type RegisteredDevice,
  type RegistrationAddRequest,
} from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError } from '../../../api/http';
import { apiErrors } from '../../../api/queryClient';
import { refreshDeviceList } from '../../auth/calls';
import { updateDevices, useAuthUser, userToken } from '../../auth/session';
import { hierarchyKeys } from '../../devices/api';
import { userManagerKeys } from '../api';

export const registrationKeys = {
  all: ['registration'] as const,
  devices: (userToken: string) => [...registrationKeys.all, 'devices', userToken] as const,
};

/** Registered devices with family, topic, credentials and online state; refreshed while shown. */
export function useRegisteredDevicesQuery() {
  const token = useAuthUser()?.token ?? '';
  return useQuery({
    queryKey: registrationKeys.devices(token),
    queryFn: async (): Promise<RegisteredDevice[]> =>
      (await call('registrationList', { user_token: token })).data,
    enabled: token !== '',
    refetchInterval: 10_000,
    meta: apiErrors,
  });
}

/** What the add form sends. */
export type NewDevice = Omit<RegistrationAddRequest, 'user_token'>;

/**
 * After a device is added the signed-in manager owns it: the device list and tree take it, and
 * the user manager's lists show it.
 */
function useRefreshAfterChange() {
  const qc = useQueryClient();
  return async () => {
    const token = userToken();
    const refreshed = await refreshDeviceList(token).catch(() => null);
    if (refreshed) updateDevices(refreshed.devices);
    await Promise.all([
      qc.invalidateQueries({ queryKey: registrationKeys.all }),
      qc.invalidateQueries({ queryKey: userManagerKeys.all }),
      qc.invalidateQueries({ queryKey: hierarchyKeys.all }),
    ]);
  };
}

/** Registers a device; the answer carries the settings and the password, shown this once. */
export function useRegisterDeviceMutation() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: async (v: NewDevice): Promise<DeviceConnectionSettings> =>
      (await call('registrationAdd', { user_token: userToken(), ...v })).data,
    onSuccess: refresh,
    meta: {
      errorKey: (e) =>
        isApiError(e, ErrorCode.Conflict)
          ? 'registration.exists'
          : isApiError(e, ErrorCode.InvalidRequest)
            ? 'registration.invalid'
            : 'common.api_communication_error',
    },
  });
}

/** A new password for a device; the old one stops at once. */
export function useRotateCredentialsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (mac: string): Promise<DeviceConnectionSettings> =>
      (await call('registrationRotate', { user_token: userToken(), mac })).data,
    onSettled: () => qc.invalidateQueries({ queryKey: registrationKeys.all }),
    meta: apiErrors,
  });
}

/** Withdraws a device's credentials: it can no longer connect; its data stays. */
export function useRevokeCredentialsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (mac: string) => {
      await call('registrationRevoke', { user_token: userToken(), mac });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: registrationKeys.all }),
    meta: apiErrors,
  });
}

/** Changes which JSON paths of a generic JSON meter carry which quantities. */
export function useSaveMappingMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { mac: string; mapping: JsonMapping }) => {
      await call('registrationMapping', { user_token: userToken(), ...v });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: registrationKeys.all }),
    meta: {
      errorKey: (e) =>
        isApiError(e, ErrorCode.InvalidRequest) ? 'registration.invalid' : 'common.api_communication_error',
    },
  });
}
