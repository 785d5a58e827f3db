// Rollups kept per device and time bucket (an hour, a quarter-hour) are recomputed for the
// buckets a write touched: these are the distinct buckets of written minutes, and the one way to
// run a statement over a list of them on either database.
import { CompiledQuery } from 'kysely';
import type { Dialect } from '../db/database';
import type { QueryRunner } from './bulk';

/** One device's bucket, by the second it starts at. */
export interface DeviceBucket {
  deviceId: number;
  startSec: number;
}

/** The distinct buckets of `sizeSec` seconds that the minutes start in. */
export function bucketsOf(
  minutes: readonly { deviceId: number; tsSec: number }[],
  sizeSec: number,
): DeviceBucket[] {
  const seen = new Map<string, DeviceBucket>();
  for (const m of minutes) {
    const startSec = m.tsSec - (m.tsSec % sizeSec);
    seen.set(`${m.deviceId}:${startSec}`, { deviceId: m.deviceId, startSec });
  }
  return [...seen.values()];
}

/** SQL text per row count, built once for each count. */
export function textByCount(text: (n: number) => string): (n: number) => string {
  const made = new Map<number, string>();
  return (n) => made.get(n) ?? made.set(n, text(n)).get(n)!;
}

/** A statement run over buckets by `overBuckets`. */
export interface BucketStatement {
  pgText: string;
  sqliteText: (n: number) => string;
  /** Most buckets in one SQLite statement. */
  chunk: number;
}

/**
 * The statement that recomputes a rollup's buckets from their minutes: `upsert(from, on)` is its
 * text, reading the buckets from `from` as `b` and joining `telemetry_minutes m` to them by `on`.
 */
export function refreshFromMinutes(
  upsert: (from: string, on: string) => string,
  sizeSec: number,
): BucketStatement {
  return {
    pgText: upsert(
      'unnest($1::int[], $2::bigint[]) AS b(device_id, start_sec)',
      `m.device_id = b.device_id AND m.ts_sec >= b.start_sec AND m.ts_sec < b.start_sec + ${sizeSec}`,
    ),
    sqliteText: textByCount((n) =>
      upsert(
        `(VALUES ${new Array<string>(n).fill('(?, ?)').join(', ')}) AS b`,
        `m.device_id = b.column1 AND m.ts_sec >= b.column2 AND m.ts_sec < b.column2 + ${sizeSec}`,
      ),
    ),
    chunk: 200,
  };
}

/**
 * Runs one statement over buckets: on PostgreSQL once with the two columns as arrays ($1 devices,
 * $2 bucket starts), on SQLite in chunks of at most `chunk` `?, ?` pairs in that order.
 */
export async function overBuckets(
  trx: QueryRunner,
  dialect: Dialect,
  buckets: readonly DeviceBucket[],
  statement: BucketStatement,
): Promise<void> {
  if (buckets.length === 0) return;
  if (dialect === 'postgres') {
    await trx.executeQuery(
      CompiledQuery.raw(statement.pgText, [buckets.map((b) => b.deviceId), buckets.map((b) => b.startSec)]),
    );
    return;
  }
  for (let i = 0; i < buckets.length; i += statement.chunk) {
    const part = buckets.slice(i, i + statement.chunk);
    await trx.executeQuery(
      CompiledQuery.raw(
        statement.sqliteText(part.length),
        part.flatMap((b) => [b.deviceId, b.startSec]),
      ),
    );
  }
}
