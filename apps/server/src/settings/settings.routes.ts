import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok } from '../http/answers';
import { abortOnDisconnect } from '../precision/commands.routes';

/** Read-side settings call: the settings the device reports now. */
export function settingsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.settingsRead, (req, reply) =>
      ok(s.settings.read(req.user, req.body.token, abortOnDisconnect(reply))),
    );
  };
}

/** Write-side settings call: one section written to the device. */
export function settingsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.settingsWrite, (req) => ok(s.settings.write(req.user, req.body)));
  };
}
