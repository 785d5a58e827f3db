import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { NotificationsRepository } from './notifications.repository';

/** Attempts before a delivery is given up. */
export const MAX_ATTEMPTS = 8;
/** Delay before retry n (1-based): 2 s, 4 s, 8 s ... capped at 10 minutes. */
export const retryDelayMs = (attempt: number): number => Math.min(2000 * 2 ** (attempt - 1), 600_000);
/** How long a taken delivery is reserved for the worker that took it. */
const LEASE_MS = 60_000;

/** A queued delivery with what its destination needs to send it. */
export type DueDelivery = Awaited<ReturnType<NotificationsRepository['due']>>[number];

/** A kind of destination the outbox sends to (Webex, e-mail). */
export interface DeliveryChannel {
  /** The pairs' dest_type this channel serves. */
  readonly destType: number;
  /** Sends one delivery; a throw schedules a retry. */
  send(d: DueDelivery): Promise<void>;
}

/**
 * Sends queued notifications through their channels, retrying failures with backoff. A
 * destination kind without a channel here (its service is not configured) stays queued.
 */
export function notificationDelivery(deps: {
  repo: NotificationsRepository;
  channels: readonly DeliveryChannel[];
  clock: Clock;
  log?: FastifyBaseLogger;
}) {
  const { repo, clock, log } = deps;
  const channels = new Map(deps.channels.map((c) => [c.destType, c]));
  let running = false;

  async function tick(): Promise<{ sent: number; failed: number }> {
    let sent = 0;
    let failed = 0;
    const now = clock.nowMs();
    for (const d of await repo.due(now, 20, [...channels.keys()])) {
      // Several server instances may run this worker; only the one that claims a row sends it.
      if (!(await repo.claim(d.id, d.next_at_ms, now + LEASE_MS))) continue;
      try {
        const channel = channels.get(d.dest_type);
        if (!channel) throw new Error(`no channel for destination ${d.dest_type}`);
        await channel.send(d);
        await repo.markSent(d.id, clock.nowMs());
        sent += 1;
      } catch (err) {
        const attempts = d.attempts + 1;
        const giveUp = attempts >= MAX_ATTEMPTS;
        await repo.markRetry(d.id, attempts, clock.nowMs() + retryDelayMs(attempts), String(err), giveUp);
        log?.warn(
          { delivery: d.id, destination: d.dest_type, attempts, giveUp, err: String(err) },
          'notification delivery failed',
        );
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
          .catch((err: unknown) => log?.error({ err }, 'notification delivery tick failed'))
          .finally(() => {
            running = false;
          });
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
