import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { METER_IMAGE_MAX_BYTES, METER_IMAGE_MAX_FILES, routes } from '@meterportal/protocol';
import type { Services } from '../services';
import { sessionCookie } from '../http/session';
import { InvalidRequest } from '../http/errors';
import { route } from '../http/route';
import { abortOnDisconnect } from './commands.routes';
import type { UploadedFile } from './meters-fns';

/** Reads a meter image upload: the text fields and every file, each cut at the size limit. */
async function readImageUpload(
  req: FastifyRequest,
): Promise<{ deviceToken: string; meterId: number; files: UploadedFile[] }> {
  if (!req.isMultipart())
    throw new InvalidRequest(
      'Invalid request: expected multipart/form-data with device_token, meter_ID and image files',
    );
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        files.push({
          name: part.filename,
          declaredType: part.mimetype,
          bytes,
          truncated: part.file.truncated,
        });
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    // Busboy stops at the part limits; say which limit in the portal's terms.
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT')
      throw new InvalidRequest(`Invalid request: at most ${METER_IMAGE_MAX_FILES} images per upload`);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new InvalidRequest('Invalid request: too many form fields');
    // Anything else the parser raises is the body's fault: no boundary, a body that ends before
    // its closing boundary, broken part headers.
    const reason = err instanceof Error ? err.message.replace(/^Multipart: /, '') : 'unreadable';
    throw new InvalidRequest(`Invalid request: malformed multipart/form-data body (${reason})`);
  }
  const parsed = routes.meterImagesUpload.multipart.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidRequest(
      `Invalid request at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'bad value'}`,
    );
  }
  return { deviceToken: parsed.data.device_token, meterId: parsed.data.meter_ID, files };
}

/** Read-side meter calls: the list, tests and images of a precision device's meters. */
export function metersReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, routes.metersList, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      return { status: 'OK' as const, data: await s.meters.list(user, req.body.device_token) };
    });
    route(app, routes.meterTests, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      return {
        status: 'OK' as const,
        data: await s.meters.tests(user, req.body.device_token, req.body.ID_meter),
      };
    });
    route(app, routes.meterImages, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      return {
        status: 'OK' as const,
        data: await s.meters.images(user, req.body.device_token, req.body.ID_meter),
      };
    });
    route(app, routes.meterImage, async (req, reply) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      const img = await s.meters.image(user, req.query.device_token, req.params.ID_image);
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
    // Only this plugin's routes accept multipart; each file is cut one byte past the limit so an
    // oversized one is recognised without being held whole.
    await app.register(multipart, {
      throwFileSizeLimit: false,
      limits: {
        fileSize: METER_IMAGE_MAX_BYTES + 1,
        files: METER_IMAGE_MAX_FILES + 1,
        fields: 10,
        fieldSize: 1000,
        parts: METER_IMAGE_MAX_FILES + 11,
      },
    });
    route(app, routes.meterAdd, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      return {
        status: 'OK' as const,
        data: { ID_meter: await s.meters.add(user, req.body.device_token, req.body.meter) },
      };
    });
    route(app, routes.meterEdit, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      await s.meters.edit(user, req.body.device_token, req.body.ID_meter, req.body.meter);
      return { status: 'OK' as const };
    });
    route(app, routes.meterDelete, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      await s.meters.remove(user, req.body.device_token, req.body.ID_meter);
      return { status: 'OK' as const };
    });
    route(app, routes.meterImagesUpload, async (req) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      const upload = await readImageUpload(req);
      return {
        status: 'OK' as const,
        data: { ID_image: await s.meters.addImages(user, upload.deviceToken, upload.meterId, upload.files) },
      };
    });
    route(app, routes.databaseUpload, async (req, reply) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      return {
        status: 'OK' as const,
        data: { count: await s.meters.uploadDatabase(user, req.body.device_token, abortOnDisconnect(reply)) },
      };
    });
    route(app, routes.databaseDownload, async (req, reply) => {
      const user = await s.auth.requireCookieSession(sessionCookie(req));
      return {
        status: 'OK' as const,
        data: {
          count: await s.meters.downloadDatabase(user, req.body.device_token, abortOnDisconnect(reply)),
        },
      };
    });
  };
}
