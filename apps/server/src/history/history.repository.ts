import { sql } from 'kysely';
import type { Statement } from 'better-sqlite3';
import type { Database } from '../db/database';
import type { EnergyColumn, MinuteValueColumn, TelemetryDB } from '../db/schema.telemetry';
import { MINUTE_COLUMNS } from '../telemetry/columns';
import { markedHours } from '../telemetry/hour-rollup';

/** One row of chosen columns at a time. */
export interface TimedValues {
  tsSec: number;
  values: number[];
}

/** Minutes of one device column by column: start times and one array per asked column. */
export interface MinuteColumns {
  tsSec: number[];
  values: Float64Array[];
}

const KNOWN_MINUTE_COLUMNS: ReadonlySet<string> = new Set(MINUTE_COLUMNS);

/** A stored minute or hour value; NaN where the device does not measure it (written as null). */
const measuredValue = (v: unknown): number => (v === null || v === undefined ? Number.NaN : Number(v));

/**
 * Span of one statement of a long aggregate read on SQLite: six hours of minutes, a week of quarters
 * (a few hundred rows each). Ten such reads at once then hold up another request by ten short
 * statements at most.
 */
const MINUTE_WINDOW_SEC = 6 * 3600;
const QUARTER_WINDOW_SEC = 7 * 86400;
/** A week of hourly rollup rows (168) per statement. */
const HOUR_WINDOW_SEC = 7 * 86400;
const STATEMENT_CACHE_SIZE = 200;

/** SQL for reading stored telemetry: minute profiles, quarter-hour energy, status changes. */
export function historyRepository(database: Database) {
  const db = database.db.withTables<TelemetryDB>();
  const statements = new Map<string, Statement>();
  const sqlite = !!database.native && 'sqlite' in database.native;

  /**
   * A long aggregate read in statements over windows aligned on windowSec (a multiple of the
   * bucket, so no bucket is split), yielding to the event loop between them. SQLite's driver reads
   * synchronously: a year in one statement would stall every other request for its whole length.
   * PostgreSQL answers asynchronously and takes the range in one statement.
   */
  async function inWindows<T>(
    fromSec: number,
    toSec: number,
    windowSec: number,
    read: (from: number, to: number) => Promise<T[]>,
  ): Promise<T[]> {
    if (!sqlite || toSec - fromSec <= windowSec) return read(fromSec, toSec);
    const out: T[] = [];
    for (let a = fromSec; a < toSec;) {
      const b = Math.min(toSec, (Math.floor(a / windowSec) + 1) * windowSec);
      for (const row of await read(a, b)) out.push(row);
      await new Promise((resolve) => setImmediate(resolve));
      a = b;
    }
    return out;
  }

  // A day of minutes for every quantity is 1,440 rows of up to 38 values: taken from the driver
  // as arrays, since building row objects costs more than reading the rows.
  async function minuteArrays(
    deviceId: number,
    fromSec: number,
    toSec: number,
    columns: readonly MinuteValueColumn[],
  ): Promise<unknown[][]> {
    for (const c of columns) if (!KNOWN_MINUTE_COLUMNS.has(c)) throw new Error(`unknown minute column ${c}`);
    const list = ['ts_sec', ...columns].join(', ');
    const native = database.native;
    if (native && 'sqlite' in native) {
      const text = `SELECT ${list} FROM telemetry_minutes WHERE device_id = ? AND ts_sec >= ? AND ts_sec < ? ORDER BY ts_sec`;
      let st = statements.get(text);
      if (!st) {
        st = native.sqlite.prepare(text).raw(true);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(text, st);
      }
      // Holding the query builder's connection: no write transaction is open on it meanwhile, so
      // the read sees committed rows only, as every other read does.
      const prepared = st;
      return db
        .connection()
        .execute(() => Promise.resolve(prepared.all(deviceId, fromSec, toSec) as unknown[][]));
    }
    if (native && 'pool' in native) {
      const text = `SELECT ${list} FROM telemetry_minutes WHERE device_id = $1 AND ts_sec >= $2 AND ts_sec < $3 ORDER BY ts_sec`;
      const r = await native.pool.query<unknown[]>({
        text,
        values: [deviceId, fromSec, toSec],
        rowMode: 'array',
      });
      return r.rows;
    }
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
      return [rec.ts_sec, ...columns.map((c) => rec[c])];
    });
  }

  /**
   * Minutes of [fromSec, toSec) averaged in the database into UTC-aligned buckets of bucketSec,
   * with the number of minutes in each (so buckets can be combined further by weight).
   */
  async function minuteAverages(
    deviceId: number,
    fromSec: number,
    toSec: number,
    columns: readonly MinuteValueColumn[],
    bucketSec: number,
  ): Promise<MinuteColumns & { counts: number[] }> {
    for (const c of columns) if (!KNOWN_MINUTE_COLUMNS.has(c)) throw new Error(`unknown minute column ${c}`);
    const read = async (from: number, to: number) => {
      let q = db
        .selectFrom('telemetry_minutes')
        .select(sql<number>`ts_sec - (ts_sec % ${sql.lit(bucketSec)})`.as('b'))
        .select(sql<number>`count(*)`.as('n'))
        .where('device_id', '=', deviceId)
        .where('ts_sec', '>=', from)
        .where('ts_sec', '<', to)
        .groupBy(sql`1`)
        .orderBy(sql`1`);
      for (const c of columns) q = q.select(sql<number>`avg(${sql.ref(c)})`.as(c));
      return (await q.execute()) as unknown as Record<string, number | string>[];
    };
    const rows = await inWindows(fromSec, toSec, Math.max(MINUTE_WINDOW_SEC, bucketSec), read);
    const values = columns.map((c) => Float64Array.from(rows, (r) => measuredValue(r[c])));
    return { tsSec: rows.map((r) => Number(r.b)), counts: rows.map((r) => Number(r.n)), values };
  }

  return {
    /**
     * Costly reads worth running at once: SQLite answers them one statement at a time on one
     * connection, so a second read in parallel adds no throughput, only statements queued ahead of
     * every light request's queries; PostgreSQL runs them on separate pooled connections.
     */
    heavyReadsAtOnce: sqlite ? 1 : 3,

    /** Minutes of [fromSec, toSec) in time order, column by column. */
    async minuteColumns(
      deviceId: number,
      fromSec: number,
      toSec: number,
      columns: readonly MinuteValueColumn[],
    ): Promise<MinuteColumns> {
      // Two days of every quantity is 2,880 rows of 38 values: on SQLite in six-hour statements.
      const rows = await inWindows(fromSec, toSec, MINUTE_WINDOW_SEC, (a, b) =>
        minuteArrays(deviceId, a, b, columns),
      );
      const n = rows.length;
      const tsSec = new Array<number>(n);
      const values = columns.map(() => new Float64Array(n));
      for (let i = 0; i < n; i++) {
        const r = rows[i]!;
        tsSec[i] = Number(r[0]);
        for (let c = 0; c < values.length; c++) values[c]![i] = measuredValue(r[c + 1]);
      }
      return { tsSec, values };
    },

    minuteAverages,

    /**
     * Hourly averages of [fromSec, toSec) with the minutes in each hour, equal to
     * minuteAverages(..., 3600): the whole hours come from the hourly rollup (one row an hour), only
     * the partial hours at the range's ends from the minutes.
     */
    async hourAverages(
      deviceId: number,
      fromSec: number,
      toSec: number,
      columns: readonly MinuteValueColumn[],
    ): Promise<MinuteColumns & { counts: number[] }> {
      for (const c of columns)
        if (!KNOWN_MINUTE_COLUMNS.has(c)) throw new Error(`unknown minute column ${c}`);
      const firstWhole = Math.ceil(fromSec / 3600) * 3600;
      const endWhole = Math.floor(toSec / 3600) * 3600;
      if (firstWhole >= endWhole) return minuteAverages(deviceId, fromSec, toSec, columns, 3600);
      const read = async (from: number, to: number) => {
        const rows = await db
          .selectFrom('telemetry_hours')
          .select(['hour_sec', 'minutes', ...columns])
          .where('device_id', '=', deviceId)
          .where('hour_sec', '>=', from)
          .where('hour_sec', '<', to)
          .orderBy('hour_sec')
          .execute();
        return rows as unknown as Record<string, number | string>[];
      };
      const [head, rolled, tail, marked] = await Promise.all([
        minuteAverages(deviceId, fromSec, firstWhole, columns, 3600),
        inWindows(firstWhole, endWhole, HOUR_WINDOW_SEC, read),
        minuteAverages(deviceId, endWhole, toSec, columns, 3600),
        markedHours(db, database.dialect, deviceId, firstWhole, endWhole),
      ]);
      // An hour marked for a recompute (the current one, one that just ended, one a late minute
      // changed) is averaged from its minutes, as the rollup will hold it once recomputed.
      const whole: Record<string, number | string>[] = rolled.filter(
        (r) => !marked.includes(Number(r.hour_sec)),
      );
      for (const hourSec of marked) {
        const m = await minuteAverages(deviceId, hourSec, hourSec + 3600, columns, 3600);
        if (m.tsSec.length === 0) continue;
        const row: Record<string, number | string> = { hour_sec: m.tsSec[0]!, minutes: m.counts[0]! };
        columns.forEach((c, i) => (row[c] = m.values[i]![0]!));
        whole.push(row);
      }
      if (marked.length) whole.sort((a, b) => Number(a.hour_sec) - Number(b.hour_sec));
      return {
        tsSec: [...head.tsSec, ...whole.map((r) => Number(r.hour_sec)), ...tail.tsSec],
        counts: [...head.counts, ...whole.map((r) => Number(r.minutes)), ...tail.counts],
        values: columns.map((c, i) => {
          const v = new Float64Array(head.tsSec.length + whole.length + tail.tsSec.length);
          v.set(head.values[i]!, 0);
          whole.forEach((r, k) => (v[head.tsSec.length + k] = measuredValue(r[c])));
          v.set(tail.values[i]!, head.tsSec.length + whole.length);
          return v;
        }),
      };
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
      const read = async (from: number, to: number) => {
        let q = db
          .selectFrom('energy_quarters')
          .select(bucket.as('b'))
          .where('device_id', '=', deviceId)
          .where('ts_sec', '>=', from)
          .where('ts_sec', '<', to)
          .groupBy(sql`1`)
          .orderBy(sql`1`);
        for (const c of columns) q = q.select(sql<number>`sum(${sql.ref(c)})`.as(c));
        return q.execute();
      };
      const rows = await inWindows(fromSec, toSec, QUARTER_WINDOW_SEC, read);
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
