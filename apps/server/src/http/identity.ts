import type { FastifyRequest } from 'fastify';
import type { RouteDef, SessionKind } from '@meterportal/protocol';
import type { Session } from '../auth/auth.service';
import { safeEqual } from '../auth/crypto';
import type { TokenCaller } from '../integration/tokens.service';
import { Unauthenticated } from './errors';
import { sessionCookie } from './session';

/** Where a request's caller is looked up: the session store and the integration tokens. */
export interface Identity {
  /** The live session named by a session token. */
  session(sessionToken: string | undefined): Promise<Session>;
  /** The integration token named by an `Authorization` header. */
  bearer(authorization: string | undefined): Promise<TokenCaller>;
}

/** The caller a handler receives for a route's session kind. */
export type CallerOf<K extends SessionKind> = K extends 'user' | 'cookie'
  ? Session
  : K extends 'bearer'
    ? TokenCaller
    : K extends 'signIn'
      ? Session | undefined
      : undefined;

/** Any caller a route may have. */
export type Caller = Session | TokenCaller | undefined;

/**
 * The caller of one request, by the route's declared kind. `fields` are the body, or the text
 * fields of a multipart request, where a `user` route finds its session token.
 */
export async function identify(
  identity: Identity,
  def: RouteDef,
  req: FastifyRequest,
  fields: unknown,
): Promise<Caller> {
  switch (def.session) {
    case 'public':
      return undefined;
    case 'bearer':
      return identity.bearer(req.headers.authorization);
    case 'cookie':
      return identity.session(sessionCookie(req));
    case 'user':
    case 'signIn': {
      const cookie = sessionCookie(req);
      const field = def.userTokenField ?? 'user_token';
      const token =
        typeof fields === 'object' && fields !== null && field in fields
          ? (fields as Record<string, unknown>)[field]
          : undefined;
      // The schema has already required the token where the route needs one; left out, it is
      // optional: a sign-in without a session, or the cookie alone.
      if (token === undefined) return def.session === 'signIn' ? undefined : identity.session(cookie);
      if (typeof token !== 'string' || !token || !cookie || !safeEqual(token, cookie))
        throw new Unauthenticated();
      return identity.session(cookie);
    }
  }
}
