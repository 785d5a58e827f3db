// Power cuts of a simulated meter: deterministic, so history and live agree on them.
import { hash01 } from './noise';

/** The outage of a UTC day, if any: about one day in five, lasting one to fifteen minutes. */
export function outageOf(seed: number, day: number): { fromSec: number; toSec: number } | null {
  if (hash01(seed ^ 0x0a7a, day) > 0.2) return null;
  const fromSec = day * 86400 + Math.floor(hash01(seed ^ 0x0a7b, day) * 86000);
  return { fromSec, toSec: fromSec + 60 + Math.floor(hash01(seed ^ 0x0a7c, day) * 840) };
}

/** True when the meter has no power at tsSec. */
export function isOutage(seed: number, tsSec: number): boolean {
  const o = outageOf(seed, Math.floor(tsSec / 86400));
  return o !== null && tsSec >= o.fromSec && tsSec < o.toSec;
}
