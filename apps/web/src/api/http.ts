import {
  ErrorCode,
  type ExportRequestInput,
  type JsonRouteName,
  type FolderReportRequest,
  type ReportRequest,
  type RouteAnswer,
  type RouteBody,
} from '@meterportal/protocol';
import { getConfig } from './config';
import type * as RouteTableModule from './routeTable';

/** A failed call: the server's error code, or 0 when the server could not be reached. */
export class ApiError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  /** Seconds until the call may be tried again, when the server said (too many sign-ins). */
  readonly retryAfterSec: number | undefined;
  constructor(code: number, message: string, httpStatus: number, retryAfterSec?: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.httpStatus = httpStatus;
    this.retryAfterSec = retryAfterSec;
  }
}

/** Code used when the network failed or the answer was not the portal's envelope. */
export const NETWORK_ERROR_CODE = 0;

export function isApiError(e: unknown, code?: number): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.code === code);
}

/** Whether a call failed because its OK answer did not match the contract. */
export function isUnreadable(e: unknown): boolean {
  return isApiError(e, NETWORK_ERROR_CODE) && e.httpStatus >= 200 && e.httpStatus < 300;
}

export function isDataNotFound(e: unknown): boolean {
  return isApiError(e, ErrorCode.DataNotFound);
}

/** Options of one call. */
export interface CallOptions {
  /** Cancels the request (a query that lost its last observer). */
  signal?: AbortSignal;
}

type RouteTable = typeof RouteTableModule;
let table: Promise<RouteTable> | undefined;

/**
 * The route table with its schemas, fetched with the first call: the sign-in page's first load
 * stays free of the schema library, and every later call finds the table in memory.
 */
function routeTable(): Promise<RouteTable> {
  table ??= import('./routeTable');
  return table;
}

/** Sends one request and reads the portal's envelope: an error envelope becomes an ApiError. */
async function exchange(url: string, init: RequestInit): Promise<{ parsed: unknown; status: number }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, credentials: 'include' });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(NETWORK_ERROR_CODE, e instanceof Error ? e.message : 'network error', 0);
  }
  let parsed: unknown;
  try {
    parsed = await res.json();
  } catch {
    throw new ApiError(NETWORK_ERROR_CODE, `unexpected answer (HTTP ${res.status})`, res.status);
  }
  const env = parsed as { status?: unknown; code?: unknown; message?: unknown; retryAfterSec?: unknown };
  if (!res.ok || env.status !== 'OK') {
    const code = typeof env.code === 'number' ? env.code : NETWORK_ERROR_CODE;
    const message = typeof env.message === 'string' ? env.message : `HTTP ${res.status}`;
    const retryAfterSec = typeof env.retryAfterSec === 'number' ? env.retryAfterSec : undefined;
    throw new ApiError(code, message, res.status, retryAfterSec);
  }
  return { parsed, status: res.status };
}

/** What readAnswer needs of a table entry. */
interface AnsweringRoute {
  path: string;
  response: { safeParse(v: unknown): { success: boolean; data?: unknown } };
}

/** Reads an OK envelope through the route's response schema; one that does not match is unreadable. */
function readAnswer(route: AnsweringRoute, parsed: unknown, status: number): unknown {
  const answer = route.response.safeParse(parsed);
  if (!answer.success) throw new ApiError(NETWORK_ERROR_CODE, `unreadable answer of ${route.path}`, status);
  return answer.data;
}

const baseOf = (door: 'read' | 'write') => (door === 'read' ? getConfig().readBase : getConfig().writeBase);

/**
 * One JSON call to a route of the table: the door, method and path come from its entry, the body
 * is type-checked against its request schema, and the answer is read through its response schema
 * here, once, for every caller. Every call carries credentials because the session cookie must
 * accompany the token in the body.
 */
export async function call<K extends JsonRouteName>(
  name: K,
  body: RouteBody<K>,
  opts: CallOptions = {},
): Promise<RouteAnswer<K>> {
  const route = (await routeTable()).routes[name];
  const { parsed, status } = await exchange(`${baseOf(route.door)}${route.path}`, {
    method: route.method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
    signal: opts.signal ?? null,
  });
  return readAnswer(route, parsed, status) as RouteAnswer<K>;
}

/** Sends multipart form data to a route that takes it (meter images, firmware); the answer is read as for call. */
export async function upload<K extends 'meterImagesUpload' | 'firmwareVersionAdd' | 'siteMapUpload'>(
  name: K,
  form: FormData,
): Promise<RouteAnswer<K>> {
  const route = (await routeTable()).routes[name];
  const { parsed, status } = await exchange(`${baseOf(route.door)}${route.path}`, {
    method: route.method,
    headers: { Accept: 'application/json' },
    body: form,
  });
  return readAnswer(route, parsed, status) as RouteAnswer<K>;
}

/** What a route that answers a file takes (its JSON body, before the server's parsing). */
export interface FileRouteBodies {
  seriesExport: ExportRequestInput;
  reportDownload: ReportRequest;
  reportFolderDownload: FolderReportRequest;
  reportKeptDownload: { id: number };
}

/**
 * Posts a JSON body to a route that answers a file (the series exports): its bytes and the name
 * the server gave it. A failure is the portal's envelope and becomes an ApiError like any call.
 */
export async function download<K extends keyof FileRouteBodies>(
  name: K,
  body: FileRouteBodies[K],
): Promise<{ blob: Blob; fileName: string }> {
  const route = (await routeTable()).routes[name];
  const init: RequestInit = {
    method: route.method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'include',
  };
  let res: Response;
  try {
    res = await fetch(`${baseOf(route.door)}${route.path}`, init);
  } catch (e) {
    throw new ApiError(NETWORK_ERROR_CODE, e instanceof Error ? e.message : 'network error', 0);
  }
  if (!res.ok) {
    const env = (await res.json().catch(() => ({}))) as { code?: unknown; message?: unknown };
    const code = typeof env.code === 'number' ? env.code : NETWORK_ERROR_CODE;
    throw new ApiError(
      code,
      typeof env.message === 'string' ? env.message : `HTTP ${res.status}`,
      res.status,
    );
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'export';
  return { blob: await res.blob(), fileName };
}
