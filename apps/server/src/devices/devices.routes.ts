import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DeviceClockReadRequest,
  DeviceClockResponse,
  DeviceDetailsReadRequest,
  DeviceDetailsResponse,
  DeviceDetailsWriteRequest,
  HierarchyReadRequest,
  HierarchyReadResponse,
  HierarchyWriteRequest,
  OkEnvelope,
  UnassignRequest,
  errorResponses,
} from '@meterportal/protocol';
import type { Services } from '../services';
import { sessionCookie } from '../http/session';

/** Read-side device calls. */
export function devicesReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/facility/devices-hierarchy',
      {
        schema: {
          tags: ['devices'],
          summary: 'The saved device tree (nodes and tags); 610 when none is saved',
          body: HierarchyReadRequest,
          response: { 200: HierarchyReadResponse, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireSession(req.body.token, sessionCookie(req));
        return { status: 'OK' as const, data: await s.devices.readHierarchy(user) };
      },
    );

    app.post(
      '/devices/details',
      {
        schema: {
          tags: ['devices'],
          summary: 'Contract limits of a device: MRK and RK in kW',
          body: DeviceDetailsReadRequest,
          response: { 200: DeviceDetailsResponse, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.devices.readDetails(user, req.body.token) };
      },
    );

    app.post(
      '/devices/clock',
      {
        schema: {
          tags: ['devices'],
          summary: "How far the meter's clock is off while its frames are refused for their time",
          body: DeviceClockReadRequest,
          response: { 200: DeviceClockResponse, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.devices.readClock(user, req.body.token) };
      },
    );
  };
}

/** Write-side device calls. */
export function devicesWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/facility/devices-hierarchy',
      {
        schema: {
          tags: ['devices'],
          summary: 'Save the device tree; menu is the JSON text of {nodes, tags}',
          body: HierarchyWriteRequest,
          response: { 200: OkEnvelope, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireSession(req.body.token, sessionCookie(req));
        await s.devices.saveHierarchy(user, req.body.menu);
        return { status: 'OK' as const };
      },
    );

    app.delete(
      '/assign',
      {
        schema: {
          tags: ['devices'],
          summary: "Remove the signed-in user's own assignment of a device",
          body: UnassignRequest,
          response: { 200: OkEnvelope, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        await s.devices.unassign(user, req.body.token, req.body.login);
        return { status: 'OK' as const };
      },
    );

    app.post(
      '/devices/details',
      {
        schema: {
          tags: ['devices'],
          summary: 'Set MRK and RK (kW, 0 to 100000000, 3 decimals); owners only',
          body: DeviceDetailsWriteRequest,
          response: { 200: OkEnvelope, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        await s.devices.saveDetails(user, req.body.token, req.body.MRK, req.body.RK);
        return { status: 'OK' as const };
      },
    );
  };
}
