import { z } from 'zod';

/**
 * Numbers with units at the protocol's edges. Each schema brands what it reads, so a parsed
 * value carries its unit in its type; what is sent is a plain number (the schema's input).
 */

/** A point in time, whole unix seconds (device clocks, device-token and assignment expiry). */
export const UnixSec = z.number().int().brand<'UnixSec'>();
/** A point in time, whole unix seconds. */
export type UnixSec = z.output<typeof UnixSec>;

/** A point in time, unix milliseconds (session expiry, stored notification times). */
export const UnixMs = z.number().brand<'UnixMs'>();
/** A point in time, unix milliseconds. */
export type UnixMs = z.output<typeof UnixMs>;

/** Power in watts. */
export const Watts = z.number().brand<'Watts'>();
/** Power in watts. */
export type Watts = z.output<typeof Watts>;

/** Energy in watt-hours. */
export const WattHours = z.number().brand<'WattHours'>();
/** Energy in watt-hours. */
export type WattHours = z.output<typeof WattHours>;

/** A number read from storage or the clock as unix seconds: where a wire value is made. */
export const unixSec = (n: number): UnixSec => n as UnixSec;
/** A number read from storage or the clock as unix milliseconds: where a wire value is made. */
export const unixMs = (n: number): UnixMs => n as UnixMs;

/** Unix seconds as milliseconds: the one conversion between the two clocks of the protocol. */
export function secToMs(sec: UnixSec | number): UnixMs {
  return (sec * 1000) as UnixMs;
}

/** Unix milliseconds as whole seconds (rounded down). */
export function msToSec(ms: UnixMs | number): UnixSec {
  return Math.floor(ms / 1000) as UnixSec;
}
