import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** Aborts when the client goes away before its answer was sent, so no wait is left behind. */
export function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) ac.abort();
  });
  return ac.signal;
}

/** Read-side device commands: harmonics and waveform of precision analyzers. */
export function precisionReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.harmonics, async (req, reply) => {
      return {
        status: 'OK' as const,
        data: await s.commands.harmonics(req.user, req.body.device_token, abortOnDisconnect(reply)),
      };
    });
    route(app, routes.waveform, async (req, reply) => {
      return {
        status: 'OK' as const,
        data: await s.commands.waveform(req.user, req.body.device_token, abortOnDisconnect(reply)),
      };
    });
  };
}

/** Write-side device commands: the relay of a disconnector (recorded in its switching history). */
export function commandsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.relay, async (req) => {
      return {
        status: 'OK' as const,
        data: { state: await s.relay.switchRelay(req.user, req.body.token, req.body.state) },
      };
    });
  };
}
