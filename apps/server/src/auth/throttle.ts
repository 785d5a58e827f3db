import {
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_MS,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { FailureStats, SessionsRepository } from './sessions.repository';

/** How long failures on an account count towards its slow-down. */
export const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
/** The wait after the account's fifth failure; it doubles with each further one. */
export const ACCOUNT_DELAY_BASE_MS = 30 * 1000;
/** The longest wait an account's failures impose. */
export const ACCOUNT_DELAY_MAX_MS = 15 * 60 * 1000;
/** Failure rows older than this count for nothing and are purged. */
export const FAILURE_RETENTION_MS = Math.max(ACCOUNT_WINDOW_MS, LOGIN_WINDOW_MS);

/** The wait an account imposes after `failures` failures within the account window. */
export function accountDelayMs(failures: number): number {
  if (failures < LOGIN_FAILURES_PER_ACCOUNT) return 0;
  return Math.min(ACCOUNT_DELAY_BASE_MS * 2 ** (failures - LOGIN_FAILURES_PER_ACCOUNT), ACCOUNT_DELAY_MAX_MS);
}

/** What the throttle knows before an attempt. */
export interface AttemptHistory {
  /** Failures from the address on any account, within LOGIN_WINDOW_MS. */
  address: FailureStats;
  /** Failures on the account from any address, within ACCOUNT_WINDOW_MS. */
  account: FailureStats;
  /** Failures on the account from this address, within ACCOUNT_WINDOW_MS. */
  pair: FailureStats;
}

/**
 * Milliseconds until the attempt may be made; 0 when it may be made now (OWASP ASVS V2.2.1).
 * An address that keeps failing across accounts waits until its failures age out of the window.
 * An account under attack slows down only the addresses that have failed on it, with a wait that
 * doubles per failure: its owner, from an address that has not failed, still signs in at once.
 */
export function retryAfterMs(h: AttemptHistory, nowMs: number): number {
  let until = nowMs;
  if (h.address.count >= LOGIN_FAILURES_PER_ADDRESS)
    until = Math.max(until, h.address.oldestMs + LOGIN_WINDOW_MS);
  if (h.pair.count > 0) until = Math.max(until, h.account.newestMs + accountDelayMs(h.account.count));
  return until - nowMs;
}

/** Throttle keys of one attempt. */
export interface AttemptKeys {
  address: string;
  account: string;
  pair: string;
}

/** Keys for an attempt on an account (by its compared login key) from a client address. */
export function attemptKeys(accountKey: string, address: string): AttemptKeys {
  return { address: `addr:${address}`, account: `acct:${accountKey}`, pair: `pair:${accountKey}|${address}` };
}

/** Sign-in throttling over the failures table. */
export function signInThrottle(deps: { sessionsRepo: SessionsRepository; clock: Clock }) {
  const { sessionsRepo, clock } = deps;
  return {
    /** Seconds to wait before this attempt may be made (0: go ahead). */
    async waitSec(keys: Partial<AttemptKeys> & Pick<AttemptKeys, 'address'>): Promise<number> {
      const now = clock.nowMs();
      const none: FailureStats = { count: 0, oldestMs: 0, newestMs: 0 };
      const [address, account, pair] = await Promise.all([
        sessionsRepo.failures(keys.address, now - LOGIN_WINDOW_MS),
        keys.account ? sessionsRepo.failures(keys.account, now - ACCOUNT_WINDOW_MS) : none,
        keys.pair ? sessionsRepo.failures(keys.pair, now - ACCOUNT_WINDOW_MS) : none,
      ]);
      return Math.ceil(retryAfterMs({ address, account, pair }, now) / 1000);
    },
    async failed(keys: readonly string[]): Promise<void> {
      await sessionsRepo.addFailures(keys, clock.nowMs());
    },
    /** A correct password from this address: it is no longer a failing one for the account. */
    async succeeded(keys: AttemptKeys): Promise<void> {
      await sessionsRepo.clearFailures(keys.pair);
    },
  };
}
/** Sign-in throttling. */
export type SignInThrottle = ReturnType<typeof signInThrottle>;
