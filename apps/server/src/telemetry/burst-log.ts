// Logs a repeating problem once per window with a count, so a misbehaving device cannot flood
// the log while every reject is still counted in the metrics.
import type { Clock } from '../clock';

/** The logger shape used by telemetry and broker (pino's Logger satisfies it). */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Creates a per-key burst logger. */
export function createBurstLogger(logger: Logger, clock: Clock, windowMs = 10_000) {
  const last = new Map<string, { atMs: number; suppressed: number }>();
  return (key: string, fields: object, msg: string): void => {
    const now = clock.nowMs();
    const seen = last.get(key);
    if (seen && now - seen.atMs < windowMs) {
      seen.suppressed++;
      return;
    }
    logger.warn({ ...fields, suppressedSinceLast: seen?.suppressed ?? 0 }, msg);
    last.set(key, { atMs: now, suppressed: 0 });
  };
}
