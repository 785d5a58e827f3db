import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok, okAfter } from '../http/answers';
import { plainJson } from '../history/history.routes';

/** Read-side tariff calls: versions, cost and peaks. */
export function tariffsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.tariffsRead, (req) => ok(s.tariffs.read(req.user, req.body.token)));
    // A year of hours is 8,760 rows built from typed sums: written out as they are, like /energy.
    route(
      app,
      routes.energyCost,
      (req) => ok(s.history.heavyReads.run(req.user.tokenHash, () => s.tariffs.cost(req.user, req.body))),
      { serializerCompiler: plainJson },
    );
    route(app, routes.energyPeaks, (req) => ok(s.tariffs.peaks(req.user, req.body.token, req.body.months)));
  };
}

/** Write-side tariff calls: owners add, replace and remove versions. */
export function tariffsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.tariffSave, (req) =>
      okAfter(s.tariffs.save(req.user, req.body.token, req.body.tariff)),
    );
    route(app, routes.tariffDelete, (req) =>
      okAfter(s.tariffs.remove(req.user, req.body.token, req.body.validFrom)),
    );
  };
}
