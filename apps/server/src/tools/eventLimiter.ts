// Per-device rate limit of device events on their way to notifications: a token bucket lets a
// burst through and then a steady rate; what it holds back is counted, and each device's held-back
// events become one summary notification per window instead of one row each.
import { Counter, type Registry } from 'prom-client';
import type { Clock } from '../clock';

/** Limits of the device event rate. */
export interface EventLimits {
  /** Events a quiet device may send at once. */
  burst: number;
  /** One more event is allowed this often, ms. */
  refillMs: number;
  /** Held-back events are summarized once this long after the first of them, ms. */
  summaryWindowMs: number;
}

/** A burst of 20, then one event per 10 s; one summary per minute of suppression. */
export const DEFAULT_EVENT_LIMITS: EventLimits = { burst: 20, refillMs: 10_000, summaryWindowMs: 60_000 };

/** Events of one device held back during one window. */
export interface SuppressedSummary {
  deviceId: number;
  mac: string;
  suppressed: number;
  /** When the first of them came and when the window closed (clock ms). */
  sinceMs: number;
  untilMs: number;
}

interface Bucket {
  tokens: number;
  atMs: number;
  mac: string;
  window: { sinceMs: number; suppressed: number } | null;
}

/** Text of the summary notification. */
export const suppressedText = (n: number): string => `${n} events suppressed`;

/** Creates the limiter; its counter joins the registry when one is given. */
export function deviceEventLimiter(deps: { clock: Clock; limits?: EventLimits; registry?: Registry }) {
  const { clock } = deps;
  const limits = deps.limits ?? DEFAULT_EVENT_LIMITS;
  const buckets = new Map<number, Bucket>();
  const suppressedTotal = new Counter({
    name: 'device_events_suppressed_total',
    help: 'Device events held back by the per-device rate limit',
    registers: deps.registry ? [deps.registry] : [],
  });

  function refill(b: Bucket, nowMs: number): void {
    const earned = Math.max(0, nowMs - b.atMs) / limits.refillMs;
    b.tokens = Math.min(limits.burst, b.tokens + earned);
    b.atMs = nowMs;
  }

  return {
    suppressedTotal,

    /** True when the device's event may become a notification now; false when it is held back. */
    admit(deviceId: number, mac: string): boolean {
      const nowMs = clock.nowMs();
      let b = buckets.get(deviceId);
      if (!b) {
        b = { tokens: limits.burst, atMs: nowMs, mac, window: null };
        buckets.set(deviceId, b);
      }
      refill(b, nowMs);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return true;
      }
      b.window ??= { sinceMs: nowMs, suppressed: 0 };
      b.window.suppressed += 1;
      suppressedTotal.inc();
      return false;
    },

    /** Summaries of the windows that have ended; each is given out once. Forgets idle devices. */
    dueSummaries(): SuppressedSummary[] {
      const nowMs = clock.nowMs();
      const out: SuppressedSummary[] = [];
      for (const [deviceId, b] of buckets) {
        if (b.window && nowMs - b.window.sinceMs >= limits.summaryWindowMs) {
          out.push({
            deviceId,
            mac: b.mac,
            suppressed: b.window.suppressed,
            sinceMs: b.window.sinceMs,
            untilMs: nowMs,
          });
          b.window = null;
        }
        refill(b, nowMs);
        // A full bucket is the same as none.
        if (!b.window && b.tokens >= limits.burst) buckets.delete(deviceId);
      }
      return out;
    },
  };
}

/** The device event limiter. */
export type DeviceEventLimiter = ReturnType<typeof deviceEventLimiter>;
