import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** Read-side exports: a chart's whole range as a file, counted as one of the session's costly reads. */
export function exportsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.seriesExport, async (req, reply) => {
      const file = await s.history.heavyReads.run(req.user.tokenHash, () =>
        s.exports.export(req.user, req.body),
      );
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .type(file.contentType)
        .send(typeof file.bytes === 'string' ? file.bytes : Buffer.from(file.bytes));
    });
  };
}
