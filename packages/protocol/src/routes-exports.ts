import { ExportRequest } from './exports';
import type { RouteDef } from './routes';

/** Series exports: a chart's whole range as a CSV or XLSX file, written by the server. */
export const exportsRoutes = {
  seriesExport: {
    door: 'read',
    method: 'POST',
    path: '/exports',
    session: 'cookie',
    tag: 'exports',
    summary:
      'Profiles or energy totals (with cost) of one or more devices over a range, as a CSV or XLSX file',
    body: ExportRequest,
    response: null,
  },
} as const satisfies Record<string, RouteDef>;
