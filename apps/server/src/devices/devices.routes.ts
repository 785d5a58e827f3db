import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** Read-side device calls. */
export function devicesReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.hierarchyRead, async (req) => {
      return { status: 'OK' as const, data: await s.devices.readHierarchy(req.user) };
    });

    route(app, routes.detailsRead, async (req) => {
      return { status: 'OK' as const, data: await s.devices.readDetails(req.user, req.body.token) };
    });

    route(app, routes.deviceClock, async (req) => {
      return { status: 'OK' as const, data: await s.devices.readClock(req.user, req.body.token) };
    });
  };
}

/** Write-side device calls. */
export function devicesWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.hierarchySave, async (req) => {
      await s.devices.saveHierarchy(req.user, req.body.menu);
      return { status: 'OK' as const };
    });

    route(app, routes.unassignOwn, async (req) => {
      await s.devices.unassign(req.user, req.body.token, req.body.login);
      return { status: 'OK' as const };
    });

    route(app, routes.detailsSave, async (req) => {
      await s.devices.saveDetails(req.user, req.body.token, req.body.MRK, req.body.RK);
      return { status: 'OK' as const };
    });
  };
}
