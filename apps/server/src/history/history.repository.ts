import { sql } from 'kysely';
import type { Database } from '../db/database';
import type { EnergyColumn, MinuteValueColumn, TelemetryDB } from '../db/schema.telemetry';

/** One row of chosen columns at a time. */
export interface TimedValues {
  tsSec: number;
  values: number[];
}

/** SQL for reading stored telemetry: minute profiles, quarter-hour energy, status changes. */
export function historyRepository(database: Database) {
  const db = database.db.withTables<TelemetryDB>();
  return {
    async minutes(deviceId: number, fromSec: number, toSec: number, columns: MinuteValueColumn[]): Promise<TimedValues[]> {
      const rows = await db
        .selectFrom('telemetry_minutes')
        .select(['ts_sec', ...columns])
        .where('device_id', '=', deviceId)
        .where('ts_sec', '>=', fromSec)
        .where('ts_sec', '<', toSec)
        .orderBy('ts_sec')
        .execute();
      return rows.map((r) => {
        const rec = r as unknown as Record<string, number>;
        return { tsSec: Number(rec.ts_sec), values: columns.map((c) => Number(rec[c])) };
      });
    },

    /** Quarter rows summed into buckets of bucketSec (a multiple of 900) aligned on UTC. */
    async energyBuckets(
      deviceId: number,
      fromSec: number,
      toSec: number,
      columns: EnergyColumn[],
      bucketSec: number,
    ): Promise<TimedValues[]> {
      const bucket = sql<number>`ts_sec - (ts_sec % ${sql.lit(bucketSec)})`;
      let q = db
        .selectFrom('energy_quarters')
        .select(bucket.as('b'))
        .where('device_id', '=', deviceId)
        .where('ts_sec', '>=', fromSec)
        .where('ts_sec', '<', toSec)
        .groupBy(sql`1`)
        .orderBy(sql`1`);
      for (const c of columns) q = q.select(sql<number>`sum(${sql.ref(c)})`.as(c));
      const rows = await q.execute();
      return rows.map((r) => {
        const rec = r as unknown as Record<string, number | string>;
        return { tsSec: Number(rec.b), values: columns.map((c) => Number(rec[c])) };
      });
    },

    /**
     * Energy over [fromSec, toSec) in ascending buckets, in one statement: whole local days
     * [fromDay, toDay) from the daily rollup, the parts of the range before and after them from
     * the quarters, summed into UTC-aligned buckets of bucketSec. Each bucket lies inside one
     * local day, so it falls into the same calendar period as the quarters it sums.
     */
    async energyByDays(
      deviceId: number,
      range: { fromSec: number; toSec: number; fromDay: number; toDay: number },
      columns: EnergyColumn[],
      bucketSec: number,
    ): Promise<TimedValues[]> {
      const bucket = sql`ts_sec - (ts_sec % ${sql.lit(bucketSec)})`;
      const sums = sql.join(columns.map((c) => sql`sum(${sql.ref(c)}) as ${sql.ref(c)}`));
      const plain = sql.join(columns.map((c) => sql.ref(c)));
      const quarters = (from: number, to: number) =>
        sql`select ${bucket} as b, ${sums} from energy_quarters where device_id = ${deviceId} and ts_sec >= ${from} and ts_sec < ${to} group by 1`;
      const { rows } = await sql<Record<string, number | string>>`
        ${quarters(range.fromSec, range.fromDay)}
        union all
        select day_sec as b, ${plain} from energy_days where device_id = ${deviceId} and day_sec >= ${range.fromDay} and day_sec < ${range.toDay}
        union all
        ${quarters(range.toDay, range.toSec)}
        order by 1`.execute(db);
      return rows.map((rec) => ({ tsSec: Number(rec.b), values: columns.map((c) => Number(rec[c])) }));
    },

    async statusChanges(deviceId: number, fromMs: number, toMs: number) {
      const before = await db
        .selectFrom('device_status_changes')
        .select(['at_ms', 'status'])
        .where('device_id', '=', deviceId)
        .where('at_ms', '<', fromMs)
        .orderBy('at_ms', 'desc')
        .limit(1)
        .executeTakeFirst();
      const within = await db
        .selectFrom('device_status_changes')
        .select(['at_ms', 'status'])
        .where('device_id', '=', deviceId)
        .where('at_ms', '>=', fromMs)
        .where('at_ms', '<', toMs)
        .orderBy('at_ms')
        .orderBy('id')
        .execute();
      return { before, within };
    },

    /** When the online period that is open at atMs began (for uptime), if any. */
    async lastOnlineSince(deviceId: number, atMs: number): Promise<number | undefined> {
      const lastOff = await db
        .selectFrom('device_status_changes')
        .select('at_ms')
        .where('device_id', '=', deviceId)
        .where('at_ms', '<', atMs)
        .where('status', '=', 0)
        .orderBy('at_ms', 'desc')
        .limit(1)
        .executeTakeFirst();
      const firstOn = await db
        .selectFrom('device_status_changes')
        .select('at_ms')
        .where('device_id', '=', deviceId)
        .where('at_ms', '<', atMs)
        .where('at_ms', '>', lastOff?.at_ms ?? -1)
        .where('status', '!=', 0)
        .orderBy('at_ms')
        .limit(1)
        .executeTakeFirst();
      return firstOn?.at_ms;
    },
  };
}
/** SQL for reading stored telemetry. */
export type HistoryRepository = ReturnType<typeof historyRepository>;
