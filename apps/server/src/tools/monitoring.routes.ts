import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { sessionCookie } from '../http/session';

/** Read-side tools calls: device availability. */
export function monitoringReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.monitoring, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      return { status: 'OK' as const, data: await s.monitoring.monitoring(user, req.body) };
    });
  };
}
