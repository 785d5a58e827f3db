// SQL of the daily energy rollup (energy_days, energy_rollup): adding day rows, rebuilding the
// rollup from the quarter-hours, and the zone it was built in.
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../db/database';
import type { DB } from '../db/schema';
import { localDayFinder } from '../history/calendar';
import { bulkInsert, type BulkColumnType, type BulkSpec, type QueryRunner } from './bulk';
import { ENERGY_COLUMNS } from './columns';
import { sumIntoDays, type DayRow } from './day-rollup';

const dayColumns = ['device_id', 'day_sec', ...ENERGY_COLUMNS];
const dayTypes: BulkColumnType[] = ['int', 'bigint', ...ENERGY_COLUMNS.map((): BulkColumnType => 'bigint')];

/** Adds rows into their days (ingest and backfill add exactly what they added to the quarters). */
export const dayAdd: BulkSpec = {
  table: 'energy_days',
  columns: dayColumns,
  types: dayTypes,
  onConflict: `ON CONFLICT (device_id, day_sec) DO UPDATE SET ${ENERGY_COLUMNS.map((c) => `${c} = energy_days.${c} + excluded.${c}`).join(', ')}`,
};

/** Adds day rows (values in ENERGY_COLUMNS order) to the rollup. */
export async function addDays(db: QueryRunner, dialect: Dialect, days: readonly DayRow[]): Promise<void> {
  await bulkInsert(
    db,
    dialect,
    dayAdd,
    days.map((d) => [d.deviceId, d.daySec, ...d.values]),
  );
}

/**
 * Recomputes the whole rollup from the stored quarter-hours in the given zone and records the
 * zone. Run it inside a transaction (the migration is one).
 */
export async function rebuildDayRollup<T>(db: Kysely<T>, dialect: Dialect, tz: string): Promise<void> {
  await sql`DELETE FROM energy_days`.execute(db);
  const ids = await sql<{ device_id: number }>`SELECT DISTINCT device_id FROM energy_quarters`.execute(db);
  const dayOf = localDayFinder(tz);
  const cols = ENERGY_COLUMNS.join(', ');
  for (const { device_id } of ids.rows) {
    const rows = await db.executeQuery<Record<string, number>>(
      CompiledQuery.raw(
        `SELECT ts_sec, ${cols} FROM energy_quarters WHERE device_id = ${dialect === 'postgres' ? '$1' : '?'} ORDER BY ts_sec`,
        [device_id],
      ),
    );
    const quarters = rows.rows.map((r) => ({
      deviceId: Number(device_id),
      tsSec: Number(r.ts_sec),
      values: ENERGY_COLUMNS.map((c) => Number(r[c])),
    }));
    await addDays(db, dialect, sumIntoDays(quarters, dayOf));
  }
  await sql`DELETE FROM energy_rollup`.execute(db);
  await sql`INSERT INTO energy_rollup (id, tz) VALUES (1, ${tz})`.execute(db);
}

/** The zone the rollup is built in, or null before it was ever built. */
export async function rollupZone<T>(db: Kysely<T>): Promise<string | null> {
  const r = await sql<{ tz: string }>`SELECT tz FROM energy_rollup WHERE id = 1`.execute(db);
  return r.rows[0]?.tz ?? null;
}

/**
 * Makes sure the rollup is built in tz: rebuilds it from the quarter-hours when it was never
 * built or was built in another zone (the installation's TZ changed). Safe with several
 * instances starting at once: on PostgreSQL the check and rebuild hold a lock that writers of
 * the rollup wait for.
 */
export async function ensureDayRollup(database: Database, tz: string): Promise<{ rebuilt: boolean }> {
  if ((await rollupZone(database.db)) === tz) return { rebuilt: false };
  return database.db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres')
      await sql`LOCK TABLE energy_rollup, energy_days IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    if ((await rollupZone<DB>(trx)) === tz) return { rebuilt: false };
    await rebuildDayRollup<DB>(trx, database.dialect, tz);
    return { rebuilt: true };
  });
}
