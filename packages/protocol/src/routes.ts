import type { z } from 'zod';
import { accountsRoutes } from './routes-accounts';
import { devicesRoutes } from './routes-devices';
import { precisionRoutes } from './routes-precision';

/** The base a route is served under: reads and writes may live on different hosts. */
export type Door = 'read' | 'write';
/** HTTP methods the API uses. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One HTTP route of the portal: where it is served, what it takes and what it answers. */
export interface RouteDef {
  door: Door;
  method: RouteMethod;
  /** Path below the door's base, `:name` for a path parameter. */
  path: string;
  /** OpenAPI group. */
  tag: string;
  /** One line for the OpenAPI document. */
  summary: string;
  /** The JSON body; null when the request has none (GET) or is multipart. */
  body: z.ZodType | null;
  /** The OK answer; null when the answer is raw bytes. */
  response: z.ZodType | null;
  /** Path parameters, when the path has any. */
  params?: z.ZodType;
  /** Query string, for GET. */
  query?: z.ZodType;
  /** Text fields of a multipart/form-data request. */
  multipart?: z.ZodType;
}

/**
 * Every HTTP route of the read and write doors. The server registers its routes from this table
 * and the web client's calls are typed by it, so a change of a request or answer here is a type
 * error on both sides.
 */
export const routes = { ...accountsRoutes, ...devicesRoutes, ...precisionRoutes } as const;

/** The routes by name. */
export type Routes = typeof routes;
/** Name of a route in the table. */
export type RouteName = keyof Routes;
/** Routes the web client calls with a JSON body and a JSON answer. */
export type JsonRouteName = {
  [K in RouteName]: Routes[K]['body'] extends z.ZodType
    ? Routes[K]['response'] extends z.ZodType
      ? K
      : never
    : never;
}[RouteName];
/** What a caller sends to a JSON route (before the server's parsing). */
export type RouteBody<K extends JsonRouteName> = z.input<Routes[K]['body']>;
/** The OK answer of a JSON route, as its schema reads it. */
export type RouteAnswer<K extends RouteName> = Routes[K]['response'] extends z.ZodType
  ? z.output<Routes[K]['response']>
  : never;
