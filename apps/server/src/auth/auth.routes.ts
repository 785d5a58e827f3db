import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { clearSessionCookie, sessionCookie, setSessionCookie } from '../http/session';
import type { SignIn } from './auth.service';

const signedIn = (s: SignIn) => ({ status: 'OK' as const, data: s.devices, user: s.user });

/** Read-side sign-in calls. */
export function authReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.authLocal, async (req, reply) => {
      const b = req.body;
      if ('token' in b) return signedIn(await s.auth.refresh(b.token, sessionCookie(req)));
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
      await s.auth.checkApplication(req.body.user_token, sessionCookie(req), req.body.application);
      return { status: 'OK' as const };
    });
  };
}

/** Write-side account calls. */
export function authWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.changePassword, async (req, reply) => {
      await s.auth.changePassword(sessionCookie(req), req.body);
      clearSessionCookie(reply);
      return { status: 'OK' as const };
    });

    route(app, routes.logout, async (req, reply) => {
      await s.auth.logout(req.body.token, sessionCookie(req));
      clearSessionCookie(reply);
      return { status: 'OK' as const };
    });
  };
}
