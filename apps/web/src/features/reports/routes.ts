/** Path of the reports page, kept apart so the sidebar does not load the page. */
export const REPORTS_ROUTE = '/tools/reports';
