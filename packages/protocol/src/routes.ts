import type { z } from 'zod';
import { accountsRoutes } from './routes-accounts';
import { alarmsRoutes } from './routes-alarms';
import { devicesRoutes } from './routes-devices';
import { integrationRoutes } from './routes-integration';
import { notificationHistoryRoutes } from './routes-notificationHistory';
import { precisionRoutes } from './routes-precision';
import { tariffsRoutes } from './routes-tariffs';
import { firmwareRoutes } from './routes-firmware';
import { relayRoutes } from './routes-relay';
import { exportsRoutes } from './routes-exports';
import { registrationRoutes } from './routes-registration';
import { settingsRoutes } from './routes-settings';
import { appliancesRoutes } from './routes-appliances';
import { powerQualityRoutes } from './routes-powerQuality';
import { anomaliesRoutes } from './routes-anomalies';
import { siteMapsRoutes } from './routes-siteMaps';
import { reportsRoutes } from './routes-reports';

/** The base a route is served under: reads and writes may live on different hosts. */
export type Door = 'read' | 'write';
/** HTTP methods the API uses. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How a route knows its caller; the server resolves it once, before the handler runs.
 * - `user`: the session token in the body (or multipart field) must equal the session cookie. When
 *   the body's schema leaves the token out as optional and the request omits it, the cookie alone.
 * - `cookie`: the session cookie alone (calls whose body carries a device token, images, downloads).
 * - `bearer`: an integration token in `Authorization: Bearer`.
 * - `signIn`: anyone; a body that carries a session token refreshes that session (as `user`).
 * - `public`: anyone.
 */
export type SessionKind = 'user' | 'cookie' | 'bearer' | 'signIn' | 'public';

/** Every session kind, for checks that a table entry declares one. */
export const SESSION_KINDS: readonly SessionKind[] = ['user', 'cookie', 'bearer', 'signIn', 'public'];

/** One HTTP route of the portal: where it is served, what it takes and what it answers. */
export interface RouteDef {
  door: Door;
  method: RouteMethod;
  /** Path below the door's base, `:name` for a path parameter. */
  path: string;
  /** How the caller is identified. */
  session: SessionKind;
  /** For `user` and `signIn`: the body field holding the session token, `user_token` unless named. */
  userTokenField?: 'token';
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
export const routes = {
  ...accountsRoutes,
  ...devicesRoutes,
  ...precisionRoutes,
  ...integrationRoutes,
  ...notificationHistoryRoutes,
  ...tariffsRoutes,
  ...alarmsRoutes,
  ...relayRoutes,
  ...firmwareRoutes,
  ...exportsRoutes,
  ...registrationRoutes,
  ...settingsRoutes,
  ...appliancesRoutes,
  ...powerQualityRoutes,
  ...anomaliesRoutes,
  ...siteMapsRoutes,
  ...reportsRoutes,
} as const;

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
