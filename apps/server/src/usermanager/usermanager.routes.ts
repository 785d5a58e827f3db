import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

const ok = { status: 'OK' as const };

/** Read-side user-manager calls. */
export function userManagerReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.userList, async (req) => ({
      status: 'OK' as const,
      data: await s.userManager.listUsers(req.user),
    }));
    route(app, routes.deviceList, async (req) => ({
      status: 'OK' as const,
      data: await s.userManager.listDevices(req.user),
    }));
  };
}

/** Write-side user-manager calls. */
export function userManagerWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.userAdd, async (req) => {
      await s.userManager.addUser(req.user, req.body.login, req.body.password);
      return ok;
    });
    route(app, routes.userPassword, async (req) => {
      await s.userManager.setPassword(req.user, req.body.login, req.body.password);
      return ok;
    });
    route(app, routes.userRemove, async (req) => {
      await s.userManager.removeUser(req.user, req.body.login);
      return ok;
    });
    route(app, routes.assign, async (req) => {
      await s.userManager.assign(req.user, req.body.login, req.body.device, req.body.lifeTime);
      return ok;
    });
    route(app, routes.unassign, async (req) => {
      await s.userManager.unassign(req.user, req.body.login, req.body.device);
      return ok;
    });
  };
}
