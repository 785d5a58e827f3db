import type { FastifyInstance, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { Config } from '../config/config';
import { sessionCookie } from '../http/session';
import type { LiveHub } from './hub';

/**
 * A browser's Origin must be this server's own host or one of ALLOWED_ORIGINS, so a page on
 * another site cannot open a socket with the user's cookie. Clients that send no Origin (devices,
 * scripts) are let through to the session check.
 */
export function originAllowed(req: FastifyRequest, config: Config): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  if (config.ALLOWED_ORIGINS.includes(origin)) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/** The websocket door at /ws. */
export async function registerLiveRoutes(app: FastifyInstance, config: Config, hub: LiveHub): Promise<void> {
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  app.get(
    '/ws',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (req, reply) => {
        if (!originAllowed(req, config))
          await reply.code(403).send({ status: 'ERROR', code: 602, message: 'Origin not allowed' });
      },
    },
    (socket, req) => {
      hub.accept(socket, sessionCookie(req));
    },
  );
}
