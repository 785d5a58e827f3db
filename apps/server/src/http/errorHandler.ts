import fs from 'node:fs';
import path from 'node:path';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_HTTP_STATUS, ErrorCode, type ErrorEnvelope } from '@meterportal/protocol';
import { isUniqueViolation } from '../db/unique-violation';
import { AppError, Conflict, TooManyAttempts } from './errors';

function envelope(code: number, message: string): ErrorEnvelope {
  return { status: 'ERROR', code, message };
}

/** Maps every failure to `{status: 'ERROR', code, message}` with a fitting HTTP status. */
export function installErrorHandler(app: FastifyInstance, spaIndex?: string): void {
  app.setErrorHandler((raw: unknown, req, reply) => {
    // A request that lost an insert race to another answers as if it had come second: the object
    // already exists (seed 000 section 8), never a server error.
    const error = isUniqueViolation(raw) ? new Conflict('Object already exist') : raw;
    if (error instanceof TooManyAttempts) {
      return reply
        .status(429)
        .header('retry-after', String(error.retryAfterSec))
        .send({ ...envelope(error.code, error.message), retryAfterSec: error.retryAfterSec });
    }
    if (error instanceof AppError) {
      return reply.status(ERROR_HTTP_STATUS[error.code] ?? 400).send(envelope(error.code, error.message));
    }
    const err = error as FastifyError;
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
      const message = `Invalid request${where ? ` at ${where}` : ''}: ${first?.message ?? 'bad value'}`;
      return reply.status(400).send(envelope(ErrorCode.InvalidRequest, message));
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply.status(500).send(envelope(ErrorCode.Internal, 'Unexpected error'));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send(envelope(ErrorCode.PayloadTooLarge, 'Request body too large'));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(envelope(ErrorCode.InvalidRequest, err.message));
    }
    req.log.error({ err }, 'unexpected error');
    return reply.status(500).send(envelope(ErrorCode.Internal, 'Unexpected error'));
  });
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    // Client-side routes (/login, /visualization/...) all load the web app's shell.
    if (
      spaIndex &&
      req.method === 'GET' &&
      !url.startsWith('/api/') &&
      !url.startsWith('/ws') &&
      !path.extname(url)
    ) {
      return reply.type('text/html').send(fs.createReadStream(spaIndex));
    }
    return reply.status(404).send(envelope(ErrorCode.NotFound, `No route ${req.method} ${url}`));
  });
}
