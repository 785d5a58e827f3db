import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { ok } from '../http/answers';
import { encodeProfile } from './series-json';

/**
 * Series answers run to megabytes; they are built from typed rows, so they are written out with
 * JSON.stringify instead of being checked point by point again on the way out.
 */
export const plainJson = () => (data: unknown) => JSON.stringify(data);

/** Read-side history calls: minute profiles and energy totals. */
export function historyReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(
      app,
      routes.profile,
      async (req, reply) => {
        const { resolution, data } = await s.history.heavyReads.run(req.user.tokenHash, () =>
          s.history.profile(req.user, req.body),
        );
        // The bytes are the ProfileResponse, written from the columns; Fastify sends a Buffer as is.
        return reply.type('application/json; charset=utf-8').send(encodeProfile(data, resolution));
      },
      { serializerCompiler: plainJson },
    );
    route(
      app,
      routes.energy,
      (req) => ok(s.history.heavyReads.run(req.user.tokenHash, () => s.history.energy(req.user, req.body))),
      { serializerCompiler: plainJson },
    );
  };
}
