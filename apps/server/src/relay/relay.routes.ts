import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok } from '../http/answers';

/** Read-side relay calls: the relay history of a disconnector. */
export function relayReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.relayHistory, (req) => ok(s.relay.history(req.user, req.body.token)));
  };
}
