import type { AuthUser, DeviceListEntry, GoogleAuthRequest } from '@meterportal/protocol';
import { ApiError, NETWORK_ERROR_CODE, call } from '../../api/http';
import { sha256Hex } from './sha256';

/**
 * The sign-in calls as plain functions, apart from the query hooks, so that the sign-in page
 * does not load the query library.
 */

export interface SignedIn {
  user: AuthUser;
  devices: DeviceListEntry[];
}

async function signedIn(body: unknown): Promise<SignedIn> {
  const { parseAuthResponse } = await import('./authSchema');
  const parsed = parseAuthResponse(body);
  // An OK envelope we cannot read is the seed's "Sig in process error.".
  if (!parsed) throw new ApiError(NETWORK_ERROR_CODE, 'process', 200);
  return parsed;
}

export async function signInLocal(login: string, password: string): Promise<SignedIn> {
  const body = await call('read', '/auth/local', { login, password: await sha256Hex(password) });
  return signedIn(body);
}

/** Trades the provider's tokens for a portal session; the ID token proves they were issued to the portal. */
export async function signInWithIdentityProvider(tokens: {
  accessToken: string;
  idToken: string | undefined;
}): Promise<SignedIn> {
  const body: GoogleAuthRequest = {
    token: tokens.accessToken,
    ...(tokens.idToken ? { id_token: tokens.idToken } : {}),
  };
  return signedIn(await call('read', '/auth/google', body));
}

/** Refreshes the device list with the user token. */
export async function refreshDeviceList(token: string): Promise<SignedIn> {
  return signedIn(await call('read', '/auth/local', { token }));
}

export async function logout(token: string): Promise<void> {
  await call('write', '/auth/logout', { token });
}

export async function changePassword(login: string, oldPassword: string, newPassword: string): Promise<void> {
  await call('write', '/auth/local/change-password', {
    login,
    oldPassword: await sha256Hex(oldPassword),
    newPassword: await sha256Hex(newPassword),
  });
}
