import { z } from 'zod';

/** SHA-256 hex digest of a password, as the browser sends it. */
export const PasswordDigest = z
  .string()
  .regex(/^[0-9a-f]{64}$/i, 'must be a SHA-256 hex digest')
  .transform((s) => s.toLowerCase());

/** An opaque session token. */
export const UserToken = z
  .string()
  .min(16)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'not a session token');

/** A device token `<signed part>|<expire>`. */
export const DeviceTokenString = z
  .string()
  .min(10)
  .max(400)
  .regex(/^[A-Za-z0-9_.-]+\|\d+$/);

/** A user login name. */
export const Login = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N}._@+-]+$/u, 'may hold letters, digits and . _ @ + -');

/**
 * The form of a device MAC: six or seven dash-separated hex groups (a product prefix may lead).
 * It is also a topic level, so it holds no MQTT wildcards or separators.
 */
export const MAC_PATTERN = /^[0-9A-Za-z]{1,8}(-[0-9A-Fa-f]{2}){5,6}$|^([0-9A-Fa-f]{2}-){5}[0-9A-Fa-f]{2}$/;

/** Device MAC: six or seven dash-separated hex groups (a product prefix may lead). */
export const Mac = z.string().min(11).max(40).regex(MAC_PATTERN, 'not a device mac');

/** The error envelope. */
export const ErrorEnvelope = z.object({
  status: z.literal('ERROR'),
  code: z.number().int(),
  message: z.string(),
  /** With code 606: seconds until a sign-in may be tried again (also sent as Retry-After). */
  retryAfterSec: z.number().int().nonnegative().optional(),
});
/** The error envelope. */
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** A plain OK answer with no data. */
export const OkEnvelope = z.object({ status: z.literal('OK') });

/** Builds the OK envelope schema around a data schema. */
export function okWith<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('OK'), data });
}

/** Standard error responses every route may give, for the OpenAPI document. */
export const errorResponses = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  409: ErrorEnvelope,
  413: ErrorEnvelope,
  429: ErrorEnvelope,
  500: ErrorEnvelope,
  504: ErrorEnvelope,
} as const;

/** Serial number from a mac: with six dash-separated parts, drop the first and join the rest. */
export function serialFromMac(mac: string): string {
  const parts = mac.split('-');
  return parts.length === 6 ? parts.slice(1).join('') : parts.join('');
}

/** Expiry part of a device token (the part after the pipe), in unix seconds. */
export function deviceTokenExpire(token: string): number {
  const [, expire] = token.split('|');
  return Number(expire);
}
