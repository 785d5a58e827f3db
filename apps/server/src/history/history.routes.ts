import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { EnergyRequest, EnergyResponse, ProfileRequest, ProfileResponse, errorResponses } from '@meterportal/protocol';
import type { Services } from '../services';
import { sessionCookie } from '../http/session';
import { encodeProfile } from './series-json';

/**
 * Series answers run to megabytes; they are built from typed rows, so they are written out with
 * JSON.stringify instead of being checked point by point again on the way out.
 */
export const plainJson = () => (data: unknown) => JSON.stringify(data);

/** The session a costly read counts against: its cookie, checked by requireCookieSession first. */
const sessionKey = (req: FastifyRequest) => sessionCookie(req) ?? '';

/** Read-side history calls: minute profiles and energy totals. */
export function historyReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/profile',
      {
        serializerCompiler: plainJson,
        schema: {
          tags: ['history'],
          summary: 'Per-phase profiles over a range, per minute up to 2 days, hourly up to 62 days, daily beyond; 610 when nothing is stored; 429 when the session already runs two history reads and four wait',
          body: ProfileRequest,
          response: { 200: ProfileResponse, ...errorResponses },
        },
      },
      async (req, reply) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        const { resolution, data } = await s.history.heavyReads.run(sessionKey(req), () => s.history.profile(user, req.body));
        // The bytes are the ProfileResponse, written from the columns; Fastify sends a Buffer as is.
        const body = encodeProfile(data, resolution) as unknown as z.infer<typeof ProfileResponse>;
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );
    app.post(
      '/energy',
      {
        serializerCompiler: plainJson,
        schema: {
          tags: ['history'],
          summary: 'Energy per 15MIN, HOUR, DAY or MONTH in kWh (kvarh), or the quarter-hour maximum in kW; at most 8,928 periods; 429 as for /profile',
          body: EnergyRequest,
          response: { 200: EnergyResponse, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.history.heavyReads.run(sessionKey(req), () => s.history.energy(user, req.body)) };
      },
    );
  };
}
