import { ErrorCode } from '@meterportal/protocol';
import { useMutation, useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { isApiError } from '../../api/http';
import { toast } from '../../api/notify';
import type { ErrorMeta } from '../../api/queryClient';
import { loginErrorKey } from './rules';
import { authStore, startSession } from './session';
import { changePassword, refreshDeviceList } from './calls';

export const authKeys = {
  all: ['auth'] as const,
  deviceList: () => [...authKeys.all, 'device-list'] as const,
};

/** Changes the local password; a wrong old password reads as wrong credentials. */
export function useChangePasswordMutation() {
  return useMutation({
    mutationFn: (v: { login: string; oldPassword: string; newPassword: string }) =>
      changePassword(v.login, v.oldPassword, v.newPassword),
    onSuccess: () => toast('success', i18next.t('profile.changed')),
    meta: { errorKey: (e: unknown) => loginErrorKey(isApiError(e) ? e.code : undefined) } satisfies ErrorMeta,
  });
}

/**
 * Refreshes the device list once the shell opens (the stored copy may be up to an hour old).
 * New devices appear and removed ones drop out of the hierarchy through its own sync.
 */
export function useDeviceListRefresh(onDevicesChanged: () => void) {
  const token = authStore.get().user?.token ?? '';
  return useQuery({
    queryKey: authKeys.deviceList(),
    queryFn: async () => {
      const before = authStore
        .get()
        .devices.map((d) => d.mac)
        .join();
      const fresh = await refreshDeviceList(token);
      startSession(fresh.user, fresh.devices);
      if (fresh.devices.map((d) => d.mac).join() !== before) onDevicesChanged();
      return fresh.devices;
    },
    enabled: token !== '',
    staleTime: Infinity,
    meta: {
      errorKey: (e: unknown) =>
        isApiError(e, ErrorCode.LoginIncorrect) ? 'login.credentials_incorrect' : 'login.device_list_error',
    },
  });
}
