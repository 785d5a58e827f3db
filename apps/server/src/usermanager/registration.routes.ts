import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** Read-side registration call: the registered devices. */
export function registrationReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.registrationList, async (req) => ({
      status: 'OK' as const,
      data: await s.registration.list(req.user),
    }));
  };
}

/** Write-side registration calls: register, rotate and revoke. */
export function registrationWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.registrationAdd, async (req) => ({
      status: 'OK' as const,
      data: await s.registration.add(req.user, req.body, req),
    }));
    route(app, routes.registrationRotate, async (req) => ({
      status: 'OK' as const,
      data: await s.registration.rotate(req.user, req.body.mac, req),
    }));
    route(app, routes.registrationMapping, async (req) => {
      await s.registration.setMapping(req.user, req.body.mac, req.body.mapping);
      return { status: 'OK' as const };
    });
    route(app, routes.registrationRevoke, async (req) => {
      await s.registration.revoke(req.user, req.body.mac);
      return { status: 'OK' as const };
    });
  };
}
