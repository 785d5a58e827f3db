import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { abortOnDisconnect } from '../precision/commands.routes';

/** Read-side settings call: the settings the device reports now. */
export function settingsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.settingsRead, async (req, reply) => {
      return {
        status: 'OK' as const,
        data: await s.settings.read(req.user, req.body.token, abortOnDisconnect(reply)),
      };
    });
  };
}

/** Write-side settings call: one section written to the device. */
export function settingsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.settingsWrite, async (req) => {
      return { status: 'OK' as const, data: await s.settings.write(req.user, req.body) };
    });
  };
}
