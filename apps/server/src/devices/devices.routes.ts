import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { sessionCookie } from '../http/session';

/** Read-side device calls. */
export function devicesReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.hierarchyRead, async (req) => {
      const user = await s.auth.requireSession(req.body.token, sessionCookie(req));
      return { status: 'OK' as const, data: await s.devices.readHierarchy(user) };
    });

    route(app, routes.detailsRead, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      return { status: 'OK' as const, data: await s.devices.readDetails(user, req.body.token) };
    });

    route(app, routes.deviceClock, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      return { status: 'OK' as const, data: await s.devices.readClock(user, req.body.token) };
    });
  };
}

/** Write-side device calls. */
export function devicesWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.hierarchySave, async (req) => {
      const user = await s.auth.requireSession(req.body.token, sessionCookie(req));
      await s.devices.saveHierarchy(user, req.body.menu);
      return { status: 'OK' as const };
    });

    route(app, routes.unassignOwn, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      await s.devices.unassign(user, req.body.token, req.body.login);
      return { status: 'OK' as const };
    });

    route(app, routes.detailsSave, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      await s.devices.saveDetails(user, req.body.token, req.body.MRK, req.body.RK);
      return { status: 'OK' as const };
    });
  };
}
