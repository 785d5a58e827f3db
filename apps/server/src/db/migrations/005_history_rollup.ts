import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';
import { ENERGY_COLUMNS } from '../../telemetry/columns';
import { rebuildDayRollup } from '../../telemetry/day-rollup.repository';

/**
 * Daily energy rollup: quarter-hour energy summed per device and local day, so a year of daily
 * or monthly energy reads about 365 rows instead of 35,000. The day is that of the installation's
 * time zone, recorded in energy_rollup; when the migration is told the zone it builds the rollup
 * from the stored quarter-hours at once, otherwise the first start does (ensureDayRollup).
 */
export async function up(db: Kysely<unknown>, { dialect, tz }: MigrationContext): Promise<void> {
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

  if (tz) await rebuildDayRollup(db, dialect, tz);
}
