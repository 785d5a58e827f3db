import { useCallback, useEffect, useState } from 'react';

/** Refresh lockouts of the device commands (seed 001 section 9). */
export const HARMONICS_LOCKOUT_SEC = 60;
export const WAVEFORM_LOCKOUT_SEC = 15;

/** Whole seconds left until `untilMs` (rounded up), never below 0. */
export function secondsLeft(untilMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((untilMs - nowMs) / 1000));
}

/**
 * A refresh lockout: `start()` disables for `seconds`, `left` counts down once a second and the
 * button is available again at 0.
 */
export function useCountdown(
  seconds: number,
  now: () => number = Date.now,
): { left: number; start: () => void } {
  const [untilMs, setUntilMs] = useState(0);
  const [left, setLeft] = useState(0);
  const start = useCallback(() => {
    const until = now() + seconds * 1000;
    setUntilMs(until);
    setLeft(secondsLeft(until, now()));
  }, [seconds, now]);
  useEffect(() => {
    if (untilMs === 0) return;
    const id = setInterval(() => {
      const l = secondsLeft(untilMs, now());
      setLeft(l);
      if (l === 0) clearInterval(id);
    }, 250);
    return () => clearInterval(id);
  }, [untilMs, now]);
  return { left, start };
}
