import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FIRMWARE_IMAGE_MAX_BYTES, routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { acceptMultipart } from '../http/multipart';
import { ok } from '../http/answers';

/** Read-side firmware calls: registered versions and a device's upgrade status. */
export function firmwareReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.firmwareVersions, () => ok(s.firmware.versions()));
    route(app, routes.firmwareStatus, (req) => ok(s.firmware.status(req.user, req.body.token)));
  };
}

/** Write-side firmware calls: registering a version (with its image) and starting an upgrade. */
export function firmwareWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    await acceptMultipart(app, { maxFileBytes: FIRMWARE_IMAGE_MAX_BYTES, files: 2, fields: 5, parts: 8 });
    route(
      app,
      routes.firmwareVersionAdd,
      (req) => ok(s.firmware.addVersion(req.user, req.form.fields, req.form.files)),
      { multipart: { expected: 'user_token, device_type, version and an optional image' } },
    );
    route(app, routes.firmwareUpgrade, (req) => ok(s.firmware.start(req.user, req.body.token, req.body.fw)));
  };
}
