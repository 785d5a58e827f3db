import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { METER_IMAGE_MAX_BYTES, METER_IMAGE_MAX_FILES, routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { acceptMultipart } from '../http/multipart';
import { ok, okAfter } from '../http/answers';
import { abortOnDisconnect } from './commands.routes';

/** Read-side meter calls: the list, tests and images of a precision device's meters. */
export function metersReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.metersList, (req) => ok(s.meters.list(req.user, req.body.device_token)));
    route(app, routes.meterTests, (req) =>
      ok(s.meters.tests(req.user, req.body.device_token, req.body.ID_meter)),
    );
    route(app, routes.meterImages, (req) =>
      ok(s.meters.images(req.user, req.body.device_token, req.body.ID_meter)),
    );
    route(app, routes.meterImage, async (req, reply) => {
      const img = await s.meters.image(req.user, req.query.device_token, req.params.ID_image);
      // Bytes are sent as they are: the table gives this route no answer schema.
      return reply
        .type(img.type)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', `inline; filename="${encodeURIComponent(img.name)}"`)
        .send(img.bytes);
    });
  };
}

/** Write-side meter calls: add, edit, delete, images, and the database exchange with the device. */
export function metersWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    await acceptMultipart(app, {
      maxFileBytes: METER_IMAGE_MAX_BYTES,
      files: METER_IMAGE_MAX_FILES + 1,
      fields: 10,
      parts: METER_IMAGE_MAX_FILES + 11,
    });
    route(app, routes.meterAdd, async (req) => {
      return {
        status: 'OK' as const,
        data: { ID_meter: await s.meters.add(req.user, req.body.device_token, req.body.meter) },
      };
    });
    route(app, routes.meterEdit, (req) =>
      okAfter(s.meters.edit(req.user, req.body.device_token, req.body.ID_meter, req.body.meter)),
    );
    route(app, routes.meterDelete, (req) =>
      okAfter(s.meters.remove(req.user, req.body.device_token, req.body.ID_meter)),
    );
    route(
      app,
      routes.meterImagesUpload,
      async (req) => {
        const { fields, files } = req.form;
        return {
          status: 'OK' as const,
          data: { ID_image: await s.meters.addImages(req.user, fields.device_token, fields.meter_ID, files) },
        };
      },
      {
        multipart: {
          expected: 'device_token, meter_ID and image files',
          tooManyFiles: `at most ${METER_IMAGE_MAX_FILES} images per upload`,
        },
      },
    );
    route(app, routes.databaseUpload, async (req, reply) => {
      return {
        status: 'OK' as const,
        data: {
          count: await s.meters.uploadDatabase(req.user, req.body.device_token, abortOnDisconnect(reply)),
        },
      };
    });
    route(app, routes.databaseDownload, async (req, reply) => {
      return {
        status: 'OK' as const,
        data: {
          count: await s.meters.downloadDatabase(req.user, req.body.device_token, abortOnDisconnect(reply)),
        },
      };
    });
  };
}
