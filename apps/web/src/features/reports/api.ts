import type {
  FolderReportRequest,
  ReportRequest,
  ReportScheduleCreateRequest,
  RouteAnswer,
} from '@meterportal/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { call, download } from '../../api/http';
import { snackbar } from '../../api/notify';
import type { ErrorMeta } from '../../api/queryClient';
import { downloadBlob } from '../../charts/exporters';

export const reportsKeys = {
  all: ['reports'] as const,
  schedules: () => [...reportsKeys.all, 'schedules'] as const,
  kept: () => [...reportsKeys.all, 'kept'] as const,
};

const apiErrors: ErrorMeta = { errorKey: 'common.api_communication_error' };

/** The user's report schedules. */
export function useSchedulesQuery() {
  return useQuery({
    queryKey: reportsKeys.schedules(),
    queryFn: async ({ signal }): Promise<RouteAnswer<'reportSchedules'>['data']> =>
      (await call('reportSchedules', {}, { signal })).data,
    meta: apiErrors,
  });
}

/** Reports the user's schedules kept, newest first. */
export function useKeptQuery() {
  return useQuery({
    queryKey: reportsKeys.kept(),
    queryFn: async ({ signal }): Promise<RouteAnswer<'reportsKept'>['data']> =>
      (await call('reportsKept', {}, { signal })).data,
    meta: apiErrors,
  });
}

/** Downloads a device's report of a month and saves it under the server's name. */
export function useReportDownload() {
  return useMutation({
    mutationFn: async (req: ReportRequest) => {
      const { blob, fileName } = await download('reportDownload', req);
      downloadBlob(blob, fileName);
    },
    onSuccess: () => snackbar('success', i18next.t('reports.downloaded')),
    meta: apiErrors,
  });
}

/** Downloads a folder's report of a month and saves it under the server's name. */
export function useFolderReportDownload() {
  return useMutation({
    mutationFn: async (req: FolderReportRequest) => {
      const { blob, fileName } = await download('reportFolderDownload', req);
      downloadBlob(blob, fileName);
    },
    onSuccess: () => snackbar('success', i18next.t('reports.downloaded')),
    meta: apiErrors,
  });
}

/** Downloads a kept report. */
export function useKeptDownload() {
  return useMutation({
    mutationFn: async (id: number) => {
      const { blob, fileName } = await download('reportKeptDownload', { id });
      downloadBlob(blob, fileName);
    },
    meta: apiErrors,
  });
}

/** Creates a schedule. */
export function useCreateSchedule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (req: ReportScheduleCreateRequest) => (await call('reportScheduleCreate', req)).data.id,
    onSuccess: async () => {
      snackbar('success', i18next.t('reports.created'));
      await qc.invalidateQueries({ queryKey: reportsKeys.schedules() });
    },
    meta: apiErrors,
  });
}

/** Deletes a schedule. */
export function useDeleteSchedule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await call('reportScheduleDelete', { id });
    },
    onSuccess: async () => {
      snackbar('success', i18next.t('reports.deleted'));
      await qc.invalidateQueries({ queryKey: reportsKeys.schedules() });
    },
    meta: apiErrors,
  });
}
