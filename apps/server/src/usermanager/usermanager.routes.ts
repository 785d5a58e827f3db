import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok, okAfter } from '../http/answers';

/** Read-side user-manager calls. */
export function userManagerReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.userList, (req) => ok(s.userManager.listUsers(req.user)));
    route(app, routes.deviceList, (req) => ok(s.userManager.listDevices(req.user)));
  };
}

/** Write-side user-manager calls. */
export function userManagerWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.userAdd, (req) =>
      okAfter(s.userManager.addUser(req.user, req.body.login, req.body.password)),
    );
    route(app, routes.userPassword, (req) =>
      okAfter(s.userManager.setPassword(req.user, req.body.login, req.body.password)),
    );
    route(app, routes.userRemove, (req) => okAfter(s.userManager.removeUser(req.user, req.body.login)));
    route(app, routes.assign, (req) =>
      okAfter(s.userManager.assign(req.user, req.body.login, req.body.device, req.body.lifeTime)),
    );
    route(app, routes.unassign, (req) =>
      okAfter(s.userManager.unassign(req.user, req.body.login, req.body.device)),
    );
  };
}
