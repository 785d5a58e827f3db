// Hourly rollup of the minute table (telemetry_hours): each row is the aggregate of its device's
// minutes in one UTC hour, as the history read computes it from the minutes (avg of averages per
// minute row, min of minima, max of maxima, the number of minutes and of samples). Backfill
// recomputes the hours it wrote in the same transaction. Ingest marks the hours its minutes fall
// in (telemetry_hours_dirty) in the transaction that writes them and recomputes each hour once,
// after it has ended: recomputing at every minute would aggregate up to 60 minutes of every
// meter at each minute's commit. A marked hour is read from its minutes until then, so a
// re-delivered or merged minute can never leave what a read answers out of step.
import { CompiledQuery } from 'kysely';
import type { Dialect } from '../db/database';
import { bucketsOf, overBuckets, refreshFromMinutes, textByCount, type DeviceBucket } from './buckets';
import type { QueryRunner } from './bulk';
import { MINUTE_COLUMNS } from './columns';

/** Seconds in a rollup bucket. */
export const HOUR_SEC = 3600;

/** The aggregate of a minute column over the minutes of an hour. */
export function hourAggregate(column: string): string {
  const fn = column.endsWith('_min') ? 'min' : column.endsWith('_max') ? 'max' : 'avg';
  return `${fn}(m.${column})`;
}

const COLUMNS = MINUTE_COLUMNS.join(', ');
const AGGREGATES = MINUTE_COLUMNS.map(hourAggregate).join(', ');
const UPDATE = ['minutes', 'samples', ...MINUTE_COLUMNS].map((c) => `${c} = excluded.${c}`).join(', ');
// A hour whose minutes are all gone (pruned) has no group: it is deleted separately.
const upsert = (from: string, on: string) =>
  `INSERT INTO telemetry_hours (device_id, hour_sec, minutes, samples, ${COLUMNS})
   SELECT m.device_id, m.ts_sec - m.ts_sec % ${HOUR_SEC}, count(*), sum(m.samples), ${AGGREGATES}
   FROM ${from} JOIN telemetry_minutes m ON ${on}
   WHERE true GROUP BY m.device_id, m.ts_sec - m.ts_sec % ${HOUR_SEC}
   ON CONFLICT (device_id, hour_sec) DO UPDATE SET ${UPDATE}`;

const REFRESH = refreshFromMinutes(upsert, HOUR_SEC);

/** The distinct (device, hour) pairs of minute starts. */
export function hoursOf(minutes: readonly { deviceId: number; tsSec: number }[]): DeviceBucket[] {
  return bucketsOf(minutes, HOUR_SEC);
}

/** Recomputes the named hours from their minutes (call inside the transaction that wrote them). */
export async function refreshHours(
  trx: QueryRunner,
  dialect: Dialect,
  hours: readonly DeviceBucket[],
): Promise<void> {
  await overBuckets(trx, dialect, hours, REFRESH);
}

/**
 * After minutes before cutoffSec were pruned: hours wholly before it go, and the hour it cuts
 * keeps the aggregate of its remaining minutes.
 */
export async function pruneHours(trx: QueryRunner, dialect: Dialect, cutoffSec: number): Promise<void> {
  const cut = cutoffSec - (cutoffSec % HOUR_SEC);
  const p = dialect === 'postgres' ? ['$1', '$2'] : ['?', '?'];
  await trx.executeQuery(CompiledQuery.raw(`DELETE FROM telemetry_hours WHERE hour_sec <= ${p[0]}`, [cut]));
  await trx.executeQuery(
    CompiledQuery.raw(`DELETE FROM telemetry_hours_dirty WHERE hour_sec < ${p[0]}`, [cut]),
  );
  await trx.executeQuery(
    CompiledQuery.raw(
      `INSERT INTO telemetry_hours (device_id, hour_sec, minutes, samples, ${COLUMNS})
       SELECT m.device_id, m.ts_sec - m.ts_sec % ${HOUR_SEC}, count(*), sum(m.samples), ${AGGREGATES}
       FROM telemetry_minutes m WHERE m.ts_sec >= ${p[0]} AND m.ts_sec < ${p[1]}
       GROUP BY m.device_id, m.ts_sec - m.ts_sec % ${HOUR_SEC}`,
      [cut, cut + HOUR_SEC],
    ),
  );
}

const MARK = {
  pgText: `INSERT INTO telemetry_hours_dirty (device_id, hour_sec)
  SELECT * FROM unnest($1::int[], $2::bigint[]) ON CONFLICT DO NOTHING`,
  sqliteText: textByCount(
    (n) =>
      `INSERT INTO telemetry_hours_dirty (device_id, hour_sec) VALUES ${new Array<string>(n).fill('(?, ?)').join(', ')}
     ON CONFLICT DO NOTHING`,
  ),
  chunk: 500,
};

/** Marks the hours of written minutes for a later recompute (inside the writing transaction). */
export async function markHours(
  trx: QueryRunner,
  dialect: Dialect,
  hours: readonly DeviceBucket[],
): Promise<void> {
  await overBuckets(trx, dialect, hours, MARK);
}

/**
 * Recomputes up to `limit` marked hours that ended at or before endedBySec and unmarks them, in
 * one transaction; returns how many. The marks are taken (deleted) before the minutes are read:
 * a minute committed meanwhile marks its hour again (PostgreSQL makes its insert wait for the
 * delete), so it is never left out.
 */
export async function refreshMarkedHours(
  trx: QueryRunner,
  dialect: Dialect,
  endedBySec: number,
  limit: number,
): Promise<number> {
  const p = dialect === 'postgres' ? ['$1', '$2'] : ['?', '?'];
  const { rows } = await trx.executeQuery(
    CompiledQuery.raw(
      `DELETE FROM telemetry_hours_dirty WHERE (hour_sec, device_id) IN (
         SELECT hour_sec, device_id FROM telemetry_hours_dirty WHERE hour_sec <= ${p[0]} ORDER BY hour_sec LIMIT ${p[1]})
       RETURNING hour_sec, device_id`,
      [endedBySec - HOUR_SEC, limit],
    ),
  );
  const hours = (rows as { hour_sec: number | string; device_id: number }[]).map((r) => ({
    deviceId: Number(r.device_id),
    startSec: Number(r.hour_sec),
  }));
  await refreshHours(trx, dialect, hours);
  return hours.length;
}

/** Marked hours of a device in [fromSec, toSec): the rollup rows of these are not to be read. */
export async function markedHours(
  db: QueryRunner,
  dialect: Dialect,
  deviceId: number,
  fromSec: number,
  toSec: number,
): Promise<number[]> {
  const p = dialect === 'postgres' ? ['$1', '$2', '$3'] : ['?', '?', '?'];
  const { rows } = await db.executeQuery(
    CompiledQuery.raw(
      `SELECT hour_sec FROM telemetry_hours_dirty WHERE hour_sec >= ${p[0]} AND hour_sec < ${p[1]} AND device_id = ${p[2]}
       ORDER BY hour_sec`,
      [fromSec, toSec, deviceId],
    ),
  );
  return (rows as { hour_sec: number | string }[]).map((r) => Number(r.hour_sec));
}
