import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { SITE_MAP_MAX_BYTES, routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';

/** Read-side site map calls: the list with live pin states, and a map's image. */
export function siteMapsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.siteMapList, async (req) => {
      return { status: 'OK' as const, data: await s.siteMaps.list(req.user) };
    });
    route(app, routes.siteMapImage, async (req, reply) => {
      // Loaded by the browser as an image URL, so the cookie alone identifies the user.
      const img = await s.siteMaps.image(req.user, req.params.id);
      return reply
        .type(img.type)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(img.bytes);
    });
  };
}

/** Write-side site map calls: upload, rename, delete, and placing or removing pins. */
export function siteMapsWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    // Only this plugin's routes accept multipart; the file is cut one byte past the limit so an
    // oversized one is recognised without being held whole.
    await app.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: SITE_MAP_MAX_BYTES + 1, files: 2, fields: 5, fieldSize: 1000, parts: 7 },
    });
    route(
      app,
      routes.siteMapUpload,
      async (req) => ({
        status: 'OK' as const,
        data: { id: await s.siteMaps.upload(req.user, req.form.fields.name, req.form.files) },
      }),
      {
        multipart: {
          expected: 'user_token, name and one image file',
          tooManyFiles: 'one image file expected',
        },
      },
    );
    route(app, routes.siteMapRename, async (req) => {
      await s.siteMaps.rename(req.user, req.body.id, req.body.name);
      return { status: 'OK' as const };
    });
    route(app, routes.siteMapDelete, async (req) => {
      await s.siteMaps.remove(req.user, req.body.id);
      return { status: 'OK' as const };
    });
    route(app, routes.sitePinSave, async (req) => {
      await s.siteMaps.savePin(req.user, req.body);
      return { status: 'OK' as const };
    });
    route(app, routes.sitePinRemove, async (req) => {
      await s.siteMaps.removePin(req.user, req.body.id, req.body.token);
      return { status: 'OK' as const };
    });
  };
}
