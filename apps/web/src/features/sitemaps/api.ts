import { ErrorCode, type SiteMap } from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, isApiError, upload } from '../../api/http';
import { getConfig } from '../../api/config';
import { apiErrors } from '../../api/queryClient';
import { useAuthUser, userToken } from '../auth/session';

export const siteMapKeys = {
  all: ['siteMaps'] as const,
  list: (userToken: string) => [...siteMapKeys.all, 'list', userToken] as const,
};

/** How often the pins' live states are read again. */
export const PIN_STATE_REFRESH_MS = 3000;

/** The URL of a map's plan image (the session cookie identifies the user). */
export function siteMapImageUrl(id: number): string {
  return `${getConfig().readBase}/site-maps/${id}/image`;
}

/** The user's maps with their pins; the pins' states are refreshed while the screen is open. */
export function useSiteMapsQuery() {
  const token = useAuthUser()?.token ?? '';
  return useQuery({
    queryKey: siteMapKeys.list(token),
    queryFn: async ({ signal }): Promise<SiteMap[]> =>
      (await call('siteMapList', { user_token: token }, { signal })).data,
    enabled: token !== '',
    refetchInterval: PIN_STATE_REFRESH_MS,
    meta: apiErrors,
  });
}

/** Uploads a plan; a refused file reads as the seed's texts. */
export function useUploadSiteMapMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { name: string; file: File }) => {
      const form = new FormData();
      form.append('user_token', userToken());
      form.append('name', v.name);
      form.append('file', v.file, v.file.name);
      return (await upload('siteMapUpload', form)).data.id;
    },
    onSettled: () => qc.invalidateQueries({ queryKey: siteMapKeys.all }),
    meta: {
      errorKey: (e) =>
        isApiError(e, ErrorCode.PayloadTooLarge)
          ? 'sitemaps.file_too_large'
          : isApiError(e, ErrorCode.InvalidRequest) && /format/i.test(e.message)
            ? 'sitemaps.file_format'
            : 'sitemaps.upload_failed',
    },
  });
}

export function useRenameSiteMapMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { id: number; name: string }) => {
      await call('siteMapRename', { user_token: userToken(), ...v });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: siteMapKeys.all }),
    meta: apiErrors,
  });
}

export function useDeleteSiteMapMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await call('siteMapDelete', { user_token: userToken(), id });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: siteMapKeys.all }),
    meta: apiErrors,
  });
}

/** Places or moves a device; the list shows the pin at once and is read again after. */
export function useSavePinMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { id: number; token: string; group: string; x: number; y: number }) => {
      await call('sitePinSave', { user_token: userToken(), ...v });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: siteMapKeys.all }),
    meta: apiErrors,
  });
}

export function useRemovePinMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { id: number; token: string }) => {
      await call('sitePinRemove', { user_token: userToken(), ...v });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: siteMapKeys.all }),
    meta: apiErrors,
  });
}
