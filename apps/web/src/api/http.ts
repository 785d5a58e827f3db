import { ErrorCode } from '@meterportal/protocol';
import { getConfig } from './config';

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

export function isDataNotFound(e: unknown): boolean {
  return isApiError(e, ErrorCode.DataNotFound);
}

/** The success envelope. */
export interface OkEnvelope<T, U = unknown> {
  status: 'OK';
  data: T;
  user?: U;
}

type Base = 'read' | 'write';
type Method = 'POST' | 'PUT' | 'DELETE';

/**
 * One JSON call to the read or write base. Every call carries credentials because the session
 * cookie must accompany the token in the body.
 */
export async function call<T, U = unknown>(
  base: Base,
  path: string,
  body: unknown,
  opts: { method?: Method; signal?: AbortSignal } = {},
): Promise<OkEnvelope<T, U>> {
  const cfg = getConfig();
  const url = `${base === 'read' ? cfg.readBase : cfg.writeBase}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: opts.method ?? 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      signal: opts.signal ?? null,
    });
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
  return parsed as OkEnvelope<T, U>;
}
