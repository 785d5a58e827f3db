import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** Read-side power quality: a week's EN 50160 verdict, counted as one of the session's costly reads. */
export function powerQualityReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.powerQualityWeek, async (req) => {
      const data = await s.history.heavyReads.run(req.user.tokenHash, () =>
        s.powerQuality.week(req.user, req.body.token, req.body.week),
      );
      return { status: 'OK' as const, data };
    });
  };
}
