import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok, okAfter } from '../http/answers';

/** Read-side registration call: the registered devices. */
export function registrationReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.registrationList, (req) => ok(s.registration.list(req.user)));
  };
}

/** Write-side registration calls: register, rotate and revoke. */
export function registrationWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.registrationAdd, (req) => ok(s.registration.add(req.user, req.body, req)));
    route(app, routes.registrationRotate, (req) => ok(s.registration.rotate(req.user, req.body.mac, req)));
    route(app, routes.registrationMapping, (req) =>
      okAfter(s.registration.setMapping(req.user, req.body.mac, req.body.mapping)),
    );
    route(app, routes.registrationRevoke, (req) => okAfter(s.registration.revoke(req.user, req.body.mac)));
  };
}
