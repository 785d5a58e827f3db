import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import {
  METER_IMAGE_MAX_BYTES,
  METER_IMAGE_MAX_FILES,
  MeterAddRequest,
  MeterAddResponse,
  MeterDatabaseRequest,
  MeterDatabaseResponse,
  MeterDeleteRequest,
  MeterEditRequest,
  MeterImageParams,
  MeterImageQuery,
  MeterImagesAddResponse,
  MeterImagesResponse,
  MeterImagesUploadFields,
  MeterRefRequest,
  MeterTestsResponse,
  MetersListRequest,
  MetersListResponse,
  OkEnvelope,
  errorResponses,
} from '@meterportal/protocol';
import type { Services } from '../services';
import { sessionCookie } from '../http/session';
import { InvalidRequest } from '../http/errors';
import { abortOnDisconnect } from './commands.routes';
import type { UploadedFile } from './meters-fns';

const tags = ['precision'];

/** Reads a meter image upload: the text fields and every file, each cut at the size limit. */
async function readImageUpload(req: FastifyRequest): Promise<{ deviceToken: string; meterId: number; files: UploadedFile[] }> {
  if (!req.isMultipart()) throw new InvalidRequest('Invalid request: expected multipart/form-data with device_token, meter_ID and image files');
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        files.push({ name: part.filename, declaredType: part.mimetype, bytes, truncated: part.file.truncated });
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    // Busboy stops at the part limits; say which limit in the portal's terms.
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw new InvalidRequest(`Invalid request: at most ${METER_IMAGE_MAX_FILES} images per upload`);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new InvalidRequest('Invalid request: too many form fields');
    // Anything else the parser raises is the body's fault: no boundary, a body that ends before
    // its closing boundary, broken part headers.
    const reason = err instanceof Error ? err.message.replace(/^Multipart: /, '') : 'unreadable';
    throw new InvalidRequest(`Invalid request: malformed multipart/form-data body (${reason})`);
  }
  const parsed = MeterImagesUploadFields.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidRequest(`Invalid request at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'bad value'}`);
  }
  return { deviceToken: parsed.data.device_token, meterId: parsed.data.meter_ID, files };
}

/** Read-side meter calls: the list, tests and images of a precision device's meters. */
export function metersReadRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/applied-precision/meters',
      { schema: { tags, summary: "The device's meters, last changed first; 610 when none", body: MetersListRequest, response: { 200: MetersListResponse, ...errorResponses } } },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.meters.list(user, req.body.device_token) };
      },
    );
    app.post(
      '/applied-precision/test-result',
      { schema: { tags, summary: "The meter's stored accuracy tests, newest first; 610 when none", body: MeterRefRequest, response: { 200: MeterTestsResponse, ...errorResponses } } },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.meters.tests(user, req.body.device_token, req.body.ID_meter) };
      },
    );
    app.post(
      '/applied-precision/images/list',
      { schema: { tags, summary: "The meter's images (without their bytes)", body: MeterRefRequest, response: { 200: MeterImagesResponse, ...errorResponses } } },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: await s.meters.images(user, req.body.device_token, req.body.ID_meter) };
      },
    );
    app.get(
      '/applied-precision/images/:ID_image',
      { schema: { tags, summary: 'The bytes of one meter image, with its content type', params: MeterImageParams, querystring: MeterImageQuery, response: errorResponses } },
      async (req, reply) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        const img = await s.meters.image(user, req.query.device_token, req.params.ID_image);
        // Bytes are sent as they are (no serializer), so the untyped reply is the honest one here.
        return (reply as FastifyReply)
          .type(img.type)
          .header('Cache-Control', 'no-store')
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Disposition', `inline; filename="${encodeURIComponent(img.name)}"`)
          .send(img.bytes);
      },
    );
  };
}

/** Write-side meter calls: add, edit, delete, images, and the database exchange with the device. */
export function metersWriteRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    // Only this plugin's routes accept multipart; each file is cut one byte past the limit so an
    // oversized one is recognised without being held whole.
    await app.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: METER_IMAGE_MAX_BYTES + 1, files: METER_IMAGE_MAX_FILES + 1, fields: 10, fieldSize: 1000, parts: METER_IMAGE_MAX_FILES + 11 },
    });
    app.post(
      '/applied-precision/meters/add',
      { schema: { tags, summary: 'Add a meter (device must be online, else 529); the portal assigns IDN, CRC and MTIME', body: MeterAddRequest, response: { 200: MeterAddResponse, ...errorResponses } } },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: { ID_meter: await s.meters.add(user, req.body.device_token, req.body.meter) } };
      },
    );
    app.put(
      '/applied-precision/meters',
      { schema: { tags, summary: 'Replace the fields of a meter; MTIME and CRC are renewed', body: MeterEditRequest, response: { 200: OkEnvelope, ...errorResponses } } },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        await s.meters.edit(user, req.body.device_token, req.body.ID_meter, req.body.meter);
        return { status: 'OK' as const };
      },
    );
    app.delete(
      '/applied-precision/meters',
      { schema: { tags, summary: 'Delete a meter and its images', body: MeterDeleteRequest, response: { 200: OkEnvelope, ...errorResponses } } },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        await s.meters.remove(user, req.body.device_token, req.body.ID_meter);
        return { status: 'OK' as const };
      },
    );
    app.post(
      '/applied-precision/images',
      {
        schema: {
          tags,
          summary: 'Upload meter images (multipart: device_token, meter_ID, files); PNG or JPEG up to 1,000,000 bytes each, all or none',
          consumes: ['multipart/form-data'],
          response: { 200: MeterImagesAddResponse, ...errorResponses },
        },
      },
      async (req) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        const upload = await readImageUpload(req);
        return { status: 'OK' as const, data: { ID_image: await s.meters.addImages(user, upload.deviceToken, upload.meterId, upload.files) } };
      },
    );
    app.post(
      '/applied-precision/upload-database',
      { schema: { tags, summary: "Overwrite the device's meter database with the portal's list; 529 offline, 604 no answer", body: MeterDatabaseRequest, response: { 200: MeterDatabaseResponse, ...errorResponses } } },
      async (req, reply) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: { count: await s.meters.uploadDatabase(user, req.body.device_token, abortOnDisconnect(reply)) } };
      },
    );
    app.post(
      '/applied-precision/download-database',
      { schema: { tags, summary: "Replace the portal's list with the device's meter database; 529 offline, 604 no answer", body: MeterDatabaseRequest, response: { 200: MeterDatabaseResponse, ...errorResponses } } },
      async (req, reply) => {
        const user = await s.auth.requireCookieSession(sessionCookie(req));
        return { status: 'OK' as const, data: { count: await s.meters.downloadDatabase(user, req.body.device_token, abortOnDisconnect(reply)) } };
      },
    );
  };
}
