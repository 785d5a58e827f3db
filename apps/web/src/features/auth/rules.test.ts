import { unixMs } from '@meterportal/protocol';
import { describe, expect, it } from 'vitest';
import {
  RENEWAL_FALLBACK_MS,
  canEditProfile,
  hasApplications,
  isSessionValid,
  loginErrorKey,
  signInRetryAfterSec,
  passwordChangeProblem,
  renewalDelayMs,
  renewalExhausted,
} from './rules';

describe('token renewal timing', () => {
  it('renews 500000 ms before expiry', () => {
    expect(renewalDelayMs(1_000_000 + 3_600_000, 1_000_000)).toBe(3_600_000 - 500_000);
  });
  it('falls back to 3100 s when the renewal moment already passed', () => {
    expect(renewalDelayMs(1_000_000 + 400_000, 1_000_000)).toBe(RENEWAL_FALLBACK_MS);
    expect(RENEWAL_FALLBACK_MS).toBe(3_100_000);
  });
  it('signs out only after more than 200 renewals', () => {
    expect(renewalExhausted(200)).toBe(false);
    expect(renewalExhausted(201)).toBe(true);
  });
});

describe('session and permissions', () => {
  it('needs a token and an expiration later than now', () => {
    expect(isSessionValid({ token: 't', expiration: unixMs(2) }, 1)).toBe(true);
    expect(isSessionValid({ token: 't', expiration: unixMs(1) }, 1)).toBe(false);
    expect(isSessionValid({ token: '', expiration: unixMs(2) }, 1)).toBe(false);
    expect(isSessionValid(undefined, 1)).toBe(false);
  });
  it.each([
    [1, 'alice', true],
    [1, 'demo', false],
    [2, 'bob@example.com', false],
  ] as const)('edit profile for id %i user %s is %s', (id, user, allowed) => {
    expect(canEditProfile({ id, user })).toBe(allowed);
  });
  it('shows applications only with at least one', () => {
    expect(hasApplications({ applications: [] })).toBe(false);
    expect(hasApplications({ applications: ['USER_MANAGER'] })).toBe(true);
  });
});

describe('login and password messages', () => {
  it.each([
    [603, 'login.credentials_incorrect'],
    [616, 'login.credentials_incorrect'],
    [606, 'login.server_error'],
    [0, 'login.server_error'],
    [undefined, 'login.server_error'],
  ])('code %s gives %s', (code, key) => {
    expect(loginErrorKey(code)).toBe(key);
  });
  it.each([
    [606, 300, 300],
    [606, 29.2, 30],
    [606, 0, null],
    [606, undefined, null],
    [603, 30, null],
  ])('code %s with retryAfterSec %s waits %s s', (code, retryAfterSec, wait) => {
    expect(signInRetryAfterSec(code, retryAfterSec)).toBe(wait);
  });
  it('requires both passwords and refuses equal ones', () => {
    expect(passwordChangeProblem('', 'x')).toBe('required');
    expect(passwordChangeProblem('x', '')).toBe('required');
    expect(passwordChangeProblem('same', 'same')).toBe('must_differ');
    expect(passwordChangeProblem('old', 'new')).toBeNull();
  });
});
