import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  NotificationListRequest,
  NotificationListResponse,
  OkEnvelope,
  PairAddRequest,
  PairAddResponse,
  PairDeleteRequest,
  PairListRequest,
  PairListResponse,
  WebexSpacesRequest,
  WebexSpacesResponse,
  errorResponses,
} from '@meterportal/protocol';
import type { Services } from '../services';
import { sessionCookie } from '../http/session';

const tags = ['notifications'];

/** Read-side notification calls. */
export function notificationsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/notifications',
      { schema: { tags, summary: 'The latest notifications of a device', body: NotificationListRequest, response: { 200: NotificationListResponse, ...errorResponses } } },
      async (req) => ({ status: 'OK' as const, data: await s.notifications.latest(sessionCookie(req), req.body.device_token, req.body.limit) }),
    );
    app.post(
      '/tools/notifications/webex-spaces',
      { schema: { tags, summary: 'Webex spaces the bot can post to; 610 when no bot is configured', body: WebexSpacesRequest, response: { 200: WebexSpacesResponse, ...errorResponses } } },
      async (req) => ({ status: 'OK' as const, data: await s.notifications.webexSpaces(req.body.user_token, sessionCookie(req)) }),
    );
    app.post(
      '/tools/notifications/pair',
      { schema: { tags, summary: "The user's notification pairs of a device", body: PairListRequest, response: { 200: PairListResponse, ...errorResponses } } },
      async (req) => ({
        status: 'OK' as const,
        data: await s.notifications.listPairs(req.body.user_token, sessionCookie(req), req.body.device_token),
      }),
    );
  };
}

/** Write-side notification calls. */
export function notificationsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/tools/notifications/pair',
      { schema: { tags, summary: 'Route a notification source of a device to a destination', body: PairAddRequest, response: { 200: PairAddResponse, ...errorResponses } } },
      async (req) => ({
        status: 'OK' as const,
        data: { ID_notify: await s.notifications.addPair(req.body.user_token, sessionCookie(req), req.body) },
      }),
    );
    app.delete(
      '/tools/notifications/pair',
      { schema: { tags, summary: 'Remove a notification pair', body: PairDeleteRequest, response: { 200: OkEnvelope, ...errorResponses } } },
      async (req) => {
        await s.notifications.deletePair(req.body.user_token, sessionCookie(req), req.body.device_token, req.body.ID);
        return { status: 'OK' as const };
      },
    );
  };
}
