import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { plainJson } from '../history/history.routes';

/** Read-side tariff calls: versions, cost and peaks. */
export function tariffsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.tariffsRead, async (req) => {
      return { status: 'OK' as const, data: await s.tariffs.read(req.user, req.body.token) };
    });
    // A year of hours is 8,760 rows built from typed sums: written out as they are, like /energy.
    route(
      app,
      routes.energyCost,
      async (req) => {
        return {
          status: 'OK' as const,
          data: await s.history.heavyReads.run(req.user.tokenHash, () => s.tariffs.cost(req.user, req.body)),
        };
      },
      { serializerCompiler: plainJson },
    );
    route(app, routes.energyPeaks, async (req) => {
      return {
        status: 'OK' as const,
        data: await s.tariffs.peaks(req.user, req.body.token, req.body.months),
      };
    });
  };
}

/** Write-side tariff calls: owners add, replace and remove versions. */
export function tariffsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.tariffSave, async (req) => {
      await s.tariffs.save(req.user, req.body.token, req.body.tariff);
      return { status: 'OK' as const };
    });
    route(app, routes.tariffDelete, async (req) => {
      await s.tariffs.remove(req.user, req.body.token, req.body.validFrom);
      return { status: 'OK' as const };
    });
  };
}
