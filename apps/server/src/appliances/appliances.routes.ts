import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok } from '../http/answers';

/** Read-side appliance calls: the appliances of a household meter with their figures. */
export function appliancesReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.appliances, (req) => {
      const { token, from, to } = req.body;
      return ok(s.appliances.list(req.user, token, from, to));
    });
  };
}

/** Write-side appliance calls: teaching, removal and the NILM switches. */
export function appliancesWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.applianceTeachStart, (req) =>
      ok(s.appliances.teachStart(req.user, req.body.token, req.body.name)),
    );
    route(app, routes.applianceTeachFinish, (req) =>
      ok(s.appliances.teachFinish(req.user, req.body.token, req.body.name)),
    );
    route(app, routes.applianceImprintRemove, (req) =>
      ok(s.appliances.removeImprint(req.user, req.body.token, req.body.name)),
    );
    route(app, routes.applianceRemove, (req) =>
      ok(s.appliances.remove(req.user, req.body.token, req.body.name)),
    );
    route(app, routes.nilmSettings, (req) => {
      const { token, process, autoLearn } = req.body;
      return ok(s.appliances.saveSettings(req.user, token, { process, autoLearn }));
    });
  };
}
