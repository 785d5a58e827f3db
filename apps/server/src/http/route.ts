import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { errorResponses, type RouteDef } from '@meterportal/protocol';

/** The Fastify instance a route plugin receives (zod type provider). */
export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The request of a route, typed from its schemas in the route table. */
export type RouteRequest<R extends RouteDef> = FastifyRequest<{
  Body: Parsed<R['body']>;
  Querystring: Parsed<R['query']>;
  Params: Parsed<R['params']>;
}>;

/** What a handler returns: the OK answer before serialization, or the reply it has sent itself. */
export type RouteResult<R extends RouteDef> =
  (R['response'] extends z.ZodType ? z.input<R['response']> : never) | FastifyReply;

/** Options a route may add to its table entry. */
export interface RouteExtras {
  /** Writes the answer without the schema's serializer (large series built from typed rows). */
  serializerCompiler?: () => (data: unknown) => string;
}

/**
 * Registers one route of the table on a door's plugin: method, path, schemas and OpenAPI text all
 * come from the entry, so the route file holds only the handler.
 */
export function route<R extends RouteDef>(
  app: ZodApp,
  def: R,
  handler: (req: RouteRequest<R>, reply: FastifyReply) => Promise<RouteResult<R>>,
  extras: RouteExtras = {},
): void {
  const schema: FastifySchema = {
    tags: [def.tag],
    summary: def.summary,
    ...(def.body ? { body: def.body } : {}),
    ...(def.params ? { params: def.params } : {}),
    ...(def.query ? { querystring: def.query } : {}),
    ...(def.multipart ? { consumes: ['multipart/form-data'] } : {}),
    response: def.response ? { 200: def.response, ...errorResponses } : errorResponses,
  };
  app.route({
    method: def.method,
    url: def.path,
    schema,
    ...(extras.serializerCompiler ? { serializerCompiler: extras.serializerCompiler } : {}),
    // The schema above validates the request, so the body, query and params have the table's types.
    handler: (req: FastifyRequest, reply: FastifyReply) => handler(req as RouteRequest<R>, reply),
  });
}
