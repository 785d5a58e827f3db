/** Minimal cookie helpers: the settings cookie lives 30 days (seed 000 section 9). */

export const SETTINGS_COOKIE_DAYS = 30;

/** Reads one cookie by name from a cookie header string. */
export function readCookie(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** Builds a Set-Cookie-style assignment for document.cookie. */
export function cookieAssignment(
  name: string,
  value: string,
  days: number | undefined,
  now = Date.now(),
): string {
  const expires = days === undefined ? '' : `; expires=${new Date(now + days * 86_400_000).toUTCString()}`;
  return `${name}=${encodeURIComponent(value)}${expires}; path=/; SameSite=Lax`;
}

export function getCookie(name: string): string | undefined {
  return typeof document === 'undefined' ? undefined : readCookie(document.cookie, name);
}

export function setCookie(name: string, value: string, days?: number): void {
  if (typeof document !== 'undefined') document.cookie = cookieAssignment(name, value, days);
}
