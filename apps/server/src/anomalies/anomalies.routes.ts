import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok } from '../http/answers';

/** Read-side anomaly calls: the model with its anomalies, and the expected band. */
export function anomaliesReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.anomalyModel, (req) => ok(s.anomalies.model(req.user, req.body.token)));
    route(app, routes.anomalyBand, (req) =>
      ok(s.anomalies.band(req.user, req.body.token, req.body.from, req.body.to)),
    );
  };
}

/** Write-side anomaly calls: training a model. */
export function anomaliesWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.anomalyTrain, (req) =>
      ok(s.anomalies.train(req.user, req.body.token, req.body.weeks, req.body.hoursInRow)),
    );
  };
}
