/** Paths of the tools area (seed 001 section 2), kept apart so the sidebar does not load the area. */
export const TOOLS_ROUTE = '/tools';
export const MONITORING_ROUTE = '/tools/monitoring';
export const NOTIFICATIONS_ROUTE = '/tools/notifications';
export const NOTIFICATION_HISTORY_ROUTE = '/tools/notification-history';
export const ALARMS_ROUTE = '/tools/alarms';
