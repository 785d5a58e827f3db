import type {
  FolderReportRequest,
  FolderReportScheduleCreateRequest,
  ReportRequest,
  ReportScheduleCreateRequest,
  ReportScheduleUpdateRequest,
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

/** A change of the schedules: on success a toast and the list read again. */
function useScheduleMutation<T>(
  change: (req: T) => Promise<unknown>,
  doneKey: 'reports.created' | 'reports.updated' | 'reports.deleted',
) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (req: T) => {
      await change(req);
    },
    onSuccess: async () => {
      snackbar('success', i18next.t(doneKey));
      await qc.invalidateQueries({ queryKey: reportsKeys.schedules() });
    },
    meta: apiErrors,
  });
}

/** Creates a schedule of a device's report. */
export function useCreateSchedule() {
  return useScheduleMutation(
    (req: ReportScheduleCreateRequest) => call('reportScheduleCreate', req),
    'reports.created',
  );
}

/** Creates a schedule of a folder's report. */
export function useCreateFolderSchedule() {
  return useScheduleMutation(
    (req: FolderReportScheduleCreateRequest) => call('reportFolderScheduleCreate', req),
    'reports.created',
  );
}

/** Changes a schedule's timing, delivery, language or folder. */
export function useUpdateSchedule() {
  return useScheduleMutation(
    (req: ReportScheduleUpdateRequest) => call('reportScheduleUpdate', req),
    'reports.updated',
  );
}

/** Deletes a schedule. */
export function useDeleteSchedule() {
  return useScheduleMutation((id: number) => call('reportScheduleDelete', { id }), 'reports.deleted');
}
