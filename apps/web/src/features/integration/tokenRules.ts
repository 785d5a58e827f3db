import { addDays, startOfDaySec, type CalendarDay } from '../telemetry/zone';

/** A token valid until the end of a calendar day expires at the start of the next day, unix s. */
export function expiryAfterDay(day: CalendarDay, tz: string): number {
  return startOfDaySec(addDays(day, 1), tz);
}

/** Whether a token's expiry has passed. */
export function isExpired(expiresAtSec: number | null, nowMs: number): boolean {
  return expiresAtSec !== null && expiresAtSec * 1000 <= nowMs;
}

/** An absolute URL of the integration API for examples: the read base may be relative. */
export function integrationApiUrl(readBase: string, origin: string, path: string): string {
  return `${new URL(readBase, origin).href.replace(/\/$/, '')}/v1${path}`;
}

/** The curl command that lists the token's devices, as shown beside a new token. */
export function curlExample(url: string, secret: string): string {
  return `curl -H "Authorization: Bearer ${secret}" "${url}"`;
}
