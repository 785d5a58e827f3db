import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { NotificationsRepository } from './notifications.repository';
import { webexText } from './notifications.service';
import type { WebexClient } from './webex';

/** Attempts before a delivery is given up. */
export const MAX_ATTEMPTS = 8;
/** Delay before retry n (1-based): 2 s, 4 s, 8 s ... capped at 10 minutes. */
export const retryDelayMs = (attempt: number): number => Math.min(2000 * 2 ** (attempt - 1), 600_000);
/** How long a taken delivery is reserved for the worker that took it. */
const LEASE_MS = 60_000;

/** Sends queued notifications to Webex spaces, retrying failures with backoff. */
export function webexDelivery(deps: {
  repo: NotificationsRepository;
  webex: WebexClient;
  clock: Clock;
  log?: FastifyBaseLogger;
}) {
  const { repo, webex, clock, log } = deps;
  let running = false;

  async function tick(): Promise<{ sent: number; failed: number }> {
    let sent = 0;
    let failed = 0;
    const now = clock.nowMs();
    for (const d of await repo.due(now, 20)) {
      // Several server instances may run this worker; only the one that claims a row sends it.
      if (!(await repo.claim(d.id, d.next_at_ms, now + LEASE_MS))) continue;
      try {
        if (!d.webex_space) throw new Error('pair has no space');
        await webex.postMessage(d.webex_space, webexText(d.title, d.mac, d.type, d.data));
        await repo.markSent(d.id, clock.nowMs());
        sent += 1;
      } catch (err) {
        const attempts = d.attempts + 1;
        const giveUp = attempts >= MAX_ATTEMPTS;
        await repo.markRetry(d.id, attempts, clock.nowMs() + retryDelayMs(attempts), String(err), giveUp);
        log?.warn({ delivery: d.id, attempts, giveUp, err: String(err) }, 'webex delivery failed');
        failed += 1;
      }
    }
    return { sent, failed };
  }

  return {
    tick,
    /** Runs tick every intervalMs until the returned stop is called. */
    start(intervalMs = 1000): () => void {
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        tick()
          .catch((err: unknown) => log?.error({ err }, 'webex delivery tick failed'))
          .finally(() => {
            running = false;
          });
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
