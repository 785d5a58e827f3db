import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MonitoringRequest, MonitoringResponse, errorResponses } from '@meterportal/protocol';
import type { Services } from '../services';
import { sessionCookie } from '../http/session';

/** Read-side tools calls: device availability. */
export function monitoringReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/tools/monitoring',
      {
        schema: {
          tags: ['tools'],
          summary: 'Availability per 30-minute or minute slot, or per day (hours online and offline, uptime)',
          body: MonitoringRequest,
          response: { 200: MonitoringResponse, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.monitoring.monitoring(user, req.body) };
      },
    );
  };
}
