import { ErrorCode } from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError } from '../../api/http';
import { apiErrors, type ErrorMeta } from '../../api/queryClient';
import { useAuthUser, userToken } from '../auth/session';
import { sha256Hex } from '../auth/sha256';
import { RELOAD_DELAY_MS } from './userRules';

export const userManagerKeys = {
  all: ['usermanager'] as const,
  access: (userToken: string, application: string) =>
    [...userManagerKeys.all, 'access', userToken, application] as const,
  users: (userToken: string) => [...userManagerKeys.all, 'users', userToken] as const,
  devices: (userToken: string) => [...userManagerKeys.all, 'devices', userToken] as const,
};

const writeErrors: ErrorMeta = {
  errorKey: (e) =>
    isApiError(e, ErrorCode.Conflict) ? 'common.object_exists' : 'common.api_communication_error',
};

/**
 * The server's answer to "may this user open that application" (seed 001 section 6). Any failure
 * is a no; the guard redirects, so it raises no toast.
 */
export function useApplicationAccessQuery(application: string) {
  const token = useAuthUser()?.token ?? '';
  return useQuery({
    queryKey: userManagerKeys.access(token, application),
    queryFn: async () => {
      await call('applicationAccess', { user_token: token, application });
      return true;
    },
    enabled: token !== '',
    retry: false,
    staleTime: 60_000,
  });
}

export function useUsersQuery() {
  const token = useAuthUser()?.token ?? '';
  return useQuery({
    queryKey: userManagerKeys.users(token),
    queryFn: async () => {
      return (await call('userList', { user_token: token })).data;
    },
    enabled: token !== '',
    meta: apiErrors,
  });
}

export function useManagedDevicesQuery() {
  const token = useAuthUser()?.token ?? '';
  return useQuery({
    queryKey: userManagerKeys.devices(token),
    queryFn: async () => {
      return (await call('deviceList', { user_token: token })).data;
    },
    enabled: token !== '',
    staleTime: 5 * 60_000,
    meta: apiErrors,
  });
}

/** After a change the list reloads once the server has settled (seed 001 section 4). */
function useReloadLater() {
  const qc = useQueryClient();
  return () =>
    new Promise<void>((resolve) =>
      setTimeout(() => {
        void qc.invalidateQueries({ queryKey: userManagerKeys.users(userToken()) }).then(() => resolve());
      }, RELOAD_DELAY_MS),
    );
}

/** Creates a user (POST) or sets a user's password (PUT); the password travels as its digest. */
export function useSaveUserMutation(mode: 'create' | 'password') {
  const reload = useReloadLater();
  return useMutation({
    mutationFn: async (v: { login: string; password: string }) => {
      await call(mode === 'create' ? 'userAdd' : 'userPassword', {
        user_token: userToken(),
        login: v.login,
        password: await sha256Hex(v.password),
      });
    },
    onSuccess: () => {
      void reload();
    },
    meta: writeErrors,
  });
}

export function useRemoveUserMutation() {
  const reload = useReloadLater();
  return useMutation({
    mutationFn: async (login: string) => {
      await call('userRemove', { user_token: userToken(), login });
    },
    onSuccess: () => {
      void reload();
    },
    meta: apiErrors,
  });
}

export function useAssignMutation() {
  const reload = useReloadLater();
  return useMutation({
    mutationFn: async (v: { login: string; device: string; lifeTime: number }) => {
      await call('assign', { user_token: userToken(), ...v });
    },
    onSuccess: () => {
      void reload();
    },
    meta: writeErrors,
  });
}

/** Removing a device from a user; its failure has the seed's own text. */
export function useUnassignMutation() {
  const reload = useReloadLater();
  return useMutation({
    mutationFn: async (v: { login: string; device: string }) => {
      await call('unassign', { user_token: userToken(), ...v });
    },
    onSuccess: () => {
      void reload();
    },
    meta: { errorKey: 'usermanager.remove_device_failed' },
  });
}
