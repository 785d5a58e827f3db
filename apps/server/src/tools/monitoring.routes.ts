import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** Read-side tools calls: device availability. */
export function monitoringReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.monitoring, async (req) => {
      return { status: 'OK' as const, data: await s.monitoring.monitoring(req.user, req.body) };
    });
  };
}
