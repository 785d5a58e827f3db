import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/config';

/** Name of the HttpOnly session cookie. */
export const SESSION_COOKIE = 'mp_session';

/** The session cookie of a request, if any. */
export function sessionCookie(req: FastifyRequest): string | undefined {
  return req.cookies[SESSION_COOKIE];
}

/** Sets the session cookie next to the token the body answer carries. */
export function setSessionCookie(
  config: Config,
  req: FastifyRequest,
  reply: FastifyReply,
  token: string,
  expiresAtMs: number,
): void {
  const sameSite = config.COOKIE_SAMESITE;
  void reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite,
    secure: sameSite === 'none' || (config.COOKIE_SECURE ?? req.protocol === 'https'),
    path: '/',
    expires: new Date(expiresAtMs),
  });
}

/** Clears the session cookie. */
export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
