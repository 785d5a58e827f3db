// Units of the EN 50160 assessment shared by the weekly criteria and the harmonic orders.

/** A 10-minute interval, seconds. */
export const INTERVAL_SEC = 600;

/** A share in percent rounded down to 0.01, so 94.996 % never reads as 95 %. */
export const floorPct = (part: number, whole: number) => Math.floor((part * 10000) / whole) / 100;
