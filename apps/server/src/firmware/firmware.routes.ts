import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { FIRMWARE_IMAGE_MAX_BYTES, routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** Read-side firmware calls: registered versions and a device's upgrade status. */
export function firmwareReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.firmwareVersions, async () => ({
      status: 'OK' as const,
      data: await s.firmware.versions(),
    }));
    route(app, routes.firmwareStatus, async (req) => {
      return { status: 'OK' as const, data: await s.firmware.status(req.user, req.body.token) };
    });
  };
}

/** Write-side firmware calls: registering a version (with its image) and starting an upgrade. */
export function firmwareWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    // Only this plugin's routes accept multipart; the image is cut one byte past the limit so an
    // oversized one is recognised without being held whole.
    await app.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: FIRMWARE_IMAGE_MAX_BYTES + 1, files: 2, fields: 5, fieldSize: 1000, parts: 8 },
    });
    route(
      app,
      routes.firmwareVersionAdd,
      async (req) => ({
        status: 'OK' as const,
        data: await s.firmware.addVersion(req.user, req.form.fields, req.form.files),
      }),
      { multipart: { expected: 'user_token, device_type, version and an optional image' } },
    );
    route(app, routes.firmwareUpgrade, async (req) => {
      return { status: 'OK' as const, data: await s.firmware.start(req.user, req.body.token, req.body.fw) };
    });
  };
}
