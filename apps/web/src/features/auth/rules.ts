import { AuthType, DEMO_LOGIN, ErrorCode, type AuthUser } from '@meterportal/protocol';

/** Identity-provider renewal timing and limits (seed 000 sections 4 and 9). */
export const RENEWAL_LEAD_MS = 500_000;
export const RENEWAL_FALLBACK_MS = 3100 * 1000;
export const RENEWAL_RETRY_MS = 30_000;
export const RENEWAL_LIMIT = 200;

/** Time until the next renewal: ahead of expiry by the lead, or the fallback if that moment passed. */
export function renewalDelayMs(expiresAtMs: number, nowMs: number): number {
  const delay = expiresAtMs - RENEWAL_LEAD_MS - nowMs;
  return delay > 0 ? delay : RENEWAL_FALLBACK_MS;
}

/** A user is signed out after more than the allowed number of renewals. */
export function renewalExhausted(renewCount: number): boolean {
  return renewCount > RENEWAL_LIMIT;
}

/** Session is valid when the login expiration is later than now and a user token exists. */
export function isSessionValid(
  user: Pick<AuthUser, 'expiration' | 'token'> | undefined | null,
  nowMs: number,
): boolean {
  return !!user && typeof user.token === 'string' && user.token.length > 0 && user.expiration > nowMs;
}

/** Only local users other than the demo user may edit their profile. */
export function canEditProfile(user: Pick<AuthUser, 'id' | 'user'> | undefined | null): boolean {
  return !!user && user.id === AuthType.Local && user.user !== DEMO_LOGIN;
}

/** The applications link needs at least one application. */
export function hasApplications(user: Pick<AuthUser, 'applications'> | undefined | null): boolean {
  return !!user && user.applications.length > 0;
}

export type LoginErrorKey = 'login.credentials_incorrect' | 'login.server_error';

/** A refused sign-in's wait in whole seconds, when the server named one (code 606). */
export function signInRetryAfterSec(
  code: number | undefined,
  retryAfterSec: number | undefined,
): number | null {
  return code === ErrorCode.TooManyAttempts && retryAfterSec !== undefined && retryAfterSec > 0
    ? Math.ceil(retryAfterSec)
    : null;
}

/** Seed 000 section 8: 603 and 616 mean wrong credentials, anything else a communication error. */
export function loginErrorKey(code: number | undefined): LoginErrorKey {
  return code === ErrorCode.LoginIncorrect || code === ErrorCode.IdentityProviderLogin
    ? 'login.credentials_incorrect'
    : 'login.server_error';
}

export type PasswordChangeProblem = 'required' | 'must_differ' | null;

/** Change password: both fields required and the new one must differ from the old one. */
export function passwordChangeProblem(oldPassword: string, newPassword: string): PasswordChangeProblem {
  if (oldPassword === '' || newPassword === '') return 'required';
  if (oldPassword === newPassword) return 'must_differ';
  return null;
}
