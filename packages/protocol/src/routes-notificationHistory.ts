import { OkEnvelope } from './common';
import {
  NotificationHistoryRequest,
  NotificationHistoryResponse,
  NotificationReadRequest,
} from './notificationHistory';
import { EmailDestinationRequest, EmailDestinationResponse } from './notifications';
import type { RouteDef } from './routes';

/** The notification history, its read marks, and whether e-mail can be a destination. */
export const notificationHistoryRoutes = {
  notificationHistory: {
    door: 'read',
    method: 'POST',
    path: '/notifications/history',
    session: 'user',
    tag: 'notifications',
    summary:
      "Stored notifications of the user's devices, newest first, paged by before_id, filtered by device, type, time and read state",
    body: NotificationHistoryRequest,
    response: NotificationHistoryResponse,
  },
  notificationRead: {
    door: 'write',
    method: 'POST',
    path: '/notifications/read',
    session: 'user',
    tag: 'notifications',
    summary: "Mark notifications read for the signed-in user; 605 when one is not of the user's devices",
    body: NotificationReadRequest,
    response: OkEnvelope,
  },
  emailDestination: {
    door: 'read',
    method: 'POST',
    path: '/tools/notifications/email',
    session: 'user',
    tag: 'notifications',
    summary: 'Whether the installation sends e-mail (SMTP_URL set), so e-mail can be a destination',
    body: EmailDestinationRequest,
    response: EmailDestinationResponse,
  },
} as const satisfies Record<string, RouteDef>;
