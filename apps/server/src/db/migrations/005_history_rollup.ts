import type { Kysely } from 'kysely';

// The energy columns of energy_quarters as 002 created them, frozen there.
import { ENERGY_COLUMNS } from './002_telemetry';

/**
 * Daily energy rollup: quarter-hour energy summed per device and local day, so a year of daily
 * or monthly energy reads about 365 rows instead of 35,000. The day is that of the installation's
 * time zone, recorded in energy_rollup. The tables start empty: the first start builds the rollup
 * from the stored quarter-hours in the installation's zone (ensureDayRollup), because local days
 * need the calendar code that a frozen migration must not import.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let days = db.schema
    .createTable('energy_days')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('day_sec', 'bigint', (c) => c.notNull());
  for (const col of ENERGY_COLUMNS) days = days.addColumn(col, 'bigint', (c) => c.notNull().defaultTo(0));
  await days.addPrimaryKeyConstraint('energy_days_pk', ['device_id', 'day_sec']).execute();

  await db.schema
    .createTable('energy_rollup')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('tz', 'varchar(64)', (c) => c.notNull())
    .execute();
}
