import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok, okAfter } from '../http/answers';

/** Read-side device calls. */
export function devicesReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.hierarchyRead, (req) => ok(s.devices.readHierarchy(req.user)));

    route(app, routes.detailsRead, (req) => ok(s.devices.readDetails(req.user, req.body.token)));

    route(app, routes.deviceClock, (req) => ok(s.devices.readClock(req.user, req.body.token)));
  };
}

/** Write-side device calls. */
export function devicesWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.hierarchySave, (req) => okAfter(s.devices.saveHierarchy(req.user, req.body.menu)));

    route(app, routes.unassignOwn, (req) =>
      okAfter(s.devices.unassign(req.user, req.body.token, req.body.login)),
    );

    route(app, routes.detailsSave, (req) =>
      okAfter(s.devices.saveDetails(req.user, req.body.token, req.body.MRK, req.body.RK)),
    );
  };
}
