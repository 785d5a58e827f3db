import { ErrorCode, type ExportFormat, type ExportRequestInput } from '@meterportal/protocol';
import { useMutation } from '@tanstack/react-query';
import i18next from 'i18next';
import { download, isApiError, isDataNotFound } from '../../api/http';
import { snackbar } from '../../api/notify';
import type { ErrorMeta } from '../../api/queryClient';
import { downloadBlob } from '../../charts/exporters';

type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** What a chart exports: its series, devices, quantities and range; the format is chosen in the menu. */
export type ExportTarget = Without<ExportRequestInput, 'format'>;

const exportErrors: ErrorMeta = {
  errorKey: (e) =>
    isDataNotFound(e)
      ? 'common.data_not_found'
      : isApiError(e, ErrorCode.InvalidRequest)
        ? 'exports.too_large'
        : 'common.api_communication_error',
};

/** Asks the server for a chart's whole range as a file and saves it under the server's name. */
export function useSeriesExport() {
  return useMutation({
    mutationFn: async ({ target, format }: { target: ExportTarget; format: ExportFormat }) => {
      const { blob, fileName } = await download('seriesExport', { ...target, format });
      downloadBlob(blob, fileName);
    },
    onSuccess: () => snackbar('success', i18next.t('exports.started')),
    meta: exportErrors,
  });
}
