import type { Kysely } from 'kysely';
import type { MigrationContext } from './index';

/**
 * The Belgian capacity tariff as a P1 meter records it itself. meter_capacity_peaks keeps each
 * month's peak the meter reports (1-0:1.6.0 for the running month, 0-0:98.1.0 for the months
 * before), keyed by the month of the meter's calendar (YYYY-MM); meter_capacity_demand keeps the
 * latest running quarter-hour average demand (1-0:1.4.0). reported_sec is the time of the telegram
 * a row was taken from, so an older telegram delivered again never replaces a newer report.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('meter_capacity_peaks')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('peak_w', 'bigint', (c) => c.notNull())
    .addColumn('peak_at_sec', 'bigint', (c) => c.notNull())
    .addColumn('reported_sec', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('meter_capacity_peaks_pk', ['device_id', 'month'])
    .execute();
  await db.schema
    .createTable('meter_capacity_demand')
    .addColumn('device_id', 'integer', (c) =>
      c.primaryKey().notNull().references('devices.id').onDelete('cascade'),
    )
    .addColumn('average_w', 'bigint', (c) => c.notNull())
    .addColumn('reported_sec', 'bigint', (c) => c.notNull())
    .execute();
}
