import { useEffect } from 'react';
import { getConfig } from '../../api/config';
import { sessionStore } from '../../api/storage';
import { signInWithIdentityProvider } from './calls';
import { RENEWAL_RETRY_MS, renewalDelayMs, renewalExhausted } from './rules';
import { startSession, useAuthUser } from './session';

interface RenewalRecord {
  renew_count: number;
  expiresAtMs: number;
}

/**
 * Keeps an identity-provider session alive: renews the provider token ahead of expiry, trades it
 * for a fresh portal session, and gives up (signs out) after the renewal limit.
 */
export function useIdpRenewal(onSignOut: () => void): void {
  const user = useAuthUser();
  const isIdp = user?.id === 2;
  const expiration = user?.expiration;
  useEffect(() => {
    if (!isIdp || expiration === undefined) return;
    let timer: ReturnType<typeof setTimeout>;
    let cancelled = false;
    const record = (): RenewalRecord =>
      sessionStore.get<RenewalRecord>('renewal') ?? { renew_count: 0, expiresAtMs: expiration };

    const renew = async () => {
      const rec = record();
      const count = rec.renew_count + 1;
      if (renewalExhausted(count)) {
        onSignOut();
        return;
      }
      try {
        const oidc = await import('./oidc');
        const token = await oidc.renewIdpToken(getConfig());
        const signed = await signInWithIdentityProvider(token);
        if (cancelled) return;
        sessionStore.set('renewal', {
          renew_count: count,
          expiresAtMs: token.expiresAtMs ?? signed.user.expiration,
        });
        startSession(signed.user, signed.devices);
      } catch {
        if (!cancelled) timer = setTimeout(() => void renew(), RENEWAL_RETRY_MS);
      }
    };
    timer = setTimeout(() => void renew(), renewalDelayMs(record().expiresAtMs, Date.now()));
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [isIdp, expiration, onSignOut]);
}
