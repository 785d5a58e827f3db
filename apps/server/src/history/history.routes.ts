import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EnergyRequest, EnergyResponse, ProfileRequest, ProfileResponse, errorResponses } from '@meterportal/protocol';
import type { z } from 'zod';
import type { Services } from '../services';
import { sessionCookie } from '../http/session';
import { seriesJson } from './series-json';

/**
 * Series answers run to megabytes; they are built from typed rows, so they are written out with
 * JSON.stringify instead of being checked point by point again on the way out.
 */
export const plainJson = () => (data: unknown) => JSON.stringify(data);

/** As plainJson, writing column-held profile series without building their pairs. */
const profileJson = () => (data: unknown) => seriesJson(data);
/** The profile answer's data as the contract types it; column-held series write as its pairs. */
type ProfileData = Extract<z.infer<typeof ProfileResponse>, { status: 'OK' }>['data'];

/** Read-side history calls: minute profiles and energy totals. */
export function historyReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/profile',
      {
        serializerCompiler: profileJson,
        schema: {
          tags: ['history'],
          summary: 'Per-phase profiles of the chosen quantities over a range; 610 when nothing is stored',
          body: ProfileRequest,
          response: { 200: ProfileResponse, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        // ColumnSeries values are written by profileJson as the very [time, value] pairs.
        return { status: 'OK' as const, data: (await s.history.profile(user, req.body)) as unknown as ProfileData };
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
