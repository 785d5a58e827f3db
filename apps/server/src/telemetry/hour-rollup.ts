// Hourly rollup of the minute table (telemetry_hours): each row is the aggregate of its device's
// minutes in one UTC hour, as the history read computes it from the minutes (avg of averages per
// minute row, min of minima, max of maxima, the number of minutes and of samples). Ingest and
// backfill recompute the hours a write touched from the minutes themselves, in the same
// transaction, so a re-delivered or merged minute can never leave an hour out of step.
import { CompiledQuery } from 'kysely';
import type { Dialect } from '../db/database';
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

const PG_REFRESH = upsert(
  'unnest($1::int[], $2::bigint[]) AS h(device_id, hour_sec)',
  `m.device_id = h.device_id AND m.ts_sec >= h.hour_sec AND m.ts_sec < h.hour_sec + ${HOUR_SEC}`,
);
const SQLITE_CHUNK = 200;
const sqliteRefresh = (n: number) =>
  upsert(
    `(VALUES ${new Array<string>(n).fill('(?, ?)').join(', ')}) AS h`,
    `m.device_id = h.column1 AND m.ts_sec >= h.column2 AND m.ts_sec < h.column2 + ${HOUR_SEC}`,
  );
const sqliteStatements = new Map<number, string>();

/** The distinct (device, hour) pairs of minute starts. */
export function hoursOf(
  minutes: readonly { deviceId: number; tsSec: number }[],
): { deviceId: number; hourSec: number }[] {
  const seen = new Map<string, { deviceId: number; hourSec: number }>();
  for (const m of minutes) {
    const hourSec = m.tsSec - (m.tsSec % HOUR_SEC);
    seen.set(`${m.deviceId}:${hourSec}`, { deviceId: m.deviceId, hourSec });
  }
  return [...seen.values()];
}

/** Recomputes the named hours from their minutes (call inside the transaction that wrote them). */
export async function refreshHours(
  trx: QueryRunner,
  dialect: Dialect,
  hours: readonly { deviceId: number; hourSec: number }[],
): Promise<void> {
  if (hours.length === 0) return;
  if (dialect === 'postgres') {
    await trx.executeQuery(
      CompiledQuery.raw(PG_REFRESH, [hours.map((h) => h.deviceId), hours.map((h) => h.hourSec)]),
    );
    return;
  }
  for (let i = 0; i < hours.length; i += SQLITE_CHUNK) {
    const part = hours.slice(i, i + SQLITE_CHUNK);
    let text = sqliteStatements.get(part.length);
    if (!text) sqliteStatements.set(part.length, (text = sqliteRefresh(part.length)));
    await trx.executeQuery(
      CompiledQuery.raw(
        text,
        part.flatMap((h) => [h.deviceId, h.hourSec]),
      ),
    );
  }
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
    CompiledQuery.raw(
      `INSERT INTO telemetry_hours (device_id, hour_sec, minutes, samples, ${COLUMNS})
       SELECT m.device_id, m.ts_sec - m.ts_sec % ${HOUR_SEC}, count(*), sum(m.samples), ${AGGREGATES}
       FROM telemetry_minutes m WHERE m.ts_sec >= ${p[0]} AND m.ts_sec < ${p[1]}
       GROUP BY m.device_id, m.ts_sec - m.ts_sec % ${HOUR_SEC}`,
      [cut, cut + HOUR_SEC],
    ),
  );
}
