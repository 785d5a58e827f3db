import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { SESSION_KINDS, errorResponses, type RouteDef } from '@meterportal/protocol';
import { identify, type Caller, type CallerOf, type Identity } from './identity';
import { readMultipart, type MultipartFile } from './multipart';

/** Name of the OpenAPI security scheme of routes that take an integration token. */
export const BEARER_SCHEME = 'integrationToken';

/** The Fastify instance a route plugin receives (zod type provider). */
export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

declare module 'fastify' {
  interface FastifyInstance {
    /** Where `route()` looks up the caller of each request. */
    identity: Identity;
  }
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The text fields and files of a multipart route's request, read before the caller is known. */
export interface MultipartForm<S> {
  fields: Parsed<S>;
  files: MultipartFile[];
}

/**
 * The request of a route, typed from its entry in the route table: body, query and params from
 * its schemas, `user` from its session kind, `form` when it takes multipart/form-data.
 */
export type RouteRequest<R extends RouteDef> = FastifyRequest<{
  Body: Parsed<R['body']>;
  Querystring: Parsed<R['query']>;
  Params: Parsed<R['params']>;
}> & { user: CallerOf<R['session']> } & (R['multipart'] extends z.ZodType
    ? { form: MultipartForm<R['multipart']> }
    : unknown);

/** What a handler returns: the OK answer before serialization, or the reply it has sent itself. */
export type RouteResult<R extends RouteDef> =
  (R['response'] extends z.ZodType ? z.input<R['response']> : never) | FastifyReply;

/** Options a route may add to its table entry. */
export interface RouteExtras {
  /** Writes the answer without the schema's serializer (large series built from typed rows). */
  serializerCompiler?: () => (data: unknown) => string;
  /** For multipart routes: what the request must hold, and the file limit, in the error texts. */
  multipart?: { expected: string; tooManyFiles?: string };
}

/** What the preHandler leaves on a request for the handler. */
interface Resolved {
  user: Caller;
  form: MultipartForm<z.ZodType> | undefined;
}

/** Gives the app the store `route()` resolves callers from; once, before any route plugin. */
export function installIdentity(app: FastifyInstance, identity: Identity): void {
  app.decorate('identity', identity);
  app.decorateRequest('user', undefined);
  app.decorateRequest('form', undefined);
}

/**
 * Registers one route of the table on a door's plugin: method, path, schemas and OpenAPI text all
 * come from the entry, so the route file holds only the handler. The caller is resolved once, in a
 * preHandler after the request has passed its schemas, by the entry's session kind; the handler
 * receives it as `req.user` and never sees the cookie or header it came from.
 */
export function route<R extends RouteDef>(
  app: ZodApp,
  def: R,
  handler: (req: RouteRequest<R>, reply: FastifyReply) => Promise<RouteResult<R>>,
  extras: RouteExtras = {},
): void {
  if (!SESSION_KINDS.includes(def.session))
    throw new Error(
      `${def.method} ${def.path} declares no session kind (one of ${SESSION_KINDS.join(', ')})`,
    );
  const multipart = def.multipart;
  const multipartText = extras.multipart;
  if (multipart && !multipartText)
    throw new Error(`${def.method} ${def.path} takes multipart/form-data: name what it expects`);
  const schema: FastifySchema = {
    tags: [def.tag],
    summary: def.summary,
    ...(def.body ? { body: def.body } : {}),
    ...(def.params ? { params: def.params } : {}),
    ...(def.query ? { querystring: def.query } : {}),
    ...(multipart ? { consumes: ['multipart/form-data'] } : {}),
    ...(def.session === 'bearer' ? { security: [{ [BEARER_SCHEME]: [] }] } : {}),
    response: def.response ? { 200: def.response, ...errorResponses } : errorResponses,
  };
  const identity = app.identity;
  app.route({
    method: def.method,
    url: def.path,
    schema,
    ...(extras.serializerCompiler ? { serializerCompiler: extras.serializerCompiler } : {}),
    preHandler: async (req: FastifyRequest) => {
      const r = req as unknown as Resolved;
      const readForm = async () => {
        if (multipart && multipartText)
          r.form = await readMultipart(req, multipart, multipartText.expected, multipartText.tooManyFiles);
      };
      // A multipart request of a `user` route names its session token among its fields, so they
      // are read first; other routes turn a stranger away before reading the upload.
      const tokenInForm = def.session === 'user' || def.session === 'signIn';
      if (tokenInForm) await readForm();
      r.user = await identify(identity, def, req, r.form ? r.form.fields : req.body);
      if (!tokenInForm) await readForm();
    },
    // The schema above validates the request and the preHandler has resolved the caller, so the
    // request has the table's types.
    handler: (req: FastifyRequest, reply: FastifyReply) => handler(req as RouteRequest<R>, reply),
  });
}
