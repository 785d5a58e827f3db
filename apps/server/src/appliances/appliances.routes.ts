import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** Read-side appliance calls: the appliances of a household meter with their figures. */
export function appliancesReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.appliances, async (req) => {
      const { token, from, to } = req.body;
      return { status: 'OK' as const, data: await s.appliances.list(req.user, token, from, to) };
    });
  };
}

/** Write-side appliance calls: teaching, removal and the NILM switches. */
export function appliancesWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.applianceTeachStart, async (req) => {
      return {
        status: 'OK' as const,
        data: await s.appliances.teachStart(req.user, req.body.token, req.body.name),
      };
    });
    route(app, routes.applianceTeachFinish, async (req) => {
      return {
        status: 'OK' as const,
        data: await s.appliances.teachFinish(req.user, req.body.token, req.body.name),
      };
    });
    route(app, routes.applianceImprintRemove, async (req) => {
      return {
        status: 'OK' as const,
        data: await s.appliances.removeImprint(req.user, req.body.token, req.body.name),
      };
    });
    route(app, routes.applianceRemove, async (req) => {
      return {
        status: 'OK' as const,
        data: await s.appliances.remove(req.user, req.body.token, req.body.name),
      };
    });
    route(app, routes.nilmSettings, async (req) => {
      const { token, process, autoLearn } = req.body;
      return {
        status: 'OK' as const,
        data: await s.appliances.saveSettings(req.user, token, { process, autoLearn }),
      };
    });
  };
}
