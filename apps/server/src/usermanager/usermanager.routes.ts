import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AssignRequest,
  DeviceListResponse,
  OkEnvelope,
  UnassignByManagerRequest,
  UserAddRequest,
  UserListResponse,
  UserManagerListRequest,
  UserRemoveRequest,
  errorResponses,
} from '@meterportal/protocol';
import type { Services } from '../services';
import { sessionCookie } from '../http/session';

const tags = ['usermanager'];
const ok = { status: 'OK' as const };

/** Read-side user-manager calls. */
export function userManagerReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/applications/usermanager/user/list',
      { schema: { tags, summary: 'Every user with the devices assigned', body: UserManagerListRequest, response: { 200: UserListResponse, ...errorResponses } } },
      async (req) => ({ status: 'OK' as const, data: await s.userManager.listUsers(req.body.user_token, sessionCookie(req)) }),
    );
    app.post(
      '/applications/usermanager/device/list',
      { schema: { tags, summary: 'Every device of the installation', body: UserManagerListRequest, response: { 200: DeviceListResponse, ...errorResponses } } },
      async (req) => ({ status: 'OK' as const, data: await s.userManager.listDevices(req.body.user_token, sessionCookie(req)) }),
    );
  };
}

/** Write-side user-manager calls. */
export function userManagerWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/applications/usermanager/user/add',
      { schema: { tags, summary: 'Create a local user', body: UserAddRequest, response: { 200: OkEnvelope, ...errorResponses } } },
      async (req) => {
        await s.userManager.addUser(req.body.user_token, sessionCookie(req), req.body.login, req.body.password);
        return ok;
      },
    );
    app.put(
      '/applications/usermanager/user/add',
      { schema: { tags, summary: "Set a user's password (ends the user's sessions)", body: UserAddRequest, response: { 200: OkEnvelope, ...errorResponses } } },
      async (req) => {
        await s.userManager.setPassword(req.body.user_token, sessionCookie(req), req.body.login, req.body.password);
        return ok;
      },
    );
    app.delete(
      '/applications/usermanager/user/remove',
      { schema: { tags, summary: 'Delete a user (not yourself, not the last user manager)', body: UserRemoveRequest, response: { 200: OkEnvelope, ...errorResponses } } },
      async (req) => {
        await s.userManager.removeUser(req.body.user_token, sessionCookie(req), req.body.login);
        return ok;
      },
    );
    app.post(
      '/applications/usermanager/assign',
      { schema: { tags, summary: 'Assign a device until lifeTime (32535215940 = owner)', body: AssignRequest, response: { 200: OkEnvelope, ...errorResponses } } },
      async (req) => {
        await s.userManager.assign(req.body.user_token, sessionCookie(req), req.body.login, req.body.device, req.body.lifeTime);
        return ok;
      },
    );
    app.delete(
      '/applications/usermanager/assign',
      { schema: { tags, summary: "Remove a device from a user", body: UnassignByManagerRequest, response: { 200: OkEnvelope, ...errorResponses } } },
      async (req) => {
        await s.userManager.unassign(req.body.user_token, sessionCookie(req), req.body.login, req.body.device);
        return ok;
      },
    );
  };
}
