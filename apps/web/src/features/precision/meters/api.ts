import { ErrorCode, type MeterInputIn, type MeterRow } from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { getConfig } from '../../../api/config';
import { call, isApiError, isDataNotFound, upload } from '../../../api/http';
import { toast } from '../../../api/notify';
import { apiErrors, type ErrorMeta } from '../../../api/queryClient';
import { errorDialog } from './dialogs';

export const meterKeys = {
  all: ['meters'] as const,
  list: (deviceToken: string) => [...meterKeys.all, 'list', deviceToken] as const,
  tests: (deviceToken: string, meterId: number) => [...meterKeys.all, 'tests', deviceToken, meterId] as const,
  images: (deviceToken: string, meterId: number) =>
    [...meterKeys.all, 'images', deviceToken, meterId] as const,
};

/** A meter's tests and images: an unknown meter is said once by the page, not as a failure. */
const meterPartErrors: ErrorMeta = {
  errorKey: (e) => (isApiError(e, ErrorCode.NotFound) ? null : 'common.api_communication_error'),
};

/** Meters of a device; 610 is an empty list, silently (seed 001 section 8). */
export function useMetersQuery(deviceToken: string | undefined) {
  return useQuery({
    queryKey: meterKeys.list(deviceToken ?? ''),
    queryFn: async ({ signal }): Promise<MeterRow[]> => {
      try {
        return (await call('metersList', { device_token: deviceToken ?? '' }, { signal })).data;
      } catch (e) {
        if (isDataNotFound(e)) return [];
        throw e;
      }
    },
    enabled: !!deviceToken,
    meta: apiErrors,
  });
}

/** Saves one edited meter (the whole record); the seed's own toasts report the outcome. */
export function useEditMeterMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { ID_meter: number; meter: MeterInputIn }) => {
      await call('meterEdit', { device_token: deviceToken ?? '', ID_meter: v.ID_meter, meter: v.meter });
    },
    onSuccess: () => toast('success', i18next.t('meters.update_success')),
    onError: (e) => {
      if (!isApiError(e, ErrorCode.Unauthenticated)) toast('error', i18next.t('meters.update_failed'));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: meterKeys.list(deviceToken ?? '') }),
  });
}

export function useDeleteMeterMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (meterId: number) => {
      await call('meterDelete', { device_token: deviceToken ?? '', ID_meter: meterId });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: meterKeys.list(deviceToken ?? '') }),
    meta: apiErrors,
  });
}

/** 529 and 604 have their own dialog texts; anything else is the API communication error. */
function deviceErrorDialog(e: unknown): void {
  if (isApiError(e, ErrorCode.Unauthenticated)) return;
  if (isApiError(e, ErrorCode.DeviceOffline)) errorDialog(i18next.t('meters.device_offline'));
  else if (isApiError(e, ErrorCode.DeviceNotResponding))
    errorDialog(i18next.t('common.device_not_responding'));
  else errorDialog(i18next.t('common.api_communication_error'));
}

/** Adds a meter; answers its ID_meter. 529 opens the 'Device is offline' dialog. */
export function useAddMeterMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (meter: MeterInputIn) => {
      return (await call('meterAdd', { device_token: deviceToken ?? '', meter })).data.ID_meter;
    },
    onError: deviceErrorDialog,
    onSettled: () => qc.invalidateQueries({ queryKey: meterKeys.list(deviceToken ?? '') }),
  });
}

/** Uploads images of a meter as multipart form data (device_token, meter_ID, files). */
export function useUploadImagesMutation(deviceToken: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { meterId: number; files: readonly File[] }) => {
      const form = new FormData();
      form.append('device_token', deviceToken ?? '');
      form.append('meter_ID', String(v.meterId));
      for (const f of v.files) form.append('files', f, f.name);
      await upload('meterImagesUpload', form);
    },
    onError: deviceErrorDialog,
    onSettled: (_d, _e, v) =>
      qc.invalidateQueries({ queryKey: meterKeys.images(deviceToken ?? '', v.meterId) }),
  });
}

/**
 * Sends the portal's meter database to the device (upload) or replaces it with the device's
 * (download). 529 offline, 604 no answer: each its own dialog.
 */
export function useDeviceDatabaseMutation(deviceToken: string | undefined, direction: 'upload' | 'download') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await call(direction === 'upload' ? 'databaseUpload' : 'databaseDownload', {
        device_token: deviceToken ?? '',
        meters: true,
      });
    },
    onError: deviceErrorDialog,
    onSuccess: () => qc.invalidateQueries({ queryKey: meterKeys.list(deviceToken ?? '') }),
  });
}

/** A list about one meter (its tests, its images); 610 is the empty list, not an error. */
function useMeterListQuery<T>(
  queryKey: readonly unknown[],
  fetchList: (signal: AbortSignal) => Promise<T[]>,
  deviceToken: string | undefined,
  meterId: number,
) {
  return useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      try {
        return await fetchList(signal);
      } catch (e) {
        if (isDataNotFound(e)) return [] as T[];
        throw e;
      }
    },
    enabled: !!deviceToken && meterId > 0,
    meta: meterPartErrors,
  });
}

/** Stored tests of a meter, newest first. */
export function useMeterTestsQuery(deviceToken: string | undefined, meterId: number) {
  return useMeterListQuery(
    meterKeys.tests(deviceToken ?? '', meterId),
    async (signal) =>
      (await call('meterTests', { device_token: deviceToken ?? '', ID_meter: meterId }, { signal })).data,
    deviceToken,
    meterId,
  );
}

/** Stored images of a meter. */
export function useMeterImagesQuery(deviceToken: string | undefined, meterId: number) {
  return useMeterListQuery(
    meterKeys.images(deviceToken ?? '', meterId),
    async (signal) =>
      (await call('meterImages', { device_token: deviceToken ?? '', ID_meter: meterId }, { signal })).data,
    deviceToken,
    meterId,
  );
}

/** Address of an image's bytes (the session cookie goes along with the request). */
export function meterImageUrl(deviceToken: string, imageId: number): string {
  return `${getConfig().readBase}/applied-precision/images/${imageId}?device_token=${encodeURIComponent(deviceToken)}`;
}
