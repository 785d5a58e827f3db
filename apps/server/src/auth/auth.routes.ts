import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { Unauthenticated } from '../http/errors';
import { route } from '../http/route';
import { clearSessionCookie, setSessionCookie } from '../http/session';
import type { SignIn } from './auth.service';

const signedIn = (s: SignIn) => ({ status: 'OK' as const, data: s.devices, user: s.user });

/** Read-side sign-in calls. */
export function authReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.authLocal, async (req, reply) => {
      const b = req.body;
      // A body with the session token is a refresh of the session the preHandler has resolved.
      if ('token' in b) {
        if (!req.user) throw new Unauthenticated();
        return signedIn(await s.auth.refresh(req.user, b.token));
      }
      const r = await s.auth.loginLocal(b.login, b.password, req.ip);
      setSessionCookie(s.config, req, reply, r.token, r.expiresAtMs);
      return signedIn(r);
    });

    route(app, routes.authGoogle, async (req, reply) => {
      const r = await s.auth.loginOidc({ accessToken: req.body.token, idToken: req.body.id_token }, req.ip);
      setSessionCookie(s.config, req, reply, r.token, r.expiresAtMs);
      return signedIn(r);
    });

    route(app, routes.applicationAccess, async (req) => {
      s.auth.checkApplication(req.user, req.body.application);
      return { status: 'OK' as const };
    });
  };
}

/** Write-side account calls. */
export function authWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.changePassword, async (req, reply) => {
      await s.auth.changePassword(req.user, req.body);
      clearSessionCookie(reply);
      return { status: 'OK' as const };
    });

    route(app, routes.logout, async (req, reply) => {
      await s.auth.logout(req.user);
      clearSessionCookie(reply);
      return { status: 'OK' as const };
    });
  };
}
