import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SITE_MAP_MAX_BYTES, routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { route } from '../http/route';
import { acceptMultipart } from '../http/multipart';
import { ok, okAfter } from '../http/answers';

/** Read-side site map calls: the list with live pin states, and a map's image. */
export function siteMapsReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.siteMapList, (req) => ok(s.siteMaps.list(req.user)));
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
    await acceptMultipart(app, { maxFileBytes: SITE_MAP_MAX_BYTES, files: 2, fields: 5, parts: 7 });
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
    route(app, routes.siteMapRename, (req) =>
      okAfter(s.siteMaps.rename(req.user, req.body.id, req.body.name)),
    );
    route(app, routes.siteMapDelete, (req) => okAfter(s.siteMaps.remove(req.user, req.body.id)));
    route(app, routes.sitePinSave, (req) => okAfter(s.siteMaps.savePin(req.user, req.body)));
    route(app, routes.sitePinRemove, (req) =>
      okAfter(s.siteMaps.removePin(req.user, req.body.id, req.body.token)),
    );
  };
}
