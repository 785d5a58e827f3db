import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { z } from 'zod';
import { InvalidRequest } from './errors';

/** How much a multipart request of a plugin's routes may hold. */
export interface MultipartLimits {
  /** Largest accepted file, bytes. */
  maxFileBytes: number;
  files: number;
  fields: number;
  parts: number;
}

/**
 * Lets the routes of this plugin (and only these) accept multipart/form-data. Each file is cut one
 * byte past `maxFileBytes`, so an oversized one is recognised without being held whole.
 */
export async function acceptMultipart(app: FastifyInstance, limits: MultipartLimits): Promise<void> {
  const { maxFileBytes, files, fields, parts } = limits;
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: maxFileBytes + 1, files, fields, fieldSize: 1000, parts },
  });
}

/** A file of a multipart request, cut one byte past the plugin's size limit. */
export interface MultipartFile {
  name: string;
  declaredType: string;
  bytes: Buffer;
  /** True when the file was longer than the limit. */
  truncated: boolean;
}

/**
 * Reads a multipart/form-data request: its text fields through the route's schema and every
 * file. Malformed bodies and broken limits answer 600 with the reason; `tooManyFiles` says the
 * file limit in the route's terms.
 */
export async function readMultipart<S extends z.ZodType>(
  req: FastifyRequest,
  fieldsSchema: S,
  expected: string,
  tooManyFiles = 'too many files',
): Promise<{ fields: z.output<S>; files: MultipartFile[] }> {
  if (!req.isMultipart())
    throw new InvalidRequest(`Invalid request: expected multipart/form-data with ${expected}`);
  const raw: Record<string, string> = {};
  const files: MultipartFile[] = [];
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
        raw[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    // Busboy stops at the part limits; say which limit.
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw new InvalidRequest(`Invalid request: ${tooManyFiles}`);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new InvalidRequest('Invalid request: too many form fields');
    // Anything else the parser raises is the body's fault: no boundary, a body that ends before
    // its closing boundary, broken part headers.
    const reason = err instanceof Error ? err.message.replace(/^Multipart: /, '') : 'unreadable';
    throw new InvalidRequest(`Invalid request: malformed multipart/form-data body (${reason})`);
  }
  const parsed = fieldsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidRequest(
      `Invalid request at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'bad value'}`,
    );
  }
  return { fields: parsed.data, files };
}
