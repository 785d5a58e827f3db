import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EnergyRequest, EnergyResponse, ProfileRequest, ProfileResponse, errorResponses } from '@meterportal/protocol';
import type { Services } from '../services';
import { sessionCookie } from '../http/session';

/**
 * Series answers run to megabytes; they are built from typed rows, so they are written out with
 * JSON.stringify instead of being checked point by point again on the way out.
 */
export const plainJson = () => (data: unknown) => JSON.stringify(data);

/** Read-side history calls: minute profiles and energy totals. */
export function historyReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/profile',
      {
        serializerCompiler: plainJson,
        schema: {
          tags: ['history'],
          summary: 'Per-phase profiles of the chosen quantities over a range; 610 when nothing is stored',
          body: ProfileRequest,
          response: { 200: ProfileResponse, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.history.profile(user, req.body) };
      },
    );
    app.post(
      '/energy',
      {
        serializerCompiler: plainJson,
        schema: {
          tags: ['history'],
          summary: 'Energy per 15MIN, HOUR, DAY or MONTH in kWh (kvarh), or the quarter-hour maximum in kW',
          body: EnergyRequest,
          response: { 200: EnergyResponse, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.history.energy(user, req.body) };
      },
    );
  };
}
