import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok } from '../http/answers';

/** Read-side tools calls: device availability. */
export function monitoringReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.monitoring, (req) => ok(s.monitoring.monitoring(req.user, req.body)));
  };
}
