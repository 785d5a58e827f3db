import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes, type IntegrationSeriesResponse } from '@meterportal/protocol';
import type { Services } from '../services';
import { plainJson } from '../history/history.routes';
import { route } from '../http/route';
import { csvText, jsonRows, wantsCsv } from './integration-fns';
import type { DeviceSeries } from './integration.service';
import type { TokenCaller } from './tokens.service';

/** Token management with the session: list (read door). */
export function integrationTokensReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.integrationTokenList, async (req) => {
      const session = req.user;
      return { status: 'OK' as const, data: await s.integrationTokens.list(session) };
    });
  };
}

/** Token management with the session: create and revoke (write door). */
export function integrationTokensWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.integrationTokenCreate, async (req) => {
      const session = req.user;
      return { status: 'OK' as const, data: await s.integrationTokens.create(session, req.body) };
    });
    route(app, routes.integrationTokenRevoke, async (req) => {
      const session = req.user;
      await s.integrationTokens.revoke(session, req.body.id);
      return { status: 'OK' as const };
    });
  };
}

/**
 * The integration API (/v1 below the read door): every call names its token in
 * `Authorization: Bearer`, and an answered call counts as the token's last use.
 */
export function integrationApiRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    /** Series reads count against the token like a session's reads against the session. */
    const heavy = <T>(caller: TokenCaller, read: () => Promise<T>) =>
      s.history.heavyReads.run(`integration:${caller.tokenId}`, read);

    async function answer(
      req: FastifyRequest,
      reply: FastifyReply,
      caller: TokenCaller,
      kind: 'profile' | 'energy',
      format: 'json' | 'csv' | undefined,
      series: DeviceSeries,
    ): Promise<FastifyReply> {
      await s.integrationTokens.touch(caller);
      const tz = s.config.TZ;
      void reply.header('cache-control', 'no-store');
      if (wantsCsv(format, req.headers.accept)) {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `inline; filename="${series.device.serial}-${kind}.csv"`)
          .send(csvText(series.table, tz));
      }
      const body: IntegrationSeriesResponse = {
        status: 'OK',
        device: series.device,
        timeZone: tz,
        resolution: series.resolution,
        columns: series.table.columns,
        data: jsonRows(series.table, tz),
      };
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
    }

    route(app, routes.integrationDevices, async (req, reply) => {
      const caller = await s.integrationTokens.authenticate(req.headers.authorization);
      const data = await s.integration.devices(caller);
      await s.integrationTokens.touch(caller);
      void reply.header('cache-control', 'no-store');
      return { status: 'OK' as const, timeZone: s.config.TZ, data };
    });
    route(
      app,
      routes.integrationProfile,
      async (req, reply) => {
        const caller = await s.integrationTokens.authenticate(req.headers.authorization);
        const series = await heavy(caller, () => s.integration.profile(caller, req.params.mac, req.query));
        return answer(req, reply, caller, 'profile', req.query.format, series);
      },
      { serializerCompiler: plainJson },
    );
    route(
      app,
      routes.integrationEnergy,
      async (req, reply) => {
        const caller = await s.integrationTokens.authenticate(req.headers.authorization);
        const series = await heavy(caller, () => s.integration.energy(caller, req.params.mac, req.query));
        return answer(req, reply, caller, 'energy', req.query.format, series);
      },
      { serializerCompiler: plainJson },
    );
  };
}
