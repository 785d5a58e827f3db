import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { SessionsRepository } from './sessions.repository';
import { FAILURE_RETENTION_MS } from './throttle';

/** How often expired sessions and aged sign-in failures are purged. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/** What one purge removed. */
export interface Purged {
  sessions: number;
  failures: number;
}

/**
 * Purges sessions that have ended and sign-in failures too old to count for any throttle, so
 * neither table grows without bound. Time comes from the injected clock.
 */
export function authHousekeeping(deps: { sessionsRepo: SessionsRepository; clock: Clock }) {
  const { sessionsRepo, clock } = deps;
  async function purge(): Promise<Purged> {
    const now = clock.nowMs();
    const sessions = await sessionsRepo.purgeExpired(now);
    const failures = await sessionsRepo.purgeFailures(now - FAILURE_RETENTION_MS);
    return { sessions, failures };
  }
  return {
    purge,
    /** Purges now and then every intervalMs until the returned stop is called. */
    start(opts: { log?: FastifyBaseLogger; intervalMs?: number } = {}): () => void {
      let running = false;
      const run = () => {
        if (running) return;
        running = true;
        purge()
          .then((p) => {
            if (p.sessions + p.failures > 0)
              opts.log?.debug(p, 'purged expired sessions and sign-in failures');
          })
          .catch((err: unknown) => opts.log?.error({ err }, 'purge of sessions and sign-in failures failed'))
          .finally(() => {
            running = false;
          });
      };
      run();
      const timer = setInterval(run, opts.intervalMs ?? HOUSEKEEPING_INTERVAL_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
/** Purge of expired sessions and aged sign-in failures. */
export type AuthHousekeeping = ReturnType<typeof authHousekeeping>;
