// The only place that speaks SQL about telemetry.
import type SQLite from 'better-sqlite3';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database, Dialect } from '../db/database';
import { bulkInsert, fixedChunks, type BulkColumnType, type BulkSpec, type QueryRunner } from './bulk';
import type { DB } from '../db/schema';
import type { TelemetryDB } from '../db/schema.telemetry';
import { ENERGY_COLUMNS, MINUTE_COLUMNS } from './columns';
import { MINUTE_CHANNELS, type MinuteAggregate } from './minute-aggregate';
import { sumIntoDays } from './day-rollup';
import { addDays, ensureDayRollup } from './day-rollup.repository';
import { hoursOf, markHours, pruneHours, refreshHours, refreshMarkedHours } from './hour-rollup';
import { frequencyQuartersOf, refreshFrequencyQuarters } from './frequency-rollup';
import { localDayFinder, nextPeriod, startOfDay } from '../history/calendar';
import { meterTestRow, type TestWrite } from '../precision/meters.repository';

/** Energy of one device and quarter, in ENERGY_COLUMNS order. */
export interface QuarterRow {
  deviceId: number;
  tsSec: number;
  values: readonly number[];
}
/** A finished minute of one device. */
export interface MinuteRow {
  deviceId: number;
  agg: MinuteAggregate;
}
/** Last register reading taken into account. */
export interface CursorRow {
  deviceId: number;
  tsSec: number;
  registers: readonly number[];
}
/** A cursor move: from the position the batch's deltas started at (null: first ever) to tsSec. */
export interface CursorMove extends CursorRow {
  fromTsSec: number | null;
  /** The device's open minute at this position (encodeOpenMinute), or null when none is open. */
  openMinute?: Uint8Array | null;
}
/** How far a device's clock is off (null: right again), as its users are shown. */
export interface ClockRow {
  deviceId: number;
  skewSec: number | null;
  /** Status to store if the device has no state yet (its frames come, so it is online). */
  status: number;
  atMs: number;
}
/** Current state of a device. */
export interface StateRow {
  deviceId: number;
  status: number;
  connection: string | null;
  fw: string | null;
  model: string | null;
  changedAtMs: number;
}
/** One status transition. */
export interface StatusChangeRow {
  deviceId: number;
  atMs: number;
  status: number;
  connection: string | null;
}

/** The device_status_changes row of a transition. */
const statusChangeRow = (c: StatusChangeRow) => ({
  device_id: c.deviceId,
  at_ms: c.atMs,
  status: c.status,
  connection: c.connection,
});

/** One accuracy test result of a precision device, keyed (device, IDN, test time). */
export type MeterTestRow = TestWrite;

/** Everything one ingest transaction writes. */
export interface TelemetryBatch {
  quarters: QuarterRow[];
  minutes: MinuteRow[];
  cursors: CursorMove[];
  states: StateRow[];
  statusChanges: StatusChangeRow[];
  meterTests: MeterTestRow[];
  clocks?: ClockRow[];
}

/** How long each kind of data is kept, seconds. */
export interface Retention {
  minutesSec: number;
  quartersSec: number;
  statusChangesSec: number;
}

type TDB = Kysely<DB & TelemetryDB>;

// Both drivers bind a Buffer as a blob (bytea); a plain Uint8Array is wrapped without copying.
function openMinuteParam(c: CursorMove): Buffer | null {
  const b = c.openMinute;
  if (!b) return null;
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

// Stay under SQLite's 32766 bound variables per statement (PostgreSQL allows 65535).
const MAX_PARAMS = 30_000;
function chunks<T>(rows: readonly T[], paramsPerRow: number): T[][] {
  return fixedChunks(rows, Math.max(1, Math.floor(MAX_PARAMS / paramsPerRow)));
}

const KEY = 'ON CONFLICT (device_id, ts_sec)';
const quarterColumns = ['device_id', 'ts_sec', ...ENERGY_COLUMNS];
const quarterTypes: BulkColumnType[] = [
  'int',
  'bigint',
  ...ENERGY_COLUMNS.map((): BulkColumnType => 'bigint'),
];
const minuteColumns = ['device_id', 'ts_sec', 'samples', ...MINUTE_COLUMNS];
const minuteTypes: BulkColumnType[] = [
  'int',
  'bigint',
  'int',
  ...MINUTE_COLUMNS.map((): BulkColumnType => 'float8'),
];
const quarterRow = (r: QuarterRow) => [r.deviceId, r.tsSec, ...r.values];
const minuteRow = (r: MinuteRow) => [r.deviceId, r.agg.minuteStartSec, r.agg.samples, ...r.agg.values];
const minuteKey = (r: MinuteRow) => ({ deviceId: r.deviceId, tsSec: r.agg.minuteStartSec });

// Energy of a redelivered or split quarter adds up; the cursor guarantees each second counts once.
const quarterAddClause = `${KEY} DO UPDATE SET ${ENERGY_COLUMNS.map((c) => `${c} = energy_quarters.${c} + excluded.${c}`).join(', ')}`;

// A minute meeting another part of itself: weighted average, min of minima, max of maxima, so a
// minute written in two parts equals one written at once.
function minuteMergeClause(dialect: Dialect): string {
  const least = dialect === 'sqlite' ? 'min' : 'least';
  const greatest = dialect === 'sqlite' ? 'max' : 'greatest';
  const t = 'telemetry_minutes';
  const sets = MINUTE_CHANNELS.flatMap((c) => {
    const avg = `${c.column}_avg`;
    const out = [
      `${avg} = (${t}.${avg} * ${t}.samples + excluded.${avg} * excluded.samples) / (${t}.samples + excluded.samples)`,
    ];
    if (c.minMax) {
      out.push(`${c.column}_min = ${least}(${t}.${c.column}_min, excluded.${c.column}_min)`);
      out.push(`${c.column}_max = ${greatest}(${t}.${c.column}_max, excluded.${c.column}_max)`);
    }
    return out;
  });
  sets.push(`samples = ${t}.samples + excluded.samples`);
  return `${KEY} DO UPDATE SET ${sets.join(', ')}`;
}

/**
 * Builds the telemetry repository over an open database. `tz` is the installation's time zone:
 * quarter-hour energy is also summed per local day of it (energy_days), in the same transaction.
 */
export function createTelemetryRepository(database: Database, opts: { tz: string }) {
  const db: TDB = database.db.withTables<TelemetryDB>();
  const { dialect } = database;
  const { tz } = opts;
  const dayOf = localDayFinder(tz);
  const quarterAdd: BulkSpec = {
    table: 'energy_quarters',
    columns: quarterColumns,
    types: quarterTypes,
    onConflict: quarterAddClause,
  };
  // Backfill keeps rows already present; only the rows it did insert go into the daily sums.
  const quarterKeep: BulkSpec = {
    ...quarterAdd,
    onConflict: `${KEY} DO NOTHING`,
    returning: 'RETURNING device_id, ts_sec',
  };
  // The rollup must be in this zone before anything is added to it (built once, on first write).
  let rollupReady: Promise<unknown> | null = null;
  const rollupInZone = () => {
    rollupReady ??= ensureDayRollup(database, tz).catch((e: unknown) => {
      rollupReady = null;
      throw e;
    });
    return rollupReady;
  };
  const minuteMerge: BulkSpec = {
    table: 'telemetry_minutes',
    columns: minuteColumns,
    types: minuteTypes,
    onConflict: minuteMergeClause(dialect),
  };
  const minuteKeep: BulkSpec = { ...minuteMerge, onConflict: `${KEY} DO NOTHING` };

  // SQLite moves each cursor with one prepared statement (made on first use, once the schema is
  // there): it runs in microseconds on the transaction's own connection, where a statement of
  // thousands of VALUES would be parsed and planned anew at every commit.
  const native = database.native;
  let cursorMove: SQLite.Statement | null = null;
  const sqliteCursorMove = () =>
    native && 'sqlite' in native
      ? (cursorMove ??= native.sqlite.prepare(
          'UPDATE telemetry_cursors SET ts_sec = ?, registers = ?, open_minute = ? WHERE device_id = ? AND ts_sec = ?',
        ))
      : null;
  // Compare-and-set of cursors: moves of known cursors, inserts of first ones, each set-based on
  // PostgreSQL. Returns the devices whose cursor moved.
  async function moveCursors(trx: QueryRunner, cursors: readonly CursorMove[]): Promise<Set<number>> {
    const moved = new Set<number>();
    const updates = cursors.filter((c) => c.fromTsSec !== null);
    const inserts = cursors.filter((c) => c.fromTsSec === null);
    const collect = (r: { rows: unknown[] }) => {
      for (const row of r.rows as { device_id: number }[]) moved.add(Number(row.device_id));
    };
    if (dialect === 'postgres') {
      if (updates.length) {
        collect(
          await trx.executeQuery(
            CompiledQuery.raw(
              `UPDATE telemetry_cursors AS c SET ts_sec = v.ts, registers = v.reg, open_minute = v.om
               FROM unnest($1::int[], $2::bigint[], $3::bigint[], $4::text[], $5::bytea[]) AS v(device_id, prev_ts, ts, reg, om)
               WHERE c.device_id = v.device_id AND c.ts_sec = v.prev_ts RETURNING c.device_id`,
              [
                updates.map((c) => c.deviceId),
                updates.map((c) => c.fromTsSec),
                updates.map((c) => c.tsSec),
                updates.map((c) => JSON.stringify(c.registers)),
                updates.map((c) => openMinuteParam(c)),
              ],
            ),
          ),
        );
      }
      if (inserts.length) {
        collect(
          await trx.executeQuery(
            CompiledQuery.raw(
              `INSERT INTO telemetry_cursors (device_id, ts_sec, registers, open_minute)
               SELECT * FROM unnest($1::int[], $2::bigint[], $3::text[], $4::bytea[]) ON CONFLICT (device_id) DO NOTHING RETURNING device_id`,
              [
                inserts.map((c) => c.deviceId),
                inserts.map((c) => c.tsSec),
                inserts.map((c) => JSON.stringify(c.registers)),
                inserts.map((c) => openMinuteParam(c)),
              ],
            ),
          ),
        );
      }
      return moved;
    }
    const move = sqliteCursorMove();
    if (move) {
      for (const c of updates) {
        const r = move.run(c.tsSec, JSON.stringify(c.registers), openMinuteParam(c), c.deviceId, c.fromTsSec);
        if (r.changes === 1) moved.add(c.deviceId);
      }
    }
    for (const part of move ? [] : chunks(updates, 5)) {
      collect(
        await trx.executeQuery(
          CompiledQuery.raw(
            `UPDATE telemetry_cursors AS c SET ts_sec = v.column3, registers = v.column4, open_minute = v.column5
             FROM (VALUES ${part.map(() => '(?,?,?,?,?)').join(',')}) AS v
             WHERE c.device_id = v.column1 AND c.ts_sec = v.column2 RETURNING device_id`,
            part.flatMap((c) => [
              c.deviceId,
              c.fromTsSec,
              c.tsSec,
              JSON.stringify(c.registers),
              openMinuteParam(c),
            ]),
          ),
        ),
      );
    }
    for (const part of chunks(inserts, 4)) {
      collect(
        await trx.executeQuery(
          CompiledQuery.raw(
            `INSERT INTO telemetry_cursors (device_id, ts_sec, registers, open_minute) VALUES ${part.map(() => '(?,?,?,?)').join(',')}
             ON CONFLICT (device_id) DO NOTHING RETURNING device_id`,
            part.flatMap((c) => [c.deviceId, c.tsSec, JSON.stringify(c.registers), openMinuteParam(c)]),
          ),
        ),
      );
    }
    return moved;
  }

  // Quarters before the cutoff go, and so do the days they made up; the day the cutoff falls in
  // keeps only its remaining quarters, so it is summed again from them.
  async function pruneQuarters(cutoffSec: number): Promise<{ numDeletedRows: bigint }> {
    await rollupInZone();
    return db.transaction().execute(async (trx) => {
      const q = await trx.deleteFrom('energy_quarters').where('ts_sec', '<', cutoffSec).executeTakeFirst();
      // Frequency counts live as long as energy: the yearly EN 50160 rule reads them.
      await trx.deleteFrom('frequency_quarters').where('quarter_sec', '<', cutoffSec).execute();
      const day = startOfDay(cutoffSec, tz);
      const next = nextPeriod(day, 'DAY', tz);
      await trx.deleteFrom('energy_days').where('day_sec', '<=', day).execute();
      const cols = ENERGY_COLUMNS.join(', ');
      const sums = ENERGY_COLUMNS.map((c) => `sum(${c})`).join(', ');
      const p = dialect === 'postgres' ? ['$1::bigint', '$2', '$3'] : ['?', '?', '?'];
      await trx.executeQuery(
        CompiledQuery.raw(
          `INSERT INTO energy_days (device_id, day_sec, ${cols})
           SELECT device_id, ${p[0]}, ${sums} FROM energy_quarters WHERE ts_sec >= ${p[1]} AND ts_sec < ${p[2]} GROUP BY device_id`,
          [day, day, next],
        ),
      );
      return q;
    });
  }

  return {
    /** Device id of a mac, or null when the portal does not know it. */
    async deviceIdByMac(mac: string): Promise<number | null> {
      const row = await db.selectFrom('devices').select('id').where('mac', '=', mac).executeTakeFirst();
      return row?.id ?? null;
    },

    /** Id and device type of a device by its mac, or null. */
    async deviceByMac(mac: string): Promise<{ id: number; type: number } | null> {
      const row = await db
        .selectFrom('devices')
        .select(['id', 'type'])
        .where('mac', '=', mac)
        .executeTakeFirst();
      return row ? { id: row.id, type: Number(row.type) } : null;
    },

    /** Ingest position and current status of a device. */
    async loadDeviceContext(deviceId: number): Promise<{
      cursor: CursorRow | null;
      status: number | null;
      openMinute: Uint8Array | null;
      clockSkewSec: number | null;
    }> {
      const [cursor, state] = await Promise.all([
        db.selectFrom('telemetry_cursors').selectAll().where('device_id', '=', deviceId).executeTakeFirst(),
        db
          .selectFrom('device_states')
          .select(['status', 'clock_skew_sec'])
          .where('device_id', '=', deviceId)
          .executeTakeFirst(),
      ]);
      return {
        cursor: cursor
          ? { deviceId, tsSec: Number(cursor.ts_sec), registers: JSON.parse(cursor.registers) as number[] }
          : null,
        status: state ? state.status : null,
        openMinute: cursor?.open_minute ?? null,
        clockSkewSec: state?.clock_skew_sec ?? null,
      };
    },

    /**
     * Positions of the devices whose minute was open at the last commit, with that minute: after
     * a restart their partial minutes are rebuilt from here, then closed by their next frame or
     * by the grace time, as before the restart.
     */
    async openContexts(): Promise<
      {
        mac: string;
        type: number;
        cursor: CursorRow;
        status: number | null;
        openMinute: Uint8Array;
        clockSkewSec: number | null;
      }[]
    > {
      const rows = await db
        .selectFrom('telemetry_cursors as c')
        .innerJoin('devices as d', 'd.id', 'c.device_id')
        .leftJoin('device_states as s', 's.device_id', 'c.device_id')
        .select([
          'c.device_id',
          'd.mac',
          'd.type',
          'c.ts_sec',
          'c.registers',
          'c.open_minute',
          's.status',
          's.clock_skew_sec',
        ])
        .where('c.open_minute', 'is not', null)
        .execute();
      return rows.map((r) => ({
        mac: r.mac,
        type: Number(r.type),
        cursor: {
          deviceId: r.device_id,
          tsSec: Number(r.ts_sec),
          registers: JSON.parse(r.registers) as number[],
        },
        status: r.status ?? null,
        openMinute: r.open_minute!,
        clockSkewSec: r.clock_skew_sec ?? null,
      }));
    },

    /**
     * Writes one ingest batch atomically. Each device's cursor moves only if it still stands where
     * the batch's deltas started (compare-and-set), so two writers on one device can never count
     * the same energy twice; devices that lost the race are returned and their rows are dropped.
     */
    async writeBatch(batch: TelemetryBatch): Promise<{ conflicted: number[] }> {
      if (batch.quarters.length) await rollupInZone();
      return db.transaction().execute(async (trx) => {
        const moved = await moveCursors(trx, batch.cursors);
        const conflicted = batch.cursors.filter((c) => !moved.has(c.deviceId)).map((c) => c.deviceId);
        const ok = (r: { deviceId: number }) =>
          !conflicted.length ||
          moved.has(r.deviceId) ||
          !batch.cursors.some((c) => c.deviceId === r.deviceId);
        const quarters = batch.quarters.filter(ok);
        await bulkInsert(trx, dialect, quarterAdd, quarters.map(quarterRow));
        // Energy added to a quarter is added to its day as well.
        await addDays(trx, dialect, sumIntoDays(quarters, dayOf));
        const minutes = batch.minutes.filter(ok);
        await bulkInsert(trx, dialect, minuteMerge, minutes.map(minuteRow));
        await markHours(trx, dialect, hoursOf(minutes.map(minuteKey)));
        await refreshFrequencyQuarters(trx, dialect, frequencyQuartersOf(minutes.map(minuteKey)));
        for (const s of batch.states) {
          const row = {
            status: s.status,
            connection: s.connection,
            fw: s.fw,
            model: s.model,
            changed_at_ms: s.changedAtMs,
          };
          await trx
            .insertInto('device_states')
            .values({ device_id: s.deviceId, ...row })
            .onConflict((oc) => oc.column('device_id').doUpdateSet(row))
            .execute();
        }
        for (const part of chunks(batch.statusChanges, 4)) {
          await trx.insertInto('device_status_changes').values(part.map(statusChangeRow)).execute();
        }
        // A redelivered test result meets the unique key and is dropped.
        for (const part of chunks(batch.meterTests, 5)) {
          await trx
            .insertInto('meter_tests')
            .values(part.map(meterTestRow))
            .onConflict((oc) => oc.columns(['device_id', 'idn', 'mtime_sec']).doNothing())
            .execute();
        }
        for (const c of batch.clocks ?? []) {
          await trx
            .insertInto('device_states')
            .values({
              device_id: c.deviceId,
              status: c.status,
              connection: null,
              fw: null,
              model: null,
              changed_at_ms: c.atMs,
              clock_skew_sec: c.skewSec,
            })
            .onConflict((oc) => oc.column('device_id').doUpdateSet({ clock_skew_sec: c.skewSec }))
            .execute();
        }
        return { conflicted };
      });
    },

    /**
     * Recomputes up to `limit` marked hours of the rollup that ended at or before endedBySec from
     * their minutes, in one transaction; returns how many.
     */
    async refreshEndedHours(endedBySec: number, limit: number): Promise<number> {
      return db.transaction().execute((trx) => refreshMarkedHours(trx, dialect, endedBySec, limit));
    },

    /** Whether the database answers at all (tells a refused row from an outage). */
    async reachable(): Promise<boolean> {
      try {
        await db.executeQuery(CompiledQuery.raw('SELECT 1'));
        return true;
      } catch {
        return false;
      }
    },

    /** Bulk load of history (backfill): rows already present are kept. */
    async insertHistory(quarters: readonly QuarterRow[], minutes: readonly MinuteRow[]): Promise<void> {
      if (quarters.length) await rollupInZone();
      await db.transaction().execute(async (trx) => {
        const inserted = (await bulkInsert(trx, dialect, quarterKeep, quarters.map(quarterRow))) as {
          device_id: number;
          ts_sec: number;
        }[];
        const fresh = new Set(inserted.map((r) => `${Number(r.device_id)}:${Number(r.ts_sec)}`));
        await addDays(
          trx,
          dialect,
          sumIntoDays(
            quarters.filter((q) => fresh.has(`${q.deviceId}:${q.tsSec}`)),
            dayOf,
          ),
        );
        await bulkInsert(trx, dialect, minuteKeep, minutes.map(minuteRow));
        await refreshHours(trx, dialect, hoursOf(minutes.map(minuteKey)));
        await refreshFrequencyQuarters(trx, dialect, frequencyQuartersOf(minutes.map(minuteKey)));
      });
    },

    /** Bulk load of past status transitions (backfill). */
    async insertStatusChanges(changes: readonly StatusChangeRow[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const part of chunks(changes, 200)) {
          await trx.insertInto('device_status_changes').values(part.map(statusChangeRow)).execute();
        }
      });
    },

    /** Earliest quarter stored for a device (backfill runs only where history is missing). */
    async firstQuarterSec(deviceId: number): Promise<number | null> {
      const row = await db
        .selectFrom('energy_quarters')
        .select((eb) => eb.fn.min('ts_sec').as('first'))
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
      return row?.first === null || row?.first === undefined ? null : Number(row.first);
    },

    /** Deletes data older than its retention; returns rows removed per kind. */
    async prune(
      retention: Retention,
      nowMs: number,
    ): Promise<{ minutes: number; quarters: number; statusChanges: number; harmonics: number }> {
      const nowSec = Math.floor(nowMs / 1000);
      const minuteCutoff = nowSec - retention.minutesSec;
      const m = await db.transaction().execute(async (trx) => {
        const r = await trx
          .deleteFrom('telemetry_minutes')
          .where('ts_sec', '<', minuteCutoff)
          .executeTakeFirst();
        await pruneHours(trx, dialect, minuteCutoff);
        return r;
      });
      // Polled harmonic spectra are 10-minute values of the same assessment: kept as long as minutes.
      const h = await db
        .deleteFrom('harmonic_intervals')
        .where('interval_sec', '<', minuteCutoff)
        .executeTakeFirst();
      const q = await pruneQuarters(nowSec - retention.quartersSec);
      const s = await db
        .deleteFrom('device_status_changes')
        .where('at_ms', '<', nowMs - retention.statusChangesSec * 1000)
        .executeTakeFirst();
      return {
        minutes: Number(m.numDeletedRows),
        quarters: Number(q.numDeletedRows),
        statusChanges: Number(s.numDeletedRows),
        harmonics: Number(h.numDeletedRows),
      };
    },
  };
}

/** The telemetry repository. */
export type TelemetryRepository = ReturnType<typeof createTelemetryRepository>;
