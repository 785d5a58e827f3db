import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { sessionCookie } from '../http/session';

/** Read-side notification calls. */
export function notificationsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.notifications, async (req) => ({
      status: 'OK' as const,
      data: await s.notifications.latest(sessionCookie(req), req.body.device_token, req.body.limit),
    }));
    route(app, routes.webexSpaces, async (req) => ({
      status: 'OK' as const,
      data: await s.notifications.webexSpaces(req.body.user_token, sessionCookie(req)),
    }));
    route(app, routes.pairList, async (req) => ({
      status: 'OK' as const,
      data: await s.notifications.listPairs(req.body.user_token, sessionCookie(req), req.body.device_token),
    }));
  };
}

/** Write-side notification calls. */
export function notificationsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.pairAdd, async (req) => ({
      status: 'OK' as const,
      data: { ID_notify: await s.notifications.addPair(req.body.user_token, sessionCookie(req), req.body) },
    }));
    route(app, routes.pairDelete, async (req) => {
      await s.notifications.deletePair(
        req.body.user_token,
        sessionCookie(req),
        req.body.device_token,
        req.body.ID,
      );
      return { status: 'OK' as const };
    });
  };
}
