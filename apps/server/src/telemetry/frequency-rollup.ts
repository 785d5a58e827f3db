// Frequency counts per quarter-hour (frequency_quarters): how many of a device's minutes had a
// mean within 50 Hz ± 1 % and extremes within 50 Hz + 4 % / − 6 %. EN 50160 states its frequency
// rule over a year, longer than minutes are kept, so ingest and backfill recompute the quarters a
// write touched from the minutes, in the same transaction; pruning minutes leaves them alone.
import type { Dialect } from '../db/database';
import { bucketsOf, overBuckets, refreshFromMinutes, type DeviceBucket } from './buckets';
import type { QueryRunner } from './bulk';

/** Seconds in a counting bucket: every zone offset is a multiple of it, so local days split on it. */
export const FREQUENCY_QUARTER_SEC = 900;
/** EN 50160 frequency limits of interconnected systems, Hz (50 Hz ± 1 %, + 4 % / − 6 %). */
export const FREQUENCY_BAND_HZ = { low: 49.5, high: 50.5 } as const;
export const FREQUENCY_ALWAYS_HZ = { low: 47, high: 52 } as const;

const Q = FREQUENCY_QUARTER_SEC;
const upsert = (from: string, on: string) =>
  `INSERT INTO frequency_quarters (device_id, quarter_sec, minutes, within_band, within_always)
   SELECT m.device_id, m.ts_sec - m.ts_sec % ${Q}, count(*),
     sum(CASE WHEN m.f_avg >= ${FREQUENCY_BAND_HZ.low} AND m.f_avg <= ${FREQUENCY_BAND_HZ.high} THEN 1 ELSE 0 END),
     sum(CASE WHEN m.f_min >= ${FREQUENCY_ALWAYS_HZ.low} AND m.f_max <= ${FREQUENCY_ALWAYS_HZ.high} THEN 1 ELSE 0 END)
   FROM ${from} JOIN telemetry_minutes m ON ${on}
   WHERE true GROUP BY m.device_id, m.ts_sec - m.ts_sec % ${Q}
   ON CONFLICT (device_id, quarter_sec) DO UPDATE SET minutes = excluded.minutes,
     within_band = excluded.within_band, within_always = excluded.within_always`;

const REFRESH = refreshFromMinutes(upsert, Q);

/** The distinct (device, quarter) pairs of minute starts. */
export function frequencyQuartersOf(minutes: readonly { deviceId: number; tsSec: number }[]): DeviceBucket[] {
  return bucketsOf(minutes, Q);
}

/** Recomputes the named quarters from their minutes (call inside the transaction that wrote them). */
export async function refreshFrequencyQuarters(
  trx: QueryRunner,
  dialect: Dialect,
  quarters: readonly DeviceBucket[],
): Promise<void> {
  await overBuckets(trx, dialect, quarters, REFRESH);
}
