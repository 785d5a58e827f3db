import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApplicationAccessRequest,
  AuthResponse,
  ChangePasswordRequest,
  GoogleAuthRequest,
  LocalAuthRequest,
  LogoutRequest,
  OkEnvelope,
  errorResponses,
} from '@meterportal/protocol';
import type { Services } from '../services';
import { clearSessionCookie, sessionCookie, setSessionCookie } from '../http/session';
import type { SignIn } from './auth.service';

const signedIn = (s: SignIn) => ({ status: 'OK' as const, data: s.devices, user: s.user });

/** Read-side sign-in calls. */
export function authReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/auth/local',
      {
        schema: {
          tags: ['auth'],
          summary: 'Local sign-in (login + SHA-256 password), or device list refresh with token',
          body: LocalAuthRequest,
          response: { 200: AuthResponse, ...errorResponses },
        },
      },
      async (req, reply) => {
        const b = req.body;
        if ('token' in b) return signedIn(await s.auth.refresh(b.token, sessionCookie(req)));
        const r = await s.auth.loginLocal(b.login, b.password, req.ip);
        setSessionCookie(s.config, req, reply, r.token, r.expiresAtMs);
        return signedIn(r);
      },
    );

    app.post(
      '/auth/google',
      {
        schema: {
          tags: ['auth'],
          summary: 'Identity-provider sign-in with the OpenID Connect access token and ID token',
          body: GoogleAuthRequest,
          response: { 200: AuthResponse, ...errorResponses },
        },
      },
      async (req, reply) => {
        const r = await s.auth.loginOidc({ accessToken: req.body.token, idToken: req.body.id_token }, req.ip);
        setSessionCookie(s.config, req, reply, r.token, r.expiresAtMs);
        return signedIn(r);
      },
    );

    app.post(
      '/applications/access',
      {
        schema: {
          tags: ['auth'],
          summary: 'OK when the user holds the named application right',
          body: ApplicationAccessRequest,
          response: { 200: OkEnvelope, ...errorResponses },
        },
      },
      async (req) => {
        await s.auth.checkApplication(req.body.user_token, sessionCookie(req), req.body.application);
        return { status: 'OK' as const };
      },
    );
  };
}

/** Write-side account calls. */
export function authWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/auth/local/change-password',
      {
        schema: {
          tags: ['auth'],
          summary: 'Change the local password (ends every session of the user)',
          body: ChangePasswordRequest,
          response: { 200: OkEnvelope, ...errorResponses },
        },
      },
      async (req, reply) => {
        await s.auth.changePassword(sessionCookie(req), req.body);
        clearSessionCookie(reply);
        return { status: 'OK' as const };
      },
    );

    app.post(
      '/auth/logout',
      {
        schema: {
          tags: ['auth'],
          summary: 'End the session',
          body: LogoutRequest,
          response: { 200: OkEnvelope, ...errorResponses },
        },
      },
      async (req, reply) => {
        await s.auth.logout(req.body.token, sessionCookie(req));
        clearSessionCookie(reply);
        return { status: 'OK' as const };
      },
    );
  };
}
