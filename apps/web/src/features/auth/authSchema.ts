import { AuthResponse, type AuthUser, type DeviceListEntry } from '@meterportal/protocol';

/**
 * Validation of sign-in answers, loaded on demand: once the protocol package is marked free of
 * side effects, the schema library then stays out of the sign-in page's first load.
 */
export function parseAuthResponse(body: unknown): { user: AuthUser; devices: DeviceListEntry[] } | null {
  const r = AuthResponse.safeParse(body);
  return r.success ? { user: r.data.user, devices: r.data.data } : null;
}
