import type { AuthUser, DeviceListEntry, GoogleAuthRequest, RouteAnswer } from '@meterportal/protocol';
import { call } from '../../api/http';
import { sha256Hex } from './sha256';

/**
 * The sign-in calls as plain functions, apart from the query hooks, so that the sign-in page
 * does not load the query library.
 */

export interface SignedIn {
  user: AuthUser;
  devices: DeviceListEntry[];
}

/** The sign-in answer, already read through its schema (an unreadable one is the process error). */
function signedIn(body: RouteAnswer<'authLocal'>): SignedIn {
  return { user: body.user, devices: body.data };
}

export async function signInLocal(login: string, password: string): Promise<SignedIn> {
  const body = await call('authLocal', { login, password: await sha256Hex(password) });
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
  return signedIn(await call('authGoogle', body));
}

/** Refreshes the device list with the user token. */
export async function refreshDeviceList(token: string): Promise<SignedIn> {
  return signedIn(await call('authLocal', { token }));
}

export async function logout(token: string): Promise<void> {
  await call('logout', { token });
}

export async function changePassword(login: string, oldPassword: string, newPassword: string): Promise<void> {
  await call('changePassword', {
    login,
    oldPassword: await sha256Hex(oldPassword),
    newPassword: await sha256Hex(newPassword),
  });
}
