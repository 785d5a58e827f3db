import type { Kysely } from 'kysely';

// The energy columns as this migration created them, frozen (those of energy_quarters in 002).
const ENERGY_COLUMNS = [
  'e_i_l1_wh',
  'e_i_l2_wh',
  'e_i_l3_wh',
  'e_e_l1_wh',
  'e_e_l2_wh',
  'e_e_l3_wh',
  'q1_l1_varh',
  'q1_l2_varh',
  'q1_l3_varh',
  'q2_l1_varh',
  'q2_l2_varh',
  'q2_l3_varh',
  'q3_l1_varh',
  'q3_l2_varh',
  'q3_l3_varh',
  'q4_l1_varh',
  'q4_l2_varh',
  'q4_l3_varh',
  's_e_l1_vah',
  's_e_l2_vah',
  's_e_l3_vah',
  'e_i_wh',
  'e_e_wh',
  'q1_varh',
  'q2_varh',
  'q3_varh',
  'q4_varh',
  's_e_vah',
] as const;

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
